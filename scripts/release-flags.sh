# The build of flickd that ships: sourced by scripts/install (what it installs) and
# scripts/bench-daemon (what it measures), so that the two cannot drift apart.
#
#   release_flags SWIFT   sets the array release_flags to the `swift build` arguments
#
# - `-c release -Xswiftc -static-stdlib`: Swift's runtime, stdlib and Foundation linked into the
#   binary. It runs without the toolchain's libraries, and the loader has no Swift symbol tables
#   to hash and no Swift library relocations to apply: 20.2 -> 13.9 MiB resident at start
#   (docs/PERFORMANCE.md, "Resident memory by dependency and build mode").
# - `-use-ld=lld -z pack-relative-relocs`: the executable's ~77,000 relative relocations packed
#   as RELR (14.6 kB instead of 1.86 MB of .rela.dyn that the loader reads once and that stays
#   resident): 13.9 -> 13.0 MiB. The binary then needs glibc 2.36 or later (GLIBC_ABI_DT_RELR),
#   so this is used only when the glibc it is built against, which is the one it will run on, is
#   2.36 or later and the toolchain has lld (Swift's Linux toolchains ship it).
# - `--no-export-dynamic`: Swift's static link line (static-stdlib-args.lnk) exports every
#   symbol of the executable dynamically; nothing looks them up (flickd loads no plugins, and
#   Swift's backtracer reads the file's own symbol table), but the loader's lookups of libc's
#   and libstdc++'s symbols touch the executable's hash table and strings first: 300 KiB
#   resident (docs/PERFORMANCE.md, "Resident memory against the floor").
# - with lld, `--symbol-ordering-file=scripts/flickd.order` (when the file exists): the
#   functions and data flickd touches at start and in use first, packed together, so that the
#   up to 64 KiB the kernel maps around each page fault (fault-around) are pages flickd uses
#   rather than their neighbours. `scripts/bench-daemon --order-file --functions` makes the file
#   again (the functions that ran, from callgrind profiles in the guest; without --functions,
#   every symbol of the pages touched); symbols it names that a build no longer has are ignored.
# - the C++ library linked statically too (when gcc knows where libstdc++.a is): Swift's static
#   link line asks for `-lstdc++`, which the linker finds first in a directory that holds only
#   a link to libstdc++.a (.build/static-libstdc++). Loading libstdc++.so costs about 1 MiB
#   resident (its symbol and relocation tables and relocated data), far more than the few
#   functions the Swift runtime and toml++ take from it (docs/PERFORMANCE.md).
release_flags() {
    local swift=$1 glibc resources bin order here archive cxxdir
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    order="$here/flickd.order"
    release_flags=(-c release -Xswiftc -static-stdlib -Xlinker --no-export-dynamic)
    archive=$(gcc -print-file-name=libstdc++.a 2>/dev/null || true)
    if [ "${archive#/}" != "$archive" ] && [ -f "$archive" ]; then
        cxxdir="$here/../.build/static-libstdc++"
        mkdir -p "$cxxdir" && ln -sfn "$archive" "$cxxdir/libstdc++.a" \
            && release_flags+=(-Xlinker "-L$(cd "$cxxdir" && pwd)")
    fi
    glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
    [ -n "$glibc" ] || return 0
    set -- $glibc
    [ "$1" -gt 2 ] || { [ "$1" -eq 2 ] && [ "$2" -ge 36 ]; } || return 0
    # lld sits beside the swift driver, which the toolchain's runtime resource path locates
    # even when `swift` is a proxy (swiftly).
    resources=$("$swift" -print-target-info 2>/dev/null | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p')
    for bin in "$(dirname "$(readlink -f "$swift")")" "${resources:+$resources/../../bin}"; do
        if [ -n "$bin" ] && [ -x "$bin/ld.lld" ]; then
            release_flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
            [ ! -f "$order" ] || release_flags+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
            return 0
        fi
    done
}
