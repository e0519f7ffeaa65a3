import CShim
import Glibc

/// flickd's own binary in memory: after start-up, only the pages that run stay resident.
///
/// The kernel maps a file's pages in 64 KiB windows around each page a process touches
/// (fault-around), whenever those neighbours are in the page cache, and it reads a file ahead
/// of the page a fault needs, which puts them there. The code flickd runs lies in a few hundred
/// pages spread through a 16 MB binary (the standard library's functions cannot be reordered:
/// docs/PERFORMANCE.md), so without this each of them holds its whole window resident, about
/// 1 MiB more than the pages that run.
///
/// `shed()` asks for no read-ahead on the binary's segments (`MADV_RANDOM`), unmaps what this
/// process has of the read-only ones (`MADV_DONTNEED`; they are the file's own bytes, so
/// nothing is lost) and drops the file's pages that no process maps from the page cache. From then on a
/// fault reads and maps the one page it needs.
///
/// Rationale (docs/DESIGN.md, "The daemon sheds its binary's pages at start"): fault-around
/// is a system-wide setting, and an order file cannot move the standard library's functions
/// apart; this is flickd's own way to hold only what it runs. The price is one 4 KiB read for
/// each page touched after the call, from the disk when another process has not kept it
/// cached: at start-up, which includes a rehearsed coast (`Rehearsal`) so that the first real
/// one does not pay it. Writable segments (data, RELRO) are never
/// unmapped; they get only the no-read-ahead advice.
public enum ExecutablePages {
    /// Sheds the executable's read-only pages (see the type's comment) and returns how many
    /// bytes of address space that covered. Throws when a call fails: what was not shed yet
    /// stays as it was, which costs memory only.
    @discardableResult
    public static func shed() throws(SystemError) -> Int {
        let readOnly = segments(cshim_executable_readonly_segments)
        var bytes = 0
        for range in readOnly {
            try Syscall.adviseMemory(from: range.start, to: range.end, cshim_madv_random)
            try Syscall.adviseMemory(from: range.start, to: range.end, cshim_madv_dontneed)
            bytes += Int(range.end - range.start)
        }
        // The writable segments keep their pages (relocated and written data lives only there),
        // but read faults in their file-backed part (`.data`, the few writable constants, the
        // runtime's backtracer settings) would read ahead too once the file's pages are dropped.
        for range in segments(cshim_executable_writable_segments) {
            try Syscall.adviseMemory(from: range.start, to: range.end, cshim_madv_random)
        }
        if !readOnly.isEmpty { try Syscall.dropCachedPages(of: "/proc/self/exe") }
        return bytes
    }

    /// The executable's segments that `collect` (one of cshim's walks) reports.
    static func segments(
        _ collect: (UnsafeMutablePointer<cshim_address_range>?, Int32) -> Int32
    ) -> ArraySlice<cshim_address_range> {
        var ranges = [cshim_address_range](repeating: cshim_address_range(start: 0, end: 0), count: 8)
        let count = Int(collect(&ranges, Int32(ranges.count)))
        return ranges.prefix(count)
    }
}
