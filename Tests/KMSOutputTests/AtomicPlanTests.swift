import Testing
@testable import KioskSeams
@testable import KMSOutput

/// Objects shaped like vkms's (connector 35, CRTC 33, primary plane 31, cursor plane 32), with
/// property ids that differ per object, as on real drivers.
private enum Objects {
    static let connector = PropertyTable([("EDID", 1, 0), ("DPMS", 2, 0), ("CRTC_ID", 20, 33)])
    static let crtc = PropertyTable([("ACTIVE", 22, 1), ("MODE_ID", 23, 50), ("VRR_ENABLED", 24, 0)])
    static func plane(_ id: UInt32, type: UInt64, crtc: UInt64 = 0, possible: UInt32 = 1, clips: Bool = false) -> PlaneInfo {
        var entries: [(name: String, id: UInt32, value: UInt64)] = [
            ("type", 8, type), ("FB_ID", 17, 0), ("CRTC_ID", 18, crtc),
            ("SRC_X", 9, 0), ("SRC_Y", 10, 0), ("SRC_W", 11, 0), ("SRC_H", 12, 0),
            ("CRTC_X", 13, 0), ("CRTC_Y", 14, 0), ("CRTC_W", 15, 0), ("CRTC_H", 16, 0),
        ]
        if clips { entries.append(("FB_DAMAGE_CLIPS", 30, 0)) }
        return PlaneInfo(id: id, possibleCRTCs: possible, properties: PropertyTable(entries))
    }
    static let primary = plane(31, type: 1, crtc: 33, clips: true)
    /// Cursor planes are bound to a CRTC too: being on the CRTC must not make one the primary.
    static let cursor = plane(32, type: 2, crtc: 33)

    static func resolved(_ plane: PlaneInfo = primary) throws -> AtomicProperties {
        try AtomicProperties.resolve(connector: (35, connector), crtc: (33, crtc), plane: plane).get()
    }
}

@Suite struct KMSAPIChoiceTests {
    @Test func autoTakesAtomicWhenAvailableAndLegacyOtherwise() {
        #expect(KMSAPI.choose(.auto, support: .available) == .success(.atomic))
        #expect(KMSAPI.choose(.auto, support: .unavailable("no")) == .success(.legacy))
    }

    @Test func legacyNeverLooks() {
        #expect(KMSAPI.choose(.legacy, support: .available) == .success(.legacy))
        #expect(KMSAPI.choose(.legacy, support: .unavailable("no")) == .success(.legacy))
    }

    @Test func forcedAtomicFailsWithTheReason() {
        #expect(KMSAPI.choose(.atomic, support: .available) == .success(.atomic))
        #expect(KMSAPI.choose(.atomic, support: .unavailable("no primary plane for CRTC 33"))
            == .failure(KMSAPI.Refusal(reason: "no primary plane for CRTC 33")))
    }

    @Test func listOutputsWords() {
        #expect(KMSAPI.describe(.auto, support: .available, damageClips: true) == "atomic, FB_DAMAGE_CLIPS")
        #expect(KMSAPI.describe(.auto, support: .available, damageClips: false) == "atomic")
        #expect(KMSAPI.describe(.auto, support: .unavailable("x"), damageClips: false) == "legacy (atomic: x)")
        #expect(KMSAPI.describe(.legacy, support: .available, damageClips: true) == "legacy (--kms-api legacy)")
        #expect(KMSAPI.describe(.atomic, support: .unavailable("x"), damageClips: false) == "none (--kms-api atomic: x)")
    }
}

@Suite struct PrimaryPlaneTests {
    @Test func theCursorIsNeverChosen() {
        let chosen = PlaneInfo.primary(among: [Objects.cursor, Objects.primary], crtcIndex: 0, crtcID: 33)
        #expect(chosen?.id == 31)
    }

    @Test func thePossibleCRTCsBitMustMatchTheCRTCsIndex() {
        let second = Objects.plane(40, type: 1, possible: 0b10)
        #expect(PlaneInfo.primary(among: [second], crtcIndex: 0, crtcID: 33) == nil)
        #expect(PlaneInfo.primary(among: [Objects.primary, second], crtcIndex: 1, crtcID: 34)?.id == 40)
        #expect(PlaneInfo.primary(among: [Objects.primary], crtcIndex: -1, crtcID: 33) == nil)
    }

    @Test func thePlaneAlreadyOnTheCRTCIsPreferred() {
        let shared = Objects.plane(40, type: 1, crtc: 0, possible: 0b11)
        let onIt = Objects.plane(41, type: 1, crtc: 34, possible: 0b11)
        #expect(PlaneInfo.primary(among: [shared, onIt], crtcIndex: 1, crtcID: 34)?.id == 41)
        #expect(PlaneInfo.primary(among: [shared, onIt], crtcIndex: 0, crtcID: 33)?.id == 40)
    }

