import Testing
@testable import KioskFeatures

/// What each part announced, and the difference a new announcement withdraws.
@Suite struct DiscoveryRecordTests {
    @Test func aPartWithdrawsWhatItNoLongerAnnounces() {
        var record = DiscoveryRecord()
        #expect(record.announce(.dial, topics: ["ha/select/k/item/config", "ha/select/k/language/config"]).isEmpty)
        #expect(record.announce(.values, topics: ["ha/number/k/value_a/config", "ha/number/k/value_b/config"]).isEmpty)
        #expect(record.announce(.dial, topics: ["ha/select/k/item/config"]) == ["ha/select/k/language/config"])
        // Another part's entities are not this part's to withdraw.
        #expect(record.announce(.values, topics: ["ha/number/k/value_b/config"]) == ["ha/number/k/value_a/config"])
        #expect(record.topics == ["ha/select/k/item/config", "ha/number/k/value_b/config"])
        #expect(record.announce(.values, topics: []) == ["ha/number/k/value_b/config"])
        #expect(record.announce(.values, topics: []).isEmpty)
    }

    @Test func aTopicThatMovedToAnotherPartStays() {
        var record = DiscoveryRecord()
        _ = record.announce(.dial, topics: ["t"])
        _ = record.announce(.fleet, topics: ["t"])
        #expect(record.announce(.dial, topics: []).isEmpty)
    }
}
