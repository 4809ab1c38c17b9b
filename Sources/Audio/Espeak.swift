import CEspeakNG
import Glibc
import LinuxSystem

/// espeak-ng in synchronous mode: `synthesize` runs on the calling thread and hands the PCM
/// to a closure chunk by chunk, which may stop it. The library has one global state, so there
/// is one of these per process (`shared`), initialised once; every synthesis is serialised by
/// its lock (in the kiosk only the audio worker synthesises).
package final class Espeak: @unchecked Sendable {
    /// The library, loaded (libespeak-ng.so.1) and initialised on first use; the error when it
    /// cannot be loaded or espeak-ng-data cannot be found.
    package static let shared: Result<Espeak, AudioError> = {
        do throws(AudioError) {
            return .success(try Espeak())
        } catch {
            return .failure(error)
        }
    }()

    /// Samples per second of what `synthesize` hands out (22050 for espeak-ng's voices).
    package let sampleRate: Int
    /// The installed voices, read once at start (the list does not change while running).
    package let voices: VoiceCatalog
    /// Milliseconds of audio per chunk: the worker checks for a newer utterance between chunks.
    package static let chunkMilliseconds: Int32 = 10

    private let lock = Monitor()

    private init() throws(AudioError) {
        if let error = AudioLibraries.espeak { throw error }
        // espeak-ng starts a thread of its own here (its asynchronous queue, even in synchronous
        // mode), which inherits this thread's signal mask: with every signal blocked it never
        // takes the SIGTERM that `run` reads through its signalfd (seen: run killed by SIGTERM,
        // status 143, once espeak-ng was initialised before the loop blocked the signals).
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_BLOCK, &all, &previous)
        // DONT_EXIT: without its data espeak-ng would otherwise end the process.
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, Self.chunkMilliseconds, nil, 0x8000)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        guard rate > 0 else {
            throw AudioError(AudioCall(operation: "initialise espeak-ng", reason: "its data (espeak-ng-data) was not found"),
                             code: ENOENT)
        }
        sampleRate = Int(rate)
        espeak_SetSynthCallback(synthCallback)
        var catalog = VoiceCatalog(listing: espeak_ListVoices(nil))
        // The variants (voices/!v): what may follow a '+'. Listed with the language "variant",
        // as `espeak-ng --voices=variant` does; the list above is reused by this call, so it
        // was read first.
        var spec = espeak_VOICE()
        "variant".withCString { language in
            spec.languages = language
            catalog.variants = VoiceCatalog.variants(listing: espeak_ListVoices(&spec))
        }
        voices = catalog
    }

    /// Bytes of spoken text handed to espeak-ng at most (a label or a sentence is far shorter).
    package static let textLimit = 4096

    /// How a text is spoken.
    package struct Voice: Sendable, Equatable {
        /// An espeak-ng voice name, identifier or language ("en", "de", "fr-fr").
        package var name: String
        /// Words per minute, 80-450 (espeak-ng's default is 175).
        package var rate: Int
        /// 0-200, 100 is espeak-ng's normal loudness.
        package var volume: Int

        package init(name: String = "en", rate: Int = 175, volume: Int = 100) {
            self.name = name
            self.rate = rate
            self.volume = volume
        }
    }

    /// Speaks `text` into 16-bit mono samples at `sampleRate`, handing each chunk to `chunk` as
    /// it comes; `chunk` returns false to stop the synthesis there. Throws when the voice is
    /// unknown or espeak-ng fails. Flags as the `espeak-ng` command's: UTF-8 text, a
    /// sentence's pause at the end.
    package func synthesize(_ text: String, voice: Voice, chunk: @escaping ([Int16]) -> Bool) throws(AudioError) {
        // espeak-ng copies a variant's name into a fixed buffer: only names it ships get there.
        guard voices.contains(voice.name) else {
            throw AudioError(AudioCall(operation: "set the espeak-ng voice '\(voice.name.prefix(VoiceCatalog.nameLimit))'",
                                       reason: "not found (espeak-ng --voices and --voices=variant list the installed ones)"),
                             code: ENOENT)
        }
        let text = Self.bounded(text)
        lock.lock()
        defer { lock.unlock() }
        try check("set the espeak-ng voice '\(voice.name)'", espeak_SetVoiceByName(voice.name))
        try check("set the espeak-ng rate", espeak_SetParameter(espeakRATE, Int32(voice.rate), 0))
        try check("set the espeak-ng volume", espeak_SetParameter(espeakVOLUME, Int32(voice.volume), 0))
        let context = SynthContext(chunk: chunk)
        let result = withExtendedLifetime(context) {
            text.withCString { cText in
                // 0x1000: espeakENDPAUSE, as the espeak-ng command has it.
                espeak_Synth(cText, strlen(cText) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_AUTO) | 0x1000, nil,
                             Unmanaged.passUnretained(context).toOpaque())
            }
        }
        // A synthesis the callback stopped reports EE_OK as well.
        try check("synthesise speech", result)
    }

    /// `text`, or its first `textLimit` bytes cut at a character boundary.
    static func bounded(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > textLimit else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: textLimit)
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        return String(text[..<end])
    }

    private func check(_ operation: String, _ result: espeak_ERROR) throws(AudioError) {
        guard result != EE_OK else { return }
        let reason = result == EE_NOT_FOUND ? "not found (espeak-ng --voices lists the installed ones)" : "espeak-ng error \(result.rawValue)"
        throw AudioError(AudioCall(operation: operation, reason: reason), code: result == EE_NOT_FOUND ? ENOENT : EIO)
    }
}

