import Testing
import CMosquitto
@testable import MQTTLink

@Suite struct LinkPolicyTests {
    @Test func backoffDoublesFromOneSecondToSixtyAndResetsOnConnect() {
        var backoff = ReconnectBackoff()
        let delays = (0..<9).map { _ in backoff.failed(at: 100) - 100 }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        backoff.connected()
        #expect(backoff.failed(at: 0) == 1)
    }

    @Test func backlogKeepsTheNewestAndCountsTheDroppedOnce() {
        var backlog = EventBacklog(capacity: 3)
        for i in 1...5 { backlog.append("\(i)") }
        #expect(backlog.count == 3)
        #expect(backlog.first == "3")
        #expect(backlog.droppedTotal == 2)
        let first = backlog.takeOverflowNotice(), second = backlog.takeOverflowNotice()
        #expect(first && !second)
        let reported = backlog.takeDroppedSinceReport()
        #expect(reported == 2)
        backlog.append("6")
        let again = backlog.takeOverflowNotice()
        #expect(again)
        var order: [String] = []
        while let line = backlog.first { order.append(line); backlog.removeFirst() }
        #expect(order == ["4", "5", "6"])
        #expect(backlog.droppedTotal == 3)
    }

    @Test func backlogReclaimsItsConsumedPrefixAndStaysInOrder() {
        var backlog = EventBacklog(capacity: 100)
        var taken: [String] = []
        for i in 0..<2000 {
            backlog.append("\(i)")
            if i % 3 != 0, let first = backlog.first { taken.append(first); backlog.removeFirst() }
        }
        while let line = backlog.first { taken.append(line); backlog.removeFirst() }
        let numbers = taken.compactMap(Int.init)
        #expect(numbers == numbers.sorted())
        #expect(numbers.count + backlog.droppedTotal == 2000)
    }
}

@Suite struct SessionWatchTests {
    @Test func shortSessionsInARowMeanATakeoverAndALastingOneClearsIt() {
        var watch = SessionWatch()
        for i in 0..<SessionWatch.suspectAfter {
            #expect(!watch.takenOver)
            watch.accepted(at: Double(i) * 100)
            let short = watch.lost(at: Double(i) * 100 + 0.5)
            #expect(short)
        }
        #expect(watch.takenOver)
        watch.accepted(at: 1000)
        let early = watch.held(at: 1000 + SessionWatch.shortSession / 2)
        #expect(!early && watch.takenOver)
        let lasted = watch.held(at: 1000 + SessionWatch.shortSession)
        #expect(lasted && !watch.takenOver)
        // A long session lost is no sign of a takeover.
        watch.accepted(at: 2000)
        let short = watch.lost(at: 2000 + SessionWatch.shortSession + 1)
        #expect(!short)
        #expect(watch.shortInARow == 0)
    }
}

@Suite struct KeepaliveWordsTests {
    /// libmosquitto 2.0's own text for its keepalive code is "Unknown error.".
    @Test func aKeepaliveTimeoutIsSaidInWords() {
        let error = MosquittoError("keep the MQTT connection alive", result: Int32(MOSQ_ERR_KEEPALIVE.rawValue))
        #expect(error.description.contains("did not answer within the keepalive time"), "\(error)")
        #expect(!error.description.contains("Unknown error"))
    }
}
