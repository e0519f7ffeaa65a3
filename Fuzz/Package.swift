// swift-tools-version: 6.1
// Fuzzing and soak of flickd, kept out of the root package so that the root `swift build` /
// `swift test` never build libFuzzer targets. Run with `scripts/fuzz` and `scripts/soak`.
//
// The root package exports no library, and another package can only use products, so the
// flickd targets are compiled here from their own sources through symlinks
// (Sources/FlickCore -> ../../Sources/FlickCore, and FlickLinux with its C and C++ modules).
//
// Fuzz targets are built with `--sanitize=fuzzer --sanitize=address` (libFuzzer supplies
// `main`; each target only defines LLVMFuzzerTestOneInput). The soak and the seed writer are
// ordinary release executables, built without sanitizers in their own scratch directory.
import PackageDescription

let package = Package(
    name: "flickd-fuzz",
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // flickd's own targets, as in the root Package.swift.
        .target(name: "FlickCore", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "CShim"),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .target(name: "CTOMLBridge", cxxSettings: [.unsafeFlags(["-fno-exceptions", "-fno-rtti"])]),
        .target(
            name: "FlickLinux",
            dependencies: [
                "FlickCore", "CShim", "CEvdev", "CUdev", "CTOMLBridge",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Shared by the fuzz targets and the soak: the device table, the byte encoding of an
        // engine input stream, and the harness that checks the engine's invariants.
        .target(name: "FuzzSupport", dependencies: ["FlickCore"]),

        // libFuzzer targets (one LLVMFuzzerTestOneInput each; scripts/fuzz names them
        // engine, recording and config).
        .executableTarget(name: "FuzzEngine", dependencies: ["FlickCore", "FuzzSupport"]),
        .executableTarget(name: "FuzzRecording", dependencies: ["FlickCore", "FuzzSupport"]),
        .executableTarget(name: "FuzzConfig", dependencies: ["FlickCore", "FlickLinux", "FuzzSupport"]),

        // The property soak (scripts/soak) and the engine seed writer (scripts/fuzz --seeds).
        .executableTarget(name: "Soak", dependencies: ["FlickCore", "FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
