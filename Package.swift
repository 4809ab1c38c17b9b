// swift-tools-version:6.0
// DialKiosk: a rotary dial menu painted straight into DRM/KMS dumb buffers.
// Licensed under the Apache License, Version 2.0 (LICENSE); the dependencies below are named
// with their licences in packaging/debian/copyright.
//
// The module graph follows what touches the kernel:
//   KioskSeams    Swift only: what display and input share with the loop and know of nothing
//                 else (the seams, input events, rotation, rectangles, mode request,
//                 calibration, frame pacing, latency), so they need not know of dials.
//   DialCore      KioskSeams + Swift only: geometry, tracking, physics, selection.
//   KioskVocabulary DialCore only: the control commands and the one table of verbs (socket
//                 grammar, usage, MQTT set topics, Home Assistant entities) they are parsed by.
//   KioskJSON     Swift only: the one strict, bounded JSON reader for what arrives from outside
//                 (live payloads, touch scripts).
//   LinuxSystem   Glibc only: owned descriptors, Errno, EINTR retry, the failed-call error,
//                 regular files and the line reader.
//   DialRender    DialCore + FreeType/HarfBuzz/fontconfig/libpng: painting into RAM.
//   KMSOutput     KioskSeams + LinuxSystem + libdrm/libudev: the only module that opens /dev/dri,
//                 with the pure output-choice rules over what it probes.
//   TouchInput    KioskSeams + LinuxSystem + libinput/libudev: the only module that opens /dev/input.
//   UdevLink      LinuxSystem + libudev: the one owner of a udev context and monitor, which
//                 KMSOutput (drm hotplug) and TouchInput (REL_DIAL devices) share.
//   InputRecording DialCore + LinuxSystem + YAMLTree: `libinput record` files replayed as touch
//                 events, for `simulate` (no device, no C module).
//   OpeningHours  Glibc only: `power.schedule`'s windows and the decision "open at this
//                 wall-clock instant", in local time as localtime_r/mktime compute it.
//   CECLink       LinuxSystem + linux/cec.h: HDMI-CEC through the kernel's CEC framework, the only
//                 module that opens /dev/cec* (typed ioctls, the pure power link).
//   KioskReporting LinuxSystem: exit statuses, the app's failed-call error, the journal logger
//                 and the non-blocking output queue (what every layer below the CLI reports with).
//   YAMLTree      libyaml (Debian's): YAML text composed into nodes that keep their lines.
//   KioskConfiguration KioskReporting + DialCore + DialRender (themes) + Audio (voices) + YAMLTree:
//                 the config file, its checks and the reload decision. No DRM or input module.
//   KioskLoop     KioskReporting + DialCore + DialRender (no configuration types):
//                 the one frame loop, its poll sources, pacing, the virtual display, the screen's
//                 one owner (`ScreenPower`, its policy and the idle timers), and the two seams to a service: `LoopService` (the
//                 loop tells) and `LoopControl` (the service acts). It imports no service type
//                 and no DRM module: DialKioskApp states that KMSOutput's display and backlight
//                 are what ScreenPower drives.
//   SodiumLink    LinuxSystem + libsodium (dlopen): the one loader of libsodium, the package's
//                 one SHA-256 and one Base64.
//   FleetConfig   KioskConfiguration + SodiumLink: signed bundles, keys, the acceptance
//                 decision and the state folder of pushed configurations.
//   KioskLock     DialCore + LinuxSystem + FleetConfig (libsodium): the lock's back-off rule, its
//                 state at rest, the PIN file and its check off the loop.
//   KioskFeatures KioskLoop + KioskConfiguration + MQTTLink + Audio + FleetConfig: control socket, item
//                 commands, sd_notify and watchdog, event lines, reload worker, MQTT and speech
//                 bridges; the one owner of the running configuration (`SceneBuilding` builds
//                 its scene).
//   RemoteView    KioskLoop + DialRender + LinuxSystem + SodiumLink + zlib: the RFB server, a poll source
//                 fed the painter's frames and damage; the loop does not know it.
//   DialKioskApp  everything: the CLI and the wiring (RunSession, RunScenes, the commands).
import PackageDescription

func system(_ name: String, _ pkg: String, _ apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkg, providers: [.apt([apt])])
}

