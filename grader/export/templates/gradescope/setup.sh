#!/usr/bin/env bash
# setup.sh - Gradescope runs this once, as root, when it builds the
# autograder image (Ubuntu): the Debian packages cugrade needs
# (cugrade/tools/deps.txt, grade column, installed by tools/deps.sh only when
# missing), python3 for the results helper, cugrade built for the emulator
# backend (no nvcc, no GPU), and the hidden datasets' secret moved out of the
# source folder to $AUTOGRADER_ROOT/secret (mode 0600).
# Written by `cugrade export gradescope --lab @LAB@`.
#   AUTOGRADER_ROOT    /autograder        AUTOGRADER_SOURCE  $AUTOGRADER_ROOT/source
#   CUGRADE_SKIP_APT=1 installs nothing (the packages are there already)
set -euo pipefail

root=${AUTOGRADER_ROOT:-/autograder}
src=${AUTOGRADER_SOURCE:-$root/source}

if [ "${CUGRADE_SKIP_APT:-0}" != 1 ]; then
    if ! command -v python3 >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3
    fi
    "$src/cugrade/tools/deps.sh" grade
fi

make -C "$src/cugrade" -j"$(nproc)" CUGRADE_SKIP_DEPS=1 WERROR= all

if [ -f "$src/secret/hidden-seed" ]; then
    mkdir -p "$root/secret"
    chmod 0700 "$root/secret"
    mv "$src/secret/hidden-seed" "$root/secret/hidden-seed"
    chmod 0600 "$root/secret/hidden-seed"
    rmdir "$src/secret" 2>/dev/null || true
fi
if [ -f "$src/run_autograder" ] && [ "$src/run_autograder" != "$root/run_autograder" ]; then
    cp "$src/run_autograder" "$root/run_autograder"
    chmod 0755 "$root/run_autograder"
fi
echo "setup.sh: cugrade built for lab @LAB@ (emulator backend)"
