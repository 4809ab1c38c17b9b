import CMosquitto
import Testing
@testable import MQTTLink

/// libmosquitto is opened by the first client, not linked; a library that cannot be
/// opened is the module's error naming it and dlerror's reason.
@Suite struct MosquittoLibraryTests {
    @Test func aMissingLibmosquittoIsAnErrorNamingIt() throws {
        let error = try #require(MosquittoClient.load("libmosquitto-dialkiosk-nowhere.so.1"))
        #expect(error.description == "Failed to load libmosquitto-dialkiosk-nowhere.so.1: libmosquitto-dialkiosk-nowhere.so.1: "
                + "cannot open shared object file: No such file or directory")
        #expect(MQTTConnection.words(error).hasPrefix("load libmosquitto-dialkiosk-nowhere.so.1: "))
    }

    @Test func theKiosksLibmosquittoLoadsAndAClientIsMade() throws {
        #expect(DK_MOSQUITTO_SONAME == "libmosquitto.so.1")
        #expect(MosquittoClient.load(DK_MOSQUITTO_SONAME) == nil)
        let client = try MosquittoClient(clientID: "dialkiosk-library-test")
        client.close()
    }
}
