import Glibc
import Testing
import KioskTestSupport

/// `uninstall.sh --purge` removes the service's cache directory (fontconfig's
/// cache under CacheDirectory=) with the configuration; a plain uninstall keeps both.
@Suite struct UninstallPurgeTests {
    @Test func purgeRemovesTheCacheDirectory() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let dest = dir.path + "/root", log = dir.path + "/log"
        for path in ["/etc/dialkiosk", "/var/cache/dialkiosk/fontconfig", "/run/dialkiosk"] {
            #expect(runToCompletion(["mkdir", "-p", dest + path], outputFile: log).status == 0)
        }
        writeFile(dest + "/var/cache/dialkiosk/fontconfig/cache-1", "x")
        writeFile(dest + "/run/dialkiosk/backlight-intel_backlight", "200 50\n")
        let env = ["DESTDIR": dest, "PREFIX": "/usr"]

        let plain = runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh"], environment: env, outputFile: log)
        #expect(plain.status == 0, "\(plain.output)")
        #expect(fileMode(dest + "/var/cache/dialkiosk/fontconfig/cache-1") != nil, "a plain uninstall keeps the cache")

        let purge = runToCompletion(["bash", repositoryRoot + "/scripts/uninstall.sh", "--purge"], environment: env,
                                    outputFile: log)
        #expect(purge.status == 0, "\(purge.output)")
        #expect(fileMode(dest + "/etc/dialkiosk") == nil)
        #expect(fileMode(dest + "/var/cache/dialkiosk") == nil, "--purge left the cache directory")
        #expect(fileMode(dest + "/run/dialkiosk") == nil)
        #expect(fileMode(dest + "/var/cache") != nil, "only dialkiosk's own directory goes")
    }
}
