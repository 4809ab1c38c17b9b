import Testing
@testable import CECLink

/// The power link on a fake clock: what it sends for each wish, and when it reports a failure.
@Suite struct CECPowerLinkTests {
    let kiosk: UInt8 = 4
    let status = CECOpcode.reportPowerStatus.rawValue

    /// A link with playback address 4 claimed at physical address 1.0.0.0.
    func claimed() -> CECPowerLink {
        var link = CECPowerLink(physicalAddress: CECPhysicalAddress(0x1000))
        _ = link.claimed(4, now: 0)
        return link
    }

    /// Queues the messages as the kernel would, numbering them from `first`.
    func queue(_ out: [CECPowerLink.Outgoing], in link: inout CECPowerLink, first: UInt32) -> [UInt32: CECPowerLink.Outgoing] {
        var sequences: [UInt32: CECPowerLink.Outgoing] = [:]
        for (i, o) in out.enumerated() {
            link.queued(o, sequence: first + UInt32(i))
            sequences[first + UInt32(i)] = o
        }
        return sequences
    }

    func report(_ value: CECPowerStatus) -> CECMessage {
        CECMessage(from: 0, to: kiosk, opcode: status, operands: [value.rawValue])
    }

    @Test func onSendsImageViewOnActiveSourceThenAsksThePowerStatus() {
        var link = claimed()
        let (send, reports) = link.want(.on, now: 10)
        #expect(reports.isEmpty)
        #expect(send.map(\.message.bytes) == [[0x40, 0x04], [0x4f, 0x82, 0x10, 0x00], [0x40, 0x8f]])
        #expect(send.last?.reply == status)
        #expect(link.wakeUp == 15)
    }

    @Test func offSendsStandbyToTheTVAlone() {
        var link = claimed()
        let send = link.want(.off, now: 0).send
        #expect(send.map(\.message.bytes) == [[0x40, 0x36], [0x40, 0x8f]])
    }

    @Test func aWishWaitsForTheLogicalAddress() {
        var link = CECPowerLink(physicalAddress: CECPhysicalAddress(0x1000))
        #expect(link.want(.on, now: 0).send.isEmpty)
        let send = link.claimed(8, now: 1).send
        #expect(send.first?.message.bytes == [0x80, 0x04])
        #expect(link.want(.on, now: 2).send.isEmpty, "the same wish is not sent twice")
    }

    @Test func theMatchingStatusIsFollowedAndAMismatchIsAskedAgain() {
        var link = claimed()
        let out = link.want(.off, now: 0).send
        let seqs = queue(out, in: &link, first: 1)
        #expect(link.result(sequence: 1, acknowledged: true, replyTimedOut: false, aborted: false, reply: nil, now: 0.2).isEmpty)
        // The TV answers "on" just after Standby: not a failure yet, asked again in a second.
        #expect(link.result(sequence: 2, acknowledged: true, replyTimedOut: false, aborted: false, reply: report(.on), now: 0.3).isEmpty)
        #expect(link.wakeUp == 1.3)
        #expect(link.tick(now: 1.0).send.isEmpty)
        let again = link.tick(now: 1.3).send
        #expect(again.map(\.message.bytes) == [[0x40, 0x8f]])
        _ = queue(again, in: &link, first: 3)
        #expect(seqs.count == 2)
        let reports = link.result(sequence: 3, acknowledged: true, replyTimedOut: false, aborted: false,
                                  reply: report(.turningStandby), now: 1.5)
        #expect(reports == [.followed(.turningStandby)])
        #expect(link.wakeUp == nil)
        #expect(link.tick(now: 100).reports.isEmpty)
    }

    @Test func aTVThatStaysOnFailsAtTheDeadlineOnce() {
        var link = claimed()
        _ = queue(link.want(.off, now: 0).send, in: &link, first: 1)
        _ = link.result(sequence: 2, acknowledged: true, replyTimedOut: false, aborted: false, reply: report(.on), now: 0.3)
        #expect(link.tick(now: 4.9).reports.isEmpty)
        #expect(link.tick(now: 5.0).reports == [.failed("the TV still reports on 5 s after Standby")])
        #expect(link.tick(now: 9).reports.isEmpty)
    }

