import Glibc

/// The repository root, from this file's path (Sources/KioskTestSupport/<file>).
package let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// Runs `argv` to completion (blocking waitpid; tests only) with `environment` added to ours;
/// returns its exit status and its stdout and stderr together.
package func runToCompletion(_ argv: [String], environment: [String: String] = [:], outputFile: String) -> (status: Int32, output: String) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    var env = ProcessEnvironment.current()
    env.merge(environment) { $1 }
    let cArgv = argv.map { strdup($0) } + [nil]
    let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        cArgv.forEach { free($0) }
        cEnv.forEach { free($0) }
    }
    var pid = pid_t()
    guard posix_spawnp(&pid, argv[0], &actions, nil, cArgv, cEnv) == 0 else { return (-1, "spawn failed") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (code, readFile(outputFile) ?? "")
}

package func readFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    while case let c = fgetc(file), c != EOF { bytes.append(UInt8(c)) }
    return String(decoding: bytes, as: UTF8.self)
}

package func writeFile(_ path: String, _ text: String, mode: mode_t = 0o644) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
    chmod(path, mode)
}

package func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return info.st_mode
}

import KioskReporting

/// Starts `argv` in the background (a broker, a stand-in script) with its stdout and stderr
/// into `output` (appended to, or truncated first) and standard input shared; returns its pid or
/// nil when it cannot start. The test process may block signals (signalfd tests): the child gets
/// a clean mask and default dispositions. `ownGroup`: in a process group of its own, so that
/// `kill(-pid, …)` ends what it starts too.
package func spawnBackground(_ argv: [String], output: String, append: Bool = false, ownGroup: Bool = false) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= POSIX_SPAWN_SETPGROUP
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let cArgv = argv.map { strdup($0) } + [nil]
    defer { cArgv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawnp(&pid, argv[0], &actions, &attributes, cArgv, environ) == 0 else { return nil }
    return pid
}
