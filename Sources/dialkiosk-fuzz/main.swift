// The fuzzer for the configuration, `libinput record` and JSON parsers.
//
// Built with libFuzzer (`-Xswiftc -sanitize=fuzzer,address -Xswiftc -DLIBFUZZER`, linked with lld:
// see scripts/fuzz.sh), it hands control to libFuzzer's driver; SwiftPM renames an executable's
// `main`, so libFuzzer's own main is never used and `LLVMFuzzerRunDriver` starts it instead.
// Built plainly, it runs the seeded mutation fuzzer for a fixed number of inputs.
// The target is chosen by DIALKIOSK_FUZZ_TARGET (config, record or json); every finding of the oracle
// aborts, so libFuzzer saves the input.
import DialKioskApp
import Foundation

/// The parser under test, from DIALKIOSK_FUZZ_TARGET (a static, so libFuzzer's C callback can
/// reach it without capturing anything).
enum Selected {
    static let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["DIALKIOSK_FUZZ_TARGET"] ?? "config"
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("dialkiosk-fuzz: DIALKIOSK_FUZZ_TARGET must be config, record or json\n".utf8))
            exit(64)
        }
        return target
    }()
}

func testOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let target = Selected.target
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let finding = FuzzOracle.check(target, bytes) {
        FileHandle.standardError.write(Data("dialkiosk-fuzz: \(target): \(finding)\n".utf8))
        abort()
    }
    return 0
}

#if LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt { testOne(data, size) }

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
_ = Selected.target
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzerTestOneInput))
#else
// dialkiosk-fuzz [ITERATIONS] [SEED] CORPUS_FILE...
var args = Array(CommandLine.arguments.dropFirst())
let iterations = args.first.flatMap(Int.init) ?? 10_000
if !args.isEmpty, Int(args[0]) != nil { args.removeFirst() }
let seed = args.first.flatMap(UInt64.init) ?? 1
if !args.isEmpty, UInt64(args[0]) != nil { args.removeFirst() }
let corpus = args.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
var fuzzer = MutationFuzzer(seed: seed, corpus: corpus)
for _ in 0..<iterations {
    let input = fuzzer.next()
    _ = input.withUnsafeBufferPointer { testOne($0.baseAddress, $0.count) }
}
print("dialkiosk-fuzz: \(Selected.target): \(iterations) inputs from \(corpus.count) corpus files, no finding")
#endif
