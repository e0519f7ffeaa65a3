import CShim
import Glibc
import Testing
@testable import FlickLinux

/// A mutable global of this executable: it lives in a writable segment, which
/// `ExecutablePages` must never shed.
nonisolated(unsafe) private var writableGlobal = 42

/// A function of this executable: its code lies in a read-only segment.
private func codeOfThisExecutable() {}

/// The segments `ExecutablePages.shed()` works on, checked against the kernel's own map of this
/// test process. `shed()` itself is not called here (it would make the rest of the test run
/// fault its code back a page at a time); the guest runs it in every daemon (e2e and bench).
@Suite("The executable's read-only segments")
struct ExecutablePagesTests {
    struct Mapping {
        var start: UInt
        var end: UInt
        var permissions: String
        var path: String
    }

    static func mappings() throws -> [Mapping] {
        let text = try TextFile.read("/proc/self/maps")
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16)
            else { return nil }
            let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
            return Mapping(start: start, end: end, permissions: String(fields[1]), path: path)
        }
    }

    static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        try #require(length > 0)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func segments() -> [cshim_address_range] {
        Array(ExecutablePages.segments(cshim_executable_readonly_segments))
    }

    @Test("they are whole pages of the executable's own file, mapped without write access")
    func readOnlyPagesOfTheExecutable() throws {
        let segments = Self.segments()
        try #require(!segments.isEmpty, "no read-only segment found")
        let page = UInt(getpagesize())
        let executable = try Self.executablePath()
        let mappings = try Self.mappings()
        for segment in segments {
            #expect(segment.start % page == 0 && segment.end % page == 0 && segment.start < segment.end)
            let overlapping = mappings.filter { $0.start < segment.end && $0.end > segment.start }
            #expect(!overlapping.isEmpty)
            for mapping in overlapping {
                #expect(mapping.path == executable, "segment \(segment.start)-\(segment.end) overlaps \(mapping.path)")
                #expect(!mapping.permissions.contains("w"), "segment \(segment.start)-\(segment.end) overlaps a writable mapping")
            }
            // Every page of the segment is mapped (no hole the advice would fail on).
            let covered = overlapping.reduce(UInt(0)) { $0 + min($1.end, segment.end) - max($1.start, segment.start) }
            #expect(covered == segment.end - segment.start)
        }
    }

    @Test("they hold the executable's code and none of its writable data")
    func codeInsideDataOutside() {
        let segments = Self.segments()
        let code: @convention(c) () -> Void = codeOfThisExecutable
        let codeAddress = UInt(bitPattern: unsafeBitCast(code, to: Int.self))
        #expect(segments.contains { $0.start <= codeAddress && codeAddress < $0.end })
        let dataAddress = withUnsafePointer(to: &writableGlobal) { UInt(bitPattern: $0) }
        #expect(!segments.contains { $0.start <= dataAddress && dataAddress < $0.end })
    }

    @Test("the writable ones hold the writable data, no code, and none of the read-only pages")
    func writableSegments() throws {
        let writable = Array(ExecutablePages.segments(cshim_executable_writable_segments))
        try #require(!writable.isEmpty, "no writable segment found")
        let dataAddress = withUnsafePointer(to: &writableGlobal) { UInt(bitPattern: $0) }
        #expect(writable.contains { $0.start <= dataAddress && dataAddress < $0.end })
        let code: @convention(c) () -> Void = codeOfThisExecutable
        let codeAddress = UInt(bitPattern: unsafeBitCast(code, to: Int.self))
        #expect(!writable.contains { $0.start <= codeAddress && codeAddress < $0.end })
        for segment in Self.segments() {
            #expect(!writable.contains { $0.start < segment.end && $0.end > segment.start },
                    "a read-only range \(segment.start)-\(segment.end) overlaps a writable one")
        }
        let mappings = try Self.mappings()
        let executable = try Self.executablePath()
        let page = UInt(getpagesize())
        for segment in writable {
            #expect(segment.start % page == 0 && segment.end % page == 0)
            // Mapped from the file throughout (the advice would fail on a hole).
            let overlapping = mappings.filter { $0.start < segment.end && $0.end > segment.start }
            let covered = overlapping.reduce(UInt(0)) { $0 + min($1.end, segment.end) - max($1.start, segment.start) }
            #expect(covered == segment.end - segment.start)
            #expect(overlapping.contains { $0.path == executable })
        }
    }
}
