// swift-tools-version: 6.1
import PackageDescription

// flickd's own modules are built without `_StringProcessing`, which Swift imports implicitly
// (regexes, `String.contains(String)`): flickd needs none of it, and linked it costs about
// 200 KiB resident (docs/PERFORMANCE.md, "Resident memory against the floor"). Its members
// stay visible through a dependency that imports it (swift-numerics), so a call can
// still pull it in: `scripts/bench-daemon` warns when the release binary has its symbols.
let noStringProcessing: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"]),
]

// json-c is linked from its archive (see CJSON below). Where the distribution's json-c ships no
// archive (Arch Linux, Fedora), FLICKD_JSONC=shared links its shared library instead; the release
// build (scripts/release-flags.sh) sets it when the C compiler finds no libjson-c.a.
let jsonCLink: LinkerSetting = Context.environment["FLICKD_JSONC"] == "shared"
    ? .linkedLibrary("json-c") : .linkedLibrary(":libjson-c.a")

// libyaml is linked from its archive too, for the same reasons; FLICKD_LIBYAML=shared links its
// shared library where the distribution ships no archive (Arch Linux, Fedora).
let libyamlLink: LinkerSetting = Context.environment["FLICKD_LIBYAML"] == "shared"
    ? .linkedLibrary("yaml") : .linkedLibrary(":libyaml.a")

let package = Package(
    name: "flickd",
    products: [
        .executable(name: "flickd", targets: ["flickd"]),
        // For the Fuzz/ and Benchmarks/ packages (`.package(path: "..")`), which build them
        // with their own flags; nothing else should link them.
        .library(name: "FlickCore", targets: ["FlickCore"]),
        .library(name: "FlickTools", targets: ["FlickTools"]),
        .library(name: "FlickLinux", targets: ["FlickLinux"]),
        .library(name: "FlickTestSupport", targets: ["FlickTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // Pure Swift engine: no Foundation, no Glibc, no C module. Time is injected.
        .target(
            name: "FlickCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")],
            swiftSettings: noStringProcessing
        ),
        // Offline tooling on top of the engine, for `flickd replay` and `flickd plot` (and the tests):
        // evemu / libinput-record readers, replaying a recording, event names, the SVG plot.
        // `libinput record` files are YAML, read with libyaml (Debian's libyaml-dev; docs/DESIGN.md,
        // "Recordings are read with libyaml"), whose archive is linked in as json-c's is; evdev's
        // names come from libevdev, which the daemon links anyway.
        .target(
            name: "FlickTools",
            dependencies: ["FlickCore", "CYAML", "CEvdev"],
            swiftSettings: noStringProcessing,
            linkerSettings: [libyamlLink]
        ),
        .systemLibrary(name: "CYAML", providers: [.apt(["libyaml-dev"])]),
        // C headers Swift cannot import on its own (epoll, timerfd, signalfd, ioctl macros).
        // DWARF 4: valgrind 3.19 (Debian 12), which profiles the daemon for the order file
        // (`scripts/bench-daemon --order-file --functions`), gave up reading the release
        // binary's debug information ("Possibly corrupted debuginfo file") once cshim.c added
        // a second DWARF 5 unit beside toml++'s; with both at DWARF 4 it reads it.
        .target(name: "CShim", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // json-c (Debian's libjson-c-dev): sway's IPC answers in JSON (SwayInputs, per-device
        // natural scrolling, and its input events). Its archive is linked in (FlickLinux's
        // linker settings): a shared library would be mapped, relocated and resident all day for
        // one answer at start, and the packages would depend on it (FLICKD_JSONC, above).
        .systemLibrary(name: "CJSON", providers: [.apt(["libjson-c-dev"])]),
        // toml++ (Debian's libtomlplusplus-dev, header-only) behind a plain C API: the
        // configuration parser, compiled without exceptions (docs/DESIGN.md, "The TOML parser").
        .target(
            name: "CTOMLBridge",
            cxxSettings: [.unsafeFlags(["-fno-exceptions", "-fno-rtti", "-gdwarf-4"])]
        ),
        // XInput 2's property events from the X server (FlickLinux's XServerWatch), through
        // libX11 and libXi loaded with dlopen on an X11 session only: compiled against Debian's
        // libx11-dev and libxi-dev headers, linked against neither.
        .target(name: "CXInput", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Everything that touches the system: devices, uinput, the event loop, files.
        .target(
            name: "FlickLinux",
            dependencies: [
                "FlickCore", "CShim", "CEvdev", "CUdev", "CJSON", "CTOMLBridge", "CXInput",
            ],
            swiftSettings: noStringProcessing,
            linkerSettings: [jsonCLink]
        ),
        // The command line and nothing else.
        .executableTarget(
            name: "flickd",
            dependencies: [
                "FlickCore", "FlickTools", "FlickLinux",
            ],
            swiftSettings: noStringProcessing
        ),
        // Test support shared by the tests, Fuzz/ and Benchmarks/: the fixture rule, the device
        // fixtures, the evemu writer, the seeded random generator.
        .target(name: "FlickTestSupport", dependencies: ["FlickCore", "FlickTools"], path: "Tests/FlickTestSupport"),
        // Finger stories for the test targets only: `FingerScript` records an issue (swift-testing)
        // when the engine reports a bug, which Fuzz/ and Benchmarks/ must not link.
        .target(name: "FlickFingerStories", dependencies: ["FlickCore", "FlickTools", "FlickTestSupport"],
                path: "Tests/FlickFingerStories"),
        .testTarget(name: "FlickCoreTests", dependencies: ["FlickCore", "FlickTools", "FlickTestSupport", "FlickFingerStories"]),
        .testTarget(
            name: "FlickLinuxTests",
            dependencies: ["FlickLinux", "FlickCore", "FlickTestSupport", "FlickFingerStories", "CShim", "CEvdev"]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
