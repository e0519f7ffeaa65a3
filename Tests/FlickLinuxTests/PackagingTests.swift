import Testing

/// The distribution packages' install scripts, read from the repository.
@Suite struct PackagingTests {
    /// The Arch package loads uinput when it is installed, as the .deb's postinst does, rather
    /// than at the next boot (its modules-load file): flickd.service fails without it.
    @Test func theArchPackageLoadsUinputWhenInstalled() throws {
        let pkgbuild = DocumentationTests.repositoryFile("packaging/arch/PKGBUILD")
        let line = try #require(pkgbuild.split(separator: "\n").first { $0.hasPrefix("install=") }, "PKGBUILD names no install script")
        let script = DocumentationTests.repositoryFile("packaging/arch/" + line.dropFirst("install=".count).filter { $0 != "'" && $0 != "\"" })
        for function in ["post_install()", "post_upgrade()"] { #expect(script.contains(function), "\(script)") }
        // The rules reloaded first, so that the module's "add" event applies flickd's.
        let reload = try #require(script.range(of: "udevadm control --reload"), "\(script)")
        let load = try #require(script.range(of: "modprobe -q uinput"), "\(script)")
        #expect(reload.lowerBound < load.lowerBound, "\(script)")
    }
}