    @Test func noAcknowledgementIsAFailureReportedOncePerReason() {
        var link = claimed()
        _ = queue(link.want(.on, now: 0).send, in: &link, first: 1)
        let first = link.result(sequence: 1, acknowledged: false, replyTimedOut: false, aborted: false, reply: nil, now: 0.1)
        #expect(first == [.failed("Image View On was not acknowledged (no TV answers at logical address 0)")])
        // The rest of the round says nothing more, and neither does the deadline.
        #expect(link.result(sequence: 3, acknowledged: false, replyTimedOut: false, aborted: false, reply: nil, now: 0.2).isEmpty)
        #expect(link.tick(now: 6).reports.isEmpty)
        // The next round with the same reason is not reported again...
        _ = queue(link.want(.off, now: 10).send, in: &link, first: 4)
        _ = queue(link.want(.on, now: 11).send, in: &link, first: 6)
        #expect(link.result(sequence: 6, acknowledged: false, replyTimedOut: false, aborted: false, reply: nil, now: 11.1).isEmpty)
        // ...until the TV follows again.
        _ = queue(link.want(.off, now: 12).send, in: &link, first: 9)
        #expect(link.result(sequence: 10, acknowledged: true, replyTimedOut: false, aborted: false, reply: report(.standby), now: 12.2)
                == [.followed(.standby)])
        _ = queue(link.want(.on, now: 13).send, in: &link, first: 11)
        #expect(link.result(sequence: 11, acknowledged: false, replyTimedOut: false, aborted: false, reply: nil, now: 13.1).count == 1)
    }

    @Test func noStatusWithinFiveSecondsIsAFailure() {
        var link = claimed()
        _ = queue(link.want(.on, now: 0).send, in: &link, first: 1)
        #expect(link.tick(now: 4.99).reports.isEmpty)
        #expect(link.tick(now: 5).reports == [.failed("no power status from the TV within 5 s")])
    }

    @Test func theTVsStandbyIsReportedAndNotEchoed() {
        var link = claimed()
        _ = queue(link.want(.on, now: 0).send, in: &link, first: 1)
        let (send, reports) = link.received(CECMessage(from: 0, to: 15, opcode: CECOpcode.standby.rawValue), now: 3)
        #expect(send.isEmpty)
        #expect(reports == [.standbyFromTV])
        #expect(link.wakeUp == nil)
        #expect(link.want(.off, now: 4).send.isEmpty, "the TV is in standby already")
        #expect(link.want(.on, now: 5).send.first?.message.bytes == [0x40, 0x04])
    }

    @Test func aQuestionForOurPowerStatusIsAnswered() {
        var link = claimed()
        _ = link.want(.off, now: 0)
        let send = link.received(CECMessage(from: 0, to: kiosk, opcode: CECOpcode.giveDevicePowerStatus.rawValue), now: 1).send
        #expect(send.map(\.message.bytes) == [[0x40, 0x90, 0x01]])
    }

    @Test func theAdapterChoiceSkipsTheTVsOwnUnpluggedAndTakenAdapters() {
        let caps = CECCapabilities(driver: "vivid", name: "x", availableLogicalAddresses: 4, flags: 0x06)
        #expect(CECAdapterChoice.refusal(address: CECPhysicalAddress(0), configuredByOthers: 0, capabilities: caps) != nil)
        #expect(CECAdapterChoice.refusal(address: .invalid, configuredByOthers: 0, capabilities: caps) != nil)
        #expect(CECAdapterChoice.refusal(address: CECPhysicalAddress(0x1000), configuredByOthers: 1, capabilities: caps) != nil)
        #expect(CECAdapterChoice.refusal(address: CECPhysicalAddress(0x1000), configuredByOthers: 0, capabilities: caps) == nil)
        #expect(CECDisplay.playbackAddress(in: 0x0010) == 4)
        #expect(CECDisplay.playbackAddress(in: 0x0001) == nil)
        #expect("\(CECPhysicalAddress(0x1200))" == "1.2.0.0")
    }
}
