// swift-tools-version: 6.1
// The floor program of the resident-memory figures (docs/PERFORMANCE.md, "Resident memory
// against the floor"): what any program that does flickd's job with the same libraries must
// hold. Its own package, apart from the root one and from Benchmarks/, so that it builds in
// seconds with exactly the flags flickd ships with (`scripts/bench-daemon` builds it).
import PackageDescription

let package = Package(
    name: "flickd-floor",
    targets: [
        // libudev, libevdev (with its uinput helpers) and epoll: the C that flickd uses too.
        .systemLibrary(name: "CFloor", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev", "libudev-dev"])]),
        .executableTarget(name: "flickd-floor", dependencies: ["CFloor"]),
    ],
    swiftLanguageModes: [.v6]
)
