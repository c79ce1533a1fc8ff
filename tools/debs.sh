#!/usr/bin/env bash
# debs.sh - the grader's Debian packages, carried to a machine that has no
# mirror and must not have its own libraries replaced (the lent GPU machine:
# Ubuntu 24.04, no network; docs/dependencies.md):
#
#   tools/debs.sh fetch [DIR]            here, with a mirror: apt-get download
#                                        the packages into DIR (default .debs,
#                                        ignored by git)
#   tools/debs.sh env [DIR] [ROOT] > F && . F
#                                        there: unpack every DIR/*.deb under
#                                        ROOT (default /tmp/debs) and print the
#                                        exports that build against them:
#                                        then `make -j all`, `bench/batch.sh`
#
# PKG_CONFIG_SYSROOT_DIR puts ROOT before the paths of the .pc files, so the
# Makefile's flags name the unpacked headers and libraries; the loader finds
# them through LD_LIBRARY_PATH; CUGRADE_SKIP_DEPS=1 skips tools/deps.sh
# (dpkg does not know of them). Exit 2 with the reason when a step fails.
set -euo pipefail

# The libraries the grader links and their development files (tools/deps.txt
# "grade": libjson-c-dev, libarchive-dev, libpng-dev, nettle-dev; zlib1g-dev
# because libpng's .pc file names zlib's), and bubblewrap (the sandbox).
PACKAGES=(libjson-c5 libjson-c-dev libarchive13 libarchive-dev libpng16-16 libpng-dev
          zlib1g-dev libnettle8 nettle-dev libseccomp2 libseccomp-dev bubblewrap)

die() {
    echo "tools/debs.sh: $*" >&2
    exit 2
}

fetch() {
    local dir=${1:-.debs}
    command -v apt-get >/dev/null || die "apt-get not found: fetch on a Debian machine with a mirror"
    mkdir -p "$dir" || die "cannot create $dir"
    (cd "$dir" && apt-get download "${PACKAGES[@]}") || die "apt-get download failed in $dir"
    echo "tools/debs.sh: ${#PACKAGES[@]} packages in $dir" >&2
}

env_for() {
    local dir=${1:-.debs} root=${2:-/tmp/debs} n=0
    command -v dpkg-deb >/dev/null || die "dpkg-deb not found"
    mkdir -p "$root" || die "cannot create $root"
    for f in "$dir"/*.deb; do
        [ -e "$f" ] || die "no .deb files in $dir (tools/debs.sh fetch $dir, where there is a mirror)"
        dpkg-deb -x "$f" "$root" || die "cannot unpack $f"
        n=$((n + 1))
    done
    local lib="$root/usr/lib/$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
    echo "export PKG_CONFIG_SYSROOT_DIR='$root'"
    echo "export PKG_CONFIG_PATH='$lib/pkgconfig:$root/usr/share/pkgconfig'"
    echo "export LD_LIBRARY_PATH='$lib'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export PATH='$root/usr/bin':\$PATH"
    echo "export CUGRADE_SKIP_DEPS=1"
    echo "tools/debs.sh: $n packages unpacked under $root" >&2
}

case "${1:-}" in
fetch) shift; fetch "$@" ;;
env) shift; env_for "$@" ;;
*) die "usage: tools/debs.sh fetch [DIR] | tools/debs.sh env [DIR] [ROOT]" ;;
esac
