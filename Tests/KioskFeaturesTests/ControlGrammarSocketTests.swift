import Glibc
import Testing
@testable import KioskFeatures
import KioskTestSupport

/// The socket grammar through a real control socket: white space before the verb and tabs
/// between words are taken as spaces, and extreme numbers are answered with a refusal.
@Suite struct ControlGrammarSocketTests {
    @Test func leadingSpaceAndTabsAreCommandsAndExtremeNumbersAreRefused() throws {
        try withControlClient { server, client in
            writeAll(client, " select x\nselect\tx\n\t turn\t-2 \nturn -9223372036854775808\n")
            var requests: [ControlServer.Request] = []
            for fd in server.pollDescriptors.map(\.fd) where fd != server.listeningDescriptor {
                requests += server.handle(readyDescriptor(fd), now: 1)
            }
            #expect(requests.map(\.command) == [.select(path: ["x"]), .select(path: ["x"]), .turn(-2)])
            let reply = readAvailable(client)
            #expect(reply.contains("turn needs a whole number of detents from -1000 to 1000, not 0, got '-9223372036854775808'"), "\(reply)")
        }
    }
}
