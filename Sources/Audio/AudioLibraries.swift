import CALSA
import CEspeakNG
import Glibc
import LinuxSystem
import Synchronization

/// libespeak-ng and libasound, opened (dlopen) the first time speech or a cue needs them, not
/// linked: a kiosk without speech or cues never maps them nor what they pull in (PulseAudio,
/// D-Bus, libsndfile, ...). Each is loaded once per process; a failed load is not kept: the
/// worker's next try opens it again (a library installed later is picked up).
enum AudioLibraries {
    /// libespeak-ng.so.1: what `Espeak` calls.
    static var espeak: AudioError? {
        espeakLoaded.withLock { done -> AudioError? in
            if done { return nil }
            let error = load(DK_ESPEAK_SONAME, with: dk_espeak_load, feature: "speech is off", package: "libespeak-ng1")
            done = error == nil
            return error
        }
    }
    /// libasound.so.2: what `PCMOutput` calls.
    static var alsa: AudioError? {
        alsaLoaded.withLock { done -> AudioError? in
            if done { return nil }
            let error = load(DK_ALSA_SONAME, with: dk_alsa_load, feature: "speech and sound cues are off",
                             package: "libasound2t64, libasound2 before Debian 13")
            if error == nil { dk_alsa_silence_errors() }
            done = error == nil
            return error
        }
    }
    private static let espeakLoaded = Mutex(false)
    private static let alsaLoaded = Mutex(false)

    /// nil once `soname` is loaded by `loader`, else the error naming it: "Failed to load
    /// libespeak-ng.so.1: libespeak-ng.so.1: cannot open shared object file: No such file or directory".
    /// The package's Recommends name the libraries, so an installation without them is a
    /// choice: the line says what is off and what to install (`feature`, `package`).
    static func load(_ soname: String, with loader: SharedLibrary.Loader, feature: String = "", package: String = "") -> AudioError? {
        SharedLibrary.load(soname, with: loader).map {
            let advice = feature.isEmpty ? "" : " (\(feature) until it is installed; Debian: \(package))"
            return AudioError(AudioCall(operation: "load \(soname)", reason: $0 + advice), code: ELIBACC)
        }
    }
}
