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