    @Test func noPlaneWithoutATypeProperty() {
        let untyped = PlaneInfo(id: 5, possibleCRTCs: 1, properties: PropertyTable([("FB_ID", 1, 0)]))
        #expect(PlaneInfo.primary(among: [untyped], crtcIndex: 0, crtcID: 33) == nil)
    }
}

@Suite struct AtomicPropertiesTests {
    @Test func propertiesAreLookedUpByNameOnTheirOwnObject() throws {
        let p = try Objects.resolved()
        let list = p.modeset(modeBlob: 77, framebuffer: 90, width: 1024, height: 768)
        // Connector CRTC_ID is 20, the plane's CRTC_ID is 18: the same name, per object.
        #expect(list.contains(AtomicAssignment(35, 20, 33)))
        #expect(list.contains(AtomicAssignment(31, 18, 33)))
        #expect(list.contains(AtomicAssignment(33, 23, 77)))
        #expect(list.contains(AtomicAssignment(33, 22, 1)))
        #expect(list.contains(AtomicAssignment(31, 17, 90)))
    }

    @Test func theModesetShowsTheBufferFullScreenWithSourceIn16Dot16() throws {
        let list = try Objects.resolved().modeset(modeBlob: 77, framebuffer: 90, width: 1024, height: 768)
        #expect(list.contains(AtomicAssignment(31, 11, 1024 << 16)))
        #expect(list.contains(AtomicAssignment(31, 12, 768 << 16)))
        #expect(list.contains(AtomicAssignment(31, 15, 1024)))
        #expect(list.contains(AtomicAssignment(31, 16, 768)))
        for id: UInt32 in [9, 10, 13, 14] { #expect(list.contains(AtomicAssignment(31, id, 0))) }
        #expect(list.count == 13)
    }

    @Test func aFlipSetsOnlyTheFramebufferAndTheDamageBlob() throws {
        let p = try Objects.resolved()
        #expect(p.flip(framebuffer: 91) == [AtomicAssignment(31, 17, 91)])
        #expect(p.flip(framebuffer: 91, damageBlob: 5) == [AtomicAssignment(31, 17, 91), AtomicAssignment(31, 30, 5)])
        #expect(p.hasDamageClips)
    }

    @Test func noDamageBlobWhenThePlaneHasNoFBDamageClips() throws {
        let p = try Objects.resolved(Objects.plane(31, type: 1))
        #expect(!p.hasDamageClips)
        #expect(p.flip(framebuffer: 91, damageBlob: 5) == [AtomicAssignment(31, 17, 91)])
    }

    @Test func aMissingPropertyIsNamedWithItsObject() {
        let noMode = PropertyTable([("ACTIVE", 22, 1)])
        #expect(AtomicProperties.resolve(connector: (35, Objects.connector), crtc: (33, noMode), plane: Objects.primary)
            == .failure(KMSAPI.Refusal(reason: "CRTC 33 has no property MODE_ID")))
        #expect(AtomicProperties.resolve(connector: (35, PropertyTable()), crtc: (33, Objects.crtc), plane: Objects.primary)
            == .failure(KMSAPI.Refusal(reason: "connector 35 has no property CRTC_ID")))
        let noSrc = PlaneInfo(id: 31, possibleCRTCs: 1, properties: PropertyTable([("type", 8, 1), ("FB_ID", 17, 0), ("CRTC_ID", 18, 0)]))
        #expect(AtomicProperties.resolve(connector: (35, Objects.connector), crtc: (33, Objects.crtc), plane: noSrc)
            == .failure(KMSAPI.Refusal(reason: "plane 31 has no property SRC_X")))
    }
}

@Suite struct DamageClipTests {
    /// The painter's rectangles ([x0, x1) x [y0, y1), the form of struct drm_mode_rect) go to
    /// the kernel cut to the buffer, empty ones dropped.
    @Test func clipsAreCutToTheBufferAndEmptyOnesDropped() {
        let rects = DamageClips.cut([PixelRect(x0: -10, y0: 5, x1: 20, y1: 15),
                                     PixelRect(x0: 1000, y0: 760, x1: 1100, y1: 860),
                                     PixelRect(x0: 2000, y0: 0, x1: 2005, y1: 5),
                                     PixelRect(x0: 3, y0: 3, x1: 3, y1: 11)],
                                    width: 1024, height: 768)
        #expect(rects == [PixelRect(x0: 0, y0: 5, x1: 20, y1: 15), PixelRect(x0: 1000, y0: 760, x1: 1024, y1: 768)])
    }
}

@Suite struct PowerPlanTests {
    @Test func blankIsTheCRTCsActiveZeroAlone() throws {
        let p = try Objects.resolved()
        #expect(p.powerOff() == [AtomicAssignment(33, 22, 0)])
        // Waking is the modeset, which sets ACTIVE=1 with the mode.
        #expect(p.modeset(modeBlob: 50, framebuffer: 60, width: 8, height: 6).contains(AtomicAssignment(33, 22, 1)))
    }
}
