import Foundation

/// The `dialkiosk` executable built beside the running test bundle (SwiftPM puts it in the
/// bundle's folder or the one above, depending on the platform's bundle layout).
package var builtKioskPath: String {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let beside = bundle.appendingPathComponent("dialkiosk")
    if FileManager.default.fileExists(atPath: beside.path) { return beside.path }
    return bundle.deletingLastPathComponent().appendingPathComponent("dialkiosk").path
}

/// Starts the built `dialkiosk` with `arguments`: standard input and output on /dev/null,
/// standard error written to `stderrFile` (read it with `readFile` while it runs or after);
/// `environment`, when given, replaces ours (an LD_PRELOAD shim, a bare PATH).
package func startBuiltKiosk(_ arguments: [String], stderrFile: String, environment: [String: String]? = nil) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: builtKioskPath)
    p.arguments = arguments
    if let environment { p.environment = environment }
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = FileHandle.nullDevice
    _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
    p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrFile))
    try p.run()
    return p
}

/// Runs the built `dialkiosk` binary (it sits beside the test bundle in the build folder).
package func runDialkiosk(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: builtKioskPath)
    p.arguments = arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = input
    try p.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// The JSON objects among `text`'s lines (the event lines `simulate` and `run` print).
package func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}
