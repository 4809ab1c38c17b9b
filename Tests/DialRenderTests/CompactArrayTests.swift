@testable import DialRender
import Testing

/// Cached masks and sprites are built by appends and kept for the kiosk's lifetime: they must
/// not keep the spare capacity of their growth (up to twice their bytes).
@Suite struct CompactArrayTests {
    @Test func compactedKeepsTheElementsInStorageOfTheirOwnSize() {
        var grown: [UInt8] = []
        for i in 0..<5000 { grown.append(UInt8(truncatingIfNeeded: i * 7)) }
        // 5000 appends leave the capacity of the last doubling (more than 6000 here).
        #expect(grown.capacity > 6000)
        let compact = grown.compacted()
        #expect(compact == grown)
        #expect(compact.capacity <= grown.count + grown.count / 16 + 16)
    }

    @Test func aLabelMaskKeepsNoSpareCapacity() throws {
        let text = try TextRenderer(catalog: FontCatalog(), fontName: Theme().fontName)
        let mask = try #require(text.fittedMask("Cappuccino grande", nominalPx: 40, minPx: 12, radius: 90))
        #expect(mask.storageBytes <= mask.byteCount + mask.byteCount / 16 + 64)
    }
}
