import Testing
@testable import KioskReporting
import KioskTestSupport

@Suite struct ExitStatusTests {
    @Test func statusesAreDistinct() {
        let codes = ExitStatus.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
    }

    @Test func everyStatusIsExplained() {
        for status in ExitStatus.allCases {
            #expect(!status.meaning.isEmpty)
        }
    }
}
