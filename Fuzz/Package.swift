// swift-tools-version: 6.1
// Fuzzing and soak of flickd, kept out of the root package so that the root `swift build` /
// `swift test` never build libFuzzer targets. Run with `scripts/fuzz` and `scripts/soak`.
//
// flickd's targets come from the root package (`..`) through its library products, built here
// with this package's flags.
//
// Fuzz targets are built with `--sanitize=fuzzer --sanitize=address` (libFuzzer supplies
// `main`; each target only defines LLVMFuzzerTestOneInput). The soak and the seed writer are
// ordinary release executables, built without sanitizers in their own scratch directory.
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, which is whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "flickd-fuzz",
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // Shared by the fuzz targets and the soak: the device table, the byte encoding of an
        // engine input stream, and the harness that checks the engine's invariants. Finger
        // streams (`Flick`, `FingerStream`) come from FlickTestSupport.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "FlickCore", package: root),
                .product(name: "FlickTools", package: root),
                .product(name: "FlickTestSupport", package: root),
            ]
        ),

        // libFuzzer targets (one LLVMFuzzerTestOneInput each; scripts/fuzz names them
        // engine, recording and config).
        .executableTarget(name: "FuzzEngine", dependencies: [.product(name: "FlickCore", package: root), "FuzzSupport"]),
        .executableTarget(
            name: "FuzzRecording",
            dependencies: [.product(name: "FlickCore", package: root), .product(name: "FlickTools", package: root), "FuzzSupport"]
        ),
        .executableTarget(
            name: "FuzzConfig",
            dependencies: [
                .product(name: "FlickCore", package: root), .product(name: "FlickLinux", package: root),
                .product(name: "FlickTestSupport", package: root), "FuzzSupport",
            ]
        ),

        // The property soak (scripts/soak) and the engine seed writer (Soak --write-engine-seeds).
        .executableTarget(
            name: "Soak",
            dependencies: [
                .product(name: "FlickCore", package: root), .product(name: "FlickTools", package: root),
                .product(name: "FlickTestSupport", package: root), "FuzzSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
