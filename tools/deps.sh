#!/usr/bin/env bash
# tools/deps.sh - make sure the Debian packages cugrade needs are installed.
#
#   tools/deps.sh grade   what building and running the grader needs
#   tools/deps.sh test    that, and what the test suite needs
#   tools/deps.sh fuzz    that of grade, and what make fuzz needs (clang)
#
# The packages are listed once, in tools/deps.txt (CUGRADE_DEPS_LIST names
# another list, for the tests of this script). A machine that has them all
# pays one dpkg-query call and nothing else. Otherwise, as root, the missing
# ones are installed with apt-get; as anyone else the script prints the one
# `sudo apt-get install` line to run and exits 2. The Makefile calls it before
# building (make, make grade, make test) and so does .ci/run.
# CUGRADE_SKIP_DEPS=1 skips the check (a machine whose packages are managed
# some other way, e.g. unpacked .debs on a lent GPU machine).
set -euo pipefail

want=${1:-grade}
case "$want" in
grade | test | fuzz) ;;
*)
    echo "usage: tools/deps.sh grade|test|fuzz" >&2
    exit 2
    ;;
esac
[ "${CUGRADE_SKIP_DEPS:-0}" = 1 ] && exit 0

list=${CUGRADE_DEPS_LIST:-$(dirname "$0")/deps.txt}
if [ ! -r "$list" ]; then
    echo "deps: cannot read the package list $list" >&2
    exit 2
fi

# The packages the wanted command needs: its own and, for test and fuzz, grade's too.
packages=()
while read -r pkg needed_for _; do
    case "$pkg" in '' | '#'*) continue ;; esac
    if [ "$needed_for" = grade ] || [ "$needed_for" = "$want" ]; then
        packages+=("$pkg")
    fi
done <"$list"
[ ${#packages[@]} -eq 0 ] && exit 0

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system (no dpkg-query): cannot check for ${packages[*]};" \
        "install their equivalents if the build fails" >&2
    exit 0
fi

missing_packages() { # prints the packages of "$@" that are not installed
    local installed
    installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "$@" 2>/dev/null |
        awk '$2 == "ii" { print $1 }') || true
    local p
    for p in "$@"; do
        grep -qxF "$p" <<<"$installed" || echo "$p"
    done
}

mapfile -t missing < <(missing_packages "${packages[@]}")
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "cugrade needs Debian packages that are not installed: ${missing[*]}" >&2
    echo "Install them, then run make again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 2
fi

echo "deps: installing ${missing[*]} (apt-get, for make $want)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >/dev/null || ! apt-get install -y -qq "${missing[@]}" >/dev/null; then
    echo "deps: apt-get could not install ${missing[*]}; see its message above" >&2
    exit 2
fi
mapfile -t still < <(missing_packages "${missing[@]}")
if [ ${#still[@]} -gt 0 ]; then
    echo "deps: apt-get finished but these are still not installed: ${still[*]}" >&2
    exit 2
fi
