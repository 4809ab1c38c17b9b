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
            let error = load(DK_ESPEAK_SONAME, with: dk_espeak_load)
            done = error == nil
            return error
        }
    }
    /// libasound.so.2: what `PCMOutput` calls.
    static var alsa: AudioError? {
        alsaLoaded.withLock { done -> AudioError? in
            if done { return nil }
            let error = load(DK_ALSA_SONAME, with: dk_alsa_load)
            if error == nil { dk_alsa_silence_errors() }
            done = error == nil
            return error
        }
    }
    private static let espeakLoaded = Mutex(false)
    private static let alsaLoaded = Mutex(false)

    /// nil once `soname` is loaded by `loader`, else the error naming it: "Failed to load
    /// libespeak-ng.so.1: libespeak-ng.so.1: cannot open shared object file: No such file or directory".
    static func load(_ soname: String, with loader: SharedLibrary.Loader) -> AudioError? {
        SharedLibrary.load(soname, with: loader).map {
            AudioError(AudioCall(operation: "load \(soname)", reason: $0), code: ELIBACC)
        }
    }
}
