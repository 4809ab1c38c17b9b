import CMosquitto
import Testing
@testable import MQTTLink

/// libmosquitto is opened by the first client, not linked; a library that cannot be
/// opened is the module's error naming it, dlerror's reason, and what is off until which
/// package (the .deb only recommends it) is installed.
@Suite struct MosquittoLibraryTests {
    @Test func aMissingLibmosquittoIsAnErrorNamingIt() throws {
        let error = try #require(MosquittoClient.load("libmosquitto-dialkiosk-nowhere.so.1"))
        #expect(error.description == "Failed to load libmosquitto-dialkiosk-nowhere.so.1: libmosquitto-dialkiosk-nowhere.so.1: "
                + "cannot open shared object file: No such file or directory (MQTT is off until it is installed; Debian: libmosquitto1)")
        #expect(MQTTConnection.words(error).hasPrefix("load libmosquitto-dialkiosk-nowhere.so.1: "))
    }

    @Test func theKiosksLibmosquittoLoadsAndAClientIsMade() throws {
        #expect(DK_MOSQUITTO_SONAME == "libmosquitto.so.1")
        #expect(MosquittoClient.load(DK_MOSQUITTO_SONAME) == nil)
        let client = try MosquittoClient(clientID: "dialkiosk-library-test")
        client.close()
    }
}
