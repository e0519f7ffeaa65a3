// swift-tools-version: 6.1
// Benchmarks of the flickd engine (FlickCore), kept out of the root package so that the root
// `swift build` / `swift test` never build ordo-one/benchmark. Run with `scripts/bench-engine`.
import Foundation
import PackageDescription

// The root package (`..`) is known by its folder's name, which is whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "flickd-benchmarks",
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "FlickCore", package: root),
                // The finger→evdev writer that builds the scroll stream (before any measurement).
                .product(name: "FlickTestSupport", package: root),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
