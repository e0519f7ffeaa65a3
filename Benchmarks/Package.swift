// swift-tools-version: 6.1
// Benchmarks of the flickd engine (FlickCore), kept out of the root package so that the root
// `swift build` / `swift test` never build ordo-one/benchmark. Run with `scripts/bench-engine`.
import PackageDescription

let package = Package(
    name: "flickd-benchmarks",
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    ],
    targets: [
        // The engine's own sources, through a symlink to ../Sources/FlickCore: the root package
        // exports FlickCore as a target only, and another package can only use products.
        .target(
            name: "FlickCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "FlickCore",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
