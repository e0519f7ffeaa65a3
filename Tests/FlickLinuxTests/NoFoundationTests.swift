import Foundation
import Testing

/// flickd itself stays free of Foundation (docs/DESIGN.md, "The TOML parser" and "The command
/// line"): no source file of the daemon imports it, and the `flickd` executable the tests run
/// links none of Foundation's libraries. (TOMLKit imported Foundation; swift-argument-parser
/// imports FoundationEssentials; both are gone.)
@Suite struct NoFoundationTests {
    /// The repository's Sources folder (found from this file's path).
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Foundation's libraries, as `ldd` names them: none may come back.
    static let forbiddenLibraries = ["libFoundation.so", "libFoundationEssentials.so", "libFoundationInternationalization.so",
                                     "lib_FoundationICU.so", "libFoundationNetworking.so", "libFoundationXML.so",
                                     "libCoreFoundation.so"]

    @Test func noSourceFileImportsFoundation() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "found the sources: \(files.count) files in \(Self.sources.path)")
        let pattern = try Regex(#"(?m)^\s*(@[A-Za-z_]+\s+)*(public\s+|internal\s+|private\s+)?import\s+(struct\s+|class\s+|enum\s+|func\s+)?(Foundation|FoundationEssentials|CoreFoundation)\b"#)
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            #expect(text.firstMatch(of: pattern) == nil, "Sources/\(file) imports Foundation")
        }
    }

    @Test func theFlickdExecutableLinksNoFoundationLibrary() throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flickd")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "no flickd beside the tests at \(binary.path)")
        let ldd = try ChildProcess.run("/usr/bin/ldd", [binary.path])
        let text = ldd.stdout
        try #require(ldd.status == 0, "ldd \(binary.path) failed:\n\(ldd)")
        // The check itself must see the libraries: libc is in every build.
        #expect(text.contains("libc.so.6"), "ldd output without libc:\n\(text)")
        for library in Self.forbiddenLibraries {
            // After an `import Foundation` is removed again, an incremental debug build can keep
            // the other files' stale autolink entries: rebuild from clean before believing it.
            #expect(!text.contains(library), "flickd links \(library) again (after removing an import, rebuild from clean):\n\(text)")
        }
    }
}
