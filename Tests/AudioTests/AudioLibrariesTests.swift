import CALSA
import CEspeakNG
import Glibc
import Testing
@testable import Audio
import LinuxSystem

/// libespeak-ng and libasound are opened on first use; a library that cannot be
/// opened is an error naming it and dlerror's reason, never a crash.
@Suite struct AudioLibrariesTests {
    @Test func aMissingEspeakIsAnErrorNamingIt() throws {
        let error = try #require(AudioLibraries.load("libespeak-ng-dialkiosk-nowhere.so.1", with: dk_espeak_load))
        #expect(error.description == "Failed to load libespeak-ng-dialkiosk-nowhere.so.1: libespeak-ng-dialkiosk-nowhere.so.1: "
                + "cannot open shared object file: No such file or directory")
    }

    @Test func aMissingALSAIsAnErrorNamingIt() throws {
        let error = try #require(AudioLibraries.load("libasound-dialkiosk-nowhere.so.2", with: dk_alsa_load))
        #expect(error.description.hasPrefix("Failed to load libasound-dialkiosk-nowhere.so.2: libasound-dialkiosk-nowhere.so.2: cannot open"))
    }

    @Test func theKiosksLibrariesLoad() {
        #expect(AudioLibraries.load(DK_ESPEAK_SONAME, with: dk_espeak_load) == nil)
        #expect(AudioLibraries.load(DK_ALSA_SONAME, with: dk_alsa_load) == nil)
        #expect(DK_ESPEAK_SONAME == "libespeak-ng.so.1" && DK_ALSA_SONAME == "libasound.so.2")
    }

    @Test func theLoaderFillsTheErrorBufferWithinItsSize() {
        var buffer = [CChar](repeating: 0x7F, count: 16)
        let result = buffer.withUnsafeMutableBufferPointer { dk_espeak_load("libdialkiosk-nowhere.so.1", $0.baseAddress, 8) }
        #expect(result != 0)
        #expect(buffer[7] == 0)   // 7 bytes and the terminating zero
        #expect(String(decoding: buffer[..<7].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "libdial")
        #expect(buffer[8...].allSatisfy { $0 == 0x7F })
    }
}