/// What the C callback reaches through the synthesis's user data.
private final class SynthContext {
    let chunk: ([Int16]) -> Bool
    var stopped = false
    init(chunk: @escaping ([Int16]) -> Bool) { self.chunk = chunk }
}

/// espeak-ng's synthesis callback: one chunk of samples (none at the end); returning 1 aborts.
private let synthCallback: @convention(c) (UnsafeMutablePointer<Int16>?, Int32, UnsafeMutablePointer<espeak_EVENT>?) -> Int32 = {
    wav, count, events in
    guard let events, let data = events.pointee.user_data else { return 0 }
    let context = Unmanaged<SynthContext>.fromOpaque(data).takeUnretainedValue()
    guard !context.stopped else { return 1 }
    guard let wav, count > 0 else { return 0 }
    if !context.chunk(Array(UnsafeBufferPointer(start: wav, count: Int(count)))) {
        context.stopped = true
        return 1
    }
    return 0
}

/// The installed voices as plain strings, for checking a configured `voice` without calling
/// into espeak-ng (a reload checks it on another thread than the worker's).
package struct VoiceCatalog: Sendable, Equatable {
    /// Every name a voice answers to, lowercased: its name, identifier ("gmw/en-us"), the
    /// identifier's last part ("en-us") and its languages.
    package var names: Set<String>
    /// The variants espeak-ng ships (its voices/!v file names, as spelled there): what may
    /// follow a '+' ("en+f3").
    package var variants: Set<String>
    /// Bytes of a voice name at most, variant included: espeak-ng copies a variant's name with
    /// its "!v/" prefix into a 40-byte buffer (longer ones abort the process).
    package static let nameLimit = 32

    package init(names: Set<String>, variants: Set<String> = []) {
        self.names = names
        self.variants = variants
    }

    /// The names after "!v/" in a variant listing.
    static func variants(listing: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?) -> Set<String> {
        var variants = Set<String>()
        var i = 0
        while let listing, let voice = listing[i] {
            i += 1
            guard let identifier = voice.pointee.identifier else { continue }
            let id = String(cString: identifier)
            if id.hasPrefix("!v/"), id.utf8.count - 3 <= nameLimit { variants.insert(String(id.dropFirst(3))) }
        }
        return variants
    }

    init(listing: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?) {
        var names = Set<String>()
        var i = 0
        while let listing, let voice = listing[i] {
            i += 1
            if let name = voice.pointee.name { names.insert(String(cString: name).lowercased()) }
            if let identifier = voice.pointee.identifier {
                let id = String(cString: identifier).lowercased()
                names.insert(id)
                if let last = id.split(separator: "/").last { names.insert(String(last)) }
            }
            // Languages: a priority byte, a zero-terminated name, ..., a final zero byte.
            if var p = voice.pointee.languages {
                while p.pointee != 0 {
                    p += 1
                    let language = String(cString: p)
                    names.insert(language.lowercased())
                    p += strlen(p) + 1
                }
            }
        }
        self.names = names
        variants = []
    }

    /// Whether espeak-ng has `voice`: a voice or language, and after a '+' one of its variants
    /// ("en+f3"); nothing over `nameLimit` bytes.
    package func contains(_ voice: String) -> Bool {
        guard voice.utf8.count <= Self.nameLimit else { return false }
        let parts = voice.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard names.contains(parts[0].lowercased()) else { return false }
        return parts.count == 1 || variants.contains(parts[1])
    }
}
