# The build of flickd that ships: sourced by scripts/install (what it installs) and
# scripts/bench-daemon (what it measures), so that the two cannot drift apart.
#
#   release_flags SWIFT   sets the array release_flags to the `swift build` arguments; runs
#                         SWIFT, and makes .build/static-libstdc++, through the array
#                         release_as when it is set (a command prefix: scripts/install run as
#                         root sets it to `runuser -u OWNER --`, the checkout's owner, who builds)
#   release_bolt BINARY   after `swift build`: sets release_binary to the binary to ship (BINARY
#                         rewritten by BOLT when release_flags prepared for it, else BINARY)
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
# - with lld, every Swift function in a section of its own (`-Xfrontend -function-sections`;
#   SwiftPM's release build puts most of a file's functions in one `.text`): the order file
#   then places single functions, not whole files, and the link drops those nothing calls
#   (resident code 980 -> 816 KiB after start). And `scripts/readonly-rodata.ld`: the few
#   `.rodata` inputs the Swift toolchain marks writable get a section of their own, so that
#   `.rodata` stays read-only, in the segment `flickd run` sheds at start (-50 to -100 KiB).
# - the C++ library linked statically too (when gcc knows where libstdc++.a is): Swift's static
#   link line asks for `-lstdc++`, which the linker finds first in a directory that holds only
#   a link to libstdc++.a (.build/static-libstdc++). Loading libstdc++.so costs about 1 MiB
#   resident (its symbol and relocation tables and relocated data), far more than the few
#   functions the Swift runtime and toml++ take from it (docs/PERFORMANCE.md).
# - json-c's archive linked in (Package.swift), or, where the C compiler finds no libjson-c.a
#   (Arch Linux and Fedora ship none), its shared library: FLICKD_JSONC=shared is exported, with
#   a note, unless FLICKD_JSONC is set already. The binary then needs json-c at run time.
#   libyaml's the same way (libyaml.a, FLICKD_LIBYAML).
# - BOLT after the link, only when asked for (FLICKD_BOLT=1) and `llvm-bolt` or Debian's
#   `llvm-bolt-16` (package bolt-16) is on PATH and lld links with the order file: the link keeps its relocations (`--emit-relocs`, which
#   BOLT needs to move functions) and `release_bolt` rewrites the binary with the order file's
#   functions first, in a new `.text`. lld orders input sections, not functions, and the
#   toolchain's libswiftCore.a compiles 12,675 standard-library functions into one 1.6 MB
#   section, so the few of them flickd runs stayed spread over that block; BOLT moves single
#   functions. Swift async functions (they clear bit 60 of %rbp, the async frame mark) are
#   left where they are: BOLT 16 crashes on them (segmentation fault), and flickd runs none.
#   BOLT updates no PC-relative reference from data to code (Swift metadata is full of them)
#   and no call from the functions it leaves in place: scripts/bolt-fixup does, from the
#   linked binary's relocations; otherwise the old copies of the code kept running.
#   Asked for without BOLT (or when it fails) the binary is used as linked, with a one-line
#   note. Off by default: a BOLTed binary is 2.2 times the size, and GNU strip (so dh_strip
#   and most packaging tools) breaks it. docs/PERFORMANCE.md and docs/DESIGN.md say what it saves.
release_flags() {
    local swift=$1 glibc resources bin order here archive cxxdir where
    release_bolt_tool=""
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    order="$here/flickd.order"
    release_flags=(-c release -Xswiftc -static-stdlib -Xlinker --no-export-dynamic)
    archive=$(gcc -print-file-name=libjson-c.a 2>/dev/null || true)
    if [ -z "${FLICKD_JSONC:-}" ] && { [ "${archive#/}" = "$archive" ] || [ ! -f "$archive" ]; }; then
        export FLICKD_JSONC=shared
        echo "note: no libjson-c.a (json-c's archive): flickd links libjson-c.so and needs json-c installed to run" >&2
    fi
    archive=$(gcc -print-file-name=libyaml.a 2>/dev/null || true)
    if [ -z "${FLICKD_LIBYAML:-}" ] && { [ "${archive#/}" = "$archive" ] || [ ! -f "$archive" ]; }; then
        export FLICKD_LIBYAML=shared
        echo "note: no libyaml.a (libyaml's archive): flickd links libyaml.so and needs libyaml installed to run" >&2
    fi
    archive=$(gcc -print-file-name=libstdc++.a 2>/dev/null || true)
    if [ "${archive#/}" != "$archive" ] && [ -f "$archive" ]; then
        # Made by release_as (a command prefix: scripts/install run as root makes it as the
        # checkout's owner), so that no root-owned directory is left in .build.
        # (A directory left root-owned by an earlier install is used as it is, by whoever can.)
        cxxdir="$here/../.build/static-libstdc++"
        { ${release_as[@]+"${release_as[@]}"} mkdir -p "$cxxdir" \
                && ${release_as[@]+"${release_as[@]}"} ln -sfn "$archive" "$cxxdir/libstdc++.a"; } 2>/dev/null \
            || { mkdir -p "$cxxdir" && ln -sfn "$archive" "$cxxdir/libstdc++.a"; } \
            || echo "warning: could not link $archive into $cxxdir: flickd links libstdc++.so (about 1 MiB more resident)" >&2
        [ -L "$cxxdir/libstdc++.a" ] \
            && release_flags+=(-Xlinker "-L$(cd "$cxxdir" && pwd)")
    fi
    glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
    [ -n "$glibc" ] || return 0
    set -- $glibc
    [ "$1" -gt 2 ] || { [ "$1" -eq 2 ] && [ "$2" -ge 36 ]; } || return 0
    # lld sits beside the swift driver, which the toolchain's runtime resource path locates
    # even when `swift` is a proxy (swiftly). Asked as whoever builds (release_as): a swiftly
    # proxy in the owner's home finds its toolchain from the owner's configuration, and run as
    # root it may find none, which would drop the flags below from a build that has lld. Its
    # failure is no error (callers run with errexit and pipefail): the note below says it.
    resources=$(${release_as[@]+"${release_as[@]}"} "$swift" -print-target-info 2>/dev/null \
        | sed -n 's/.*"runtimeResourcePath": "\(.*\)".*/\1/p') || resources=""
    for bin in "$(dirname "$(readlink -f "$swift")")" "${resources:+$resources/../../bin}"; do
        if [ -n "$bin" ] && [ -x "$bin/ld.lld" ]; then
            release_flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
            release_flags+=(-Xswiftc -Xfrontend -Xswiftc -function-sections)
            release_flags+=(-Xlinker -T -Xlinker "$here/readonly-rodata.ld")
            [ -f "$order" ] || return 0
            release_flags+=(-Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
            if [ "${FLICKD_BOLT:-0}" = 1 ]; then
                release_bolt_tool=$(command -v llvm-bolt || command -v llvm-bolt-16 || true)
                [ -z "$release_bolt_tool" ] || release_flags+=(-Xlinker --emit-relocs)
            fi
            return 0
        fi
    done
    # Said, as the build then takes more memory at run time than docs/PERFORMANCE.md says.
    if [ -n "$resources" ]; then
        where="beside $swift or in $(cd "$resources/../.." 2>/dev/null && pwd || echo "$resources/../..")/bin"
    else
        where="beside $swift, and '$swift -print-target-info' did not say where its toolchain is"
    fi
    echo "note: no ld.lld $where: flickd is linked without lld's packed relocations, function sections and symbol order (about 1 MiB more resident; docs/PERFORMANCE.md)" >&2
}

# The shipped binary from the linked one: BOLT places the order file's functions first (see
# the list above). Writes DIR/bolt/NAME beside DIR/NAME (the linked binary stays as SwiftPM
# made it, so that an incremental build does not hand BOLT its own output) and sets
# release_binary to it; on any failure release_binary is the linked binary, with a note.
# CHECK-ARGS, when given: the rewritten binary must run with them and exit 0 to be used.
release_bolt() {  # release_bolt BINARY [CHECK-ARGS...]
    local in=$1 here out skip log
    shift
    release_binary=$in
    if [ -z "${release_bolt_tool:-}" ]; then
        [ "${FLICKD_BOLT:-0}" != 1 ] \
            || echo "note: no llvm-bolt or llvm-bolt-16 on PATH (Debian: apt-get install bolt-16): $(basename "$in") is shipped as linked, about 0.5 MiB more resident (docs/PERFORMANCE.md)" >&2
        return 0
    fi
    here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
    out=$(dirname "$in")/bolt/$(basename "$in")
    skip=$out.skip
    log=$out.log
    mkdir -p "$(dirname "$out")"
    if ! command -v objdump >/dev/null || ! command -v python3 >/dev/null; then
        echo "note: BOLT skipped: it needs objdump (binutils) and python3 (scripts/bolt-fixup); $(basename "$in") is shipped as linked" >&2
        return 0
    fi
    # The async functions, as POSIX extended regular expressions of their whole names (BOLT
    # names local symbols NAME/N; mangled names hold no regular-expression character but $ and .).
    objdump -d --no-show-raw-insn "$in" \
        | awk '/^[0-9a-f]+ <.*>:$/ { name = substr($2, 2, length($2) - 3) }
               /btr +\$0x3c,%rbp/ { print name }' \
        | sort -u | sed 's/[$.]/\\&/g; s/.*/^&(\/[0-9]+)?$/' >"$skip"
    if "$release_bolt_tool" "$in" -o "$out.tmp" --reorder-functions=user \
            --function-order="$here/flickd.order" --skip-funcs-file="$skip" >"$log" 2>&1 \
        && python3 "$here/bolt-fixup" "$in" "$out.tmp" "$out.fixed" >>"$log" 2>&1 \
        && chmod 0755 "$out.fixed" \
        && { [ $# -eq 0 ] || "$out.fixed" "$@" >/dev/null 2>&1; }; then
        mv -f "$out.fixed" "$out"
        rm -f "$out.tmp"
        release_binary=$out
    else
        rm -f "$out.tmp" "$out.fixed"
        echo "note: BOLT failed on $(basename "$in") ($(grep -m1 -i 'error' "$log" || tail -n 1 "$log"); log: $log): shipped as linked" >&2
    fi
}