let package = Package(
    name: "DialKiosk",
    products: [
        .executable(name: "dialkiosk", targets: ["dialkiosk"]),
        .library(name: "DialCore", targets: ["DialCore"]),
        .library(name: "KioskSeams", targets: ["KioskSeams"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        system("CDRM", "libdrm", "libdrm-dev"),
        system("CUdev", "libudev", "libudev-dev"),
        system("CLibinput", "libinput", "libinput-dev"),
        system("CFreeType", "freetype2", "libfreetype-dev"),
        system("CHarfBuzz", "harfbuzz", "libharfbuzz-dev"),
        system("CPNG", "libpng", "libpng-dev"),
        system("CFontconfig", "fontconfig", "libfontconfig-dev"),
        // libmosquitto, espeak-ng (speech) and ALSA (playback) are opened with dlopen the
        // first time the configuration uses them, not linked (a kiosk without MQTT,
        // speech or cues maps none of them nor what they pull in). Each target is the library's
        // header (types, constants) and its forwarders; CLibraryLoader is the loading they share.
        // Their headers come from libmosquitto-dev, libespeak-ng-dev and libasound2-dev.
        .target(name: "CLibraryLoader"),
        .target(name: "CMosquitto", dependencies: ["CLibraryLoader"]),
        .target(name: "CEspeakNG", dependencies: ["CLibraryLoader"]),
        .target(name: "CALSA", dependencies: ["CLibraryLoader"]),
        // libsodium (Ed25519, SHA-256) for signed fleet configurations, opened the same way; its
        // header comes from libsodium-dev.
        .target(name: "CSodium", dependencies: ["CLibraryLoader"]),
        // The one loader of libsodium and the package's one SHA-256 (crypto_hash_sha256) and Base64.
        .target(name: "SodiumLink", dependencies: ["LinuxSystem", "CSodium"]),
        // signalfd, timerfd and the console ioctls, which Glibc's module does not export.
        .systemLibrary(name: "CLinux"),
        // linux/cec.h: the kernel's CEC framework (HDMI-CEC), ioctls on /dev/cecN.
        .systemLibrary(name: "CCEC"),

        // Elementary functions come from swift-numerics' RealModule, so the core names no libc.
        .target(name: "KioskSeams"),
        .target(name: "DialCore", dependencies: ["KioskSeams", .product(name: "RealModule", package: "swift-numerics")]),
        // The control vocabulary: one table the socket, MQTT and discovery are built from.
        .target(name: "KioskVocabulary", dependencies: ["DialCore"]),
        // The JSON reader: Swift only, no Foundation, linear in its input.
        .target(name: "KioskJSON"),
        .target(name: "LinuxSystem"),
        // YAML: libyaml's parser (Debian's libyaml, the one the config was read with when it came
        // compiled into a Swift package) composed into a tree of nodes with their lines.
        system("CYAML", "yaml-0.1", "libyaml-dev"),
        .target(name: "YAMLTree", dependencies: ["CYAML"]),
        // Glibc only: the opening hours and the local wall clock (localtime_r, mktime).
        .target(name: "OpeningHours", dependencies: ["LinuxSystem"]),
        // HDMI-CEC through the kernel's CEC framework: the only module that opens /dev/cec*.
        .target(name: "CECLink", dependencies: ["LinuxSystem", "CCEC"]),
        .target(name: "DialRender", dependencies: ["DialCore", "KioskSeams", "LinuxSystem", "CFreeType", "CHarfBuzz", "CPNG", "CFontconfig"]),
        // The udev context and monitor's one owner, shared by the display and input modules.
        .target(name: "UdevLink", dependencies: ["LinuxSystem", "CUdev"]),
        .target(name: "KMSOutput", dependencies: ["KioskSeams", "LinuxSystem", "UdevLink", "CDRM", "CUdev", "CLinux"]),
        .target(name: "TouchInput", dependencies: ["KioskSeams", "LinuxSystem", "UdevLink", "CLibinput", "CUdev", "CLinux"]),
        .target(
            name: "InputRecording",
            dependencies: ["DialCore", "KioskSeams", "LinuxSystem", "YAMLTree"]
        ),
        // MQTT: libmosquitto driven by the frame loop's poll; the core knows nothing of it.
        .target(name: "MQTTLink", dependencies: ["LinuxSystem", "CMosquitto"]),
        // Speech and sound cues: espeak-ng and ALSA on a worker thread of their own;
        // the loop only hands it text and samples. The words for each dial event are DialCore's.
        .target(name: "Audio", dependencies: ["LinuxSystem", "CEspeakNG", "CALSA"]),
        // The kiosk's layers below the CLI, each seeing only those under it.
        .target(name: "KioskReporting", dependencies: ["LinuxSystem"]),
        .target(
            name: "KioskConfiguration",
            dependencies: ["KioskReporting", "KioskJSON", "YAMLTree", "OpeningHours", "DialCore", "KioskVocabulary", "KioskSeams", "DialRender", "Audio", "LinuxSystem"]
        ),
        // Signed configurations pushed to a fleet: bundles, keys, the acceptance decision and
        // the state folder. No loop, no MQTT: KioskFeatures feeds it bytes.
        .target(name: "FleetConfig", dependencies: ["KioskConfiguration", "KioskReporting", "DialCore", "LinuxSystem", "CSodium", "SodiumLink"]),
        // The lock's parts below the service: the back-off rule, its state at rest (fsynced before a
        // verdict shows), the PIN file and its Argon2id check (libsodium, through FleetConfig's
        // one loader), run off the loop.
        .target(name: "KioskLock", dependencies: ["DialCore", "LinuxSystem", "KioskReporting", "FleetConfig"]),
        .target(
            name: "KioskLoop",
            dependencies: ["KioskReporting", "DialCore", "KioskSeams", "DialRender", "LinuxSystem", "CLinux"]
        ),
        .target(
            name: "KioskFeatures",
            dependencies: ["OpeningHours", "KioskLoop", "KioskConfiguration", "KioskVocabulary", "KioskReporting", "DialCore", "KioskSeams", "DialRender",
                           "LinuxSystem", "MQTTLink", "Audio", "FleetConfig"]
        ),
        // The remote view: an RFB server on a worker thread of its own, fed the painter's frames and
        // damage. zlib is linked, not opened: libpng already maps it into every kiosk.
        system("CZlib", "zlib", "zlib1g-dev"),
        .target(
            name: "RemoteView",
            dependencies: ["KioskLoop", "KioskReporting", "KioskSeams", "DialCore", "DialRender", "LinuxSystem", "SodiumLink", "CZlib", "CLinux"]
        ),
        // The runtime below the CLI: a kiosk assembled from settings and devices (`Kiosk`), the
        // scene recipe, the touch script input and the virtual kiosk of the tests.
        .target(
            name: "KioskRuntime",
            dependencies: ["DialCore", "KioskSeams", "DialRender", "KMSOutput", "TouchInput", "InputRecording", "LinuxSystem", "CLinux",
                           "MQTTLink", "Audio", "KioskReporting", "KioskConfiguration", "KioskLoop", "KioskFeatures", "RemoteView",
                           "FleetConfig", "CECLink", "KioskJSON"]
        ),
        .target(
            name: "DialKioskApp",
            dependencies: [
                "DialCore", "KioskSeams", "DialRender", "KMSOutput", "TouchInput", "InputRecording", "LinuxSystem", "CLinux", "MQTTLink", "Audio",
                "KioskReporting", "KioskConfiguration", "KioskVocabulary", "KioskLoop", "KioskFeatures", "RemoteView", "FleetConfig", "CECLink", "KioskJSON",
                "KioskRuntime", "KioskLock",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        .executableTarget(name: "dialkiosk", dependencies: ["DialKioskApp", "KioskLoop"]),
        // The rigs the test targets share (pipe displays and inputs, a real mosquitto, sockets,
        // child processes, loop seams, the golden-picture compare), as a library so each layer's tests can use them
        // without importing the App.
        .target(
            name: "KioskTestSupport",
            dependencies: ["DialCore", "KioskSeams", "DialRender", "KMSOutput", "LinuxSystem", "MQTTLink", "KioskReporting",
                           "KioskConfiguration", "KioskLoop", "KioskFeatures", "Audio"]
        ),
        // The parsers' fuzzer: libFuzzer when built by scripts/fuzz.sh, a seeded mutation loop otherwise.
        .executableTarget(name: "dialkiosk-fuzz", dependencies: ["DialKioskApp", "KioskJSON"]),

        .testTarget(name: "KioskSeamsTests", dependencies: ["KioskSeams"]),
        .testTarget(name: "DialCoreTests", dependencies: ["DialCore", "KioskSeams"]),
        .testTarget(name: "DialRenderTests", dependencies: ["DialRender", "DialCore", "KioskSeams", "LinuxSystem", "KioskTestSupport"],
                    resources: [.copy("Golden")]),
        .testTarget(name: "KioskVocabularyTests", dependencies: ["KioskVocabulary", "DialCore"]),
        .testTarget(name: "KioskJSONTests", dependencies: ["KioskJSON"], exclude: ["Fixtures"]),
        .testTarget(name: "LinuxSystemTests", dependencies: ["LinuxSystem"]),
        .testTarget(name: "RemoteViewTests", dependencies: ["RemoteView", "KioskLoop", "KioskSeams", "DialRender", "SodiumLink", "CZlib"]),
        .testTarget(name: "KMSOutputTests", dependencies: ["KMSOutput", "KioskSeams", "LinuxSystem"]),
        .testTarget(name: "TouchInputTests", dependencies: ["TouchInput", "KioskSeams", "LinuxSystem"]),
        .testTarget(name: "InputRecordingTests", dependencies: ["InputRecording", "DialCore", "KioskSeams", "LinuxSystem"], resources: [.copy("Fixtures")]),
        .testTarget(name: "DialKioskAppTests", dependencies: ["DialKioskApp", "CECLink", "DialCore", "KioskSeams", "DialRender", "LinuxSystem", "MQTTLink",
                                                                   "KioskReporting", "KioskConfiguration", "KioskVocabulary", "KioskLoop", "KioskFeatures",
                                                                   "KioskTestSupport", "FleetConfig", "KioskRuntime"], exclude: ["Fixtures"]),
        // The runtime's assembly and what runs on it (loop, service, scenes, the virtual kiosk, a
        // real mosquitto, the golden pictures of the recipe) and the built binary run as a child:
        // no App code.
        .testTarget(name: "KioskRuntimeTests", dependencies: ["KioskRuntime", "KioskTestSupport", "DialCore", "KioskSeams", "DialRender",
                                                             "LinuxSystem", "MQTTLink", "KioskReporting", "KioskConfiguration", "KioskLoop",
                                                             "KioskFeatures", "KioskVocabulary", "FleetConfig", "CECLink", "RemoteView",
                                                             "TouchInput", "KMSOutput", "Audio", "OpeningHours"],
                    exclude: ["Fixtures"], resources: [.copy("Golden")]),
        .testTarget(name: "MQTTLinkTests", dependencies: ["MQTTLink", "CMosquitto", "LinuxSystem", "KioskTestSupport"]),
        // The scripts, the unit, the package's maintainer scripts and the built binary's linkage:
        // tests of what ships around the code, run on the files and the binary as they are.
        .testTarget(name: "PackagingTests", dependencies: ["KioskTestSupport"]),
        .testTarget(name: "KioskReportingTests", dependencies: ["KioskReporting", "LinuxSystem", "KioskTestSupport"]),
        .testTarget(name: "KioskConfigurationTests", dependencies: ["KioskConfiguration", "KioskVocabulary", "DialCore", "KioskReporting", "LinuxSystem",
                                                                   "OpeningHours", "KioskTestSupport", "KioskFeatures"]),
        .testTarget(name: "KioskLoopTests", dependencies: ["KioskLoop", "KioskConfiguration", "DialCore", "KioskSeams", "DialRender",
                                                          "LinuxSystem", "KioskTestSupport"]),
        .testTarget(name: "KioskFeaturesTests", dependencies: ["KioskFeatures", "KioskVocabulary", "KioskLoop", "KioskConfiguration", "KioskReporting",
                                                                "DialCore", "KioskSeams", "LinuxSystem", "MQTTLink", "KioskTestSupport",
                                                                "FleetConfig", "TouchInput"]),
        .testTarget(name: "OpeningHoursTests", dependencies: ["OpeningHours", "KioskTestSupport"]),

        .testTarget(name: "YAMLTreeTests", dependencies: ["YAMLTree"]),
        .testTarget(name: "CECLinkTests", dependencies: ["CECLink"]),
        .testTarget(name: "KioskLockTests", dependencies: ["KioskLock", "DialCore", "LinuxSystem", "FleetConfig", "KioskReporting", "KioskTestSupport"]),
        .testTarget(name: "FleetConfigTests", dependencies: ["FleetConfig", "KioskConfiguration", "LinuxSystem", "SodiumLink"]),
        .testTarget(name: "SodiumLinkTests", dependencies: ["SodiumLink"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "LinuxSystem", "CEspeakNG", "CALSA"]),
    ],
    swiftLanguageModes: [.v6]
)
