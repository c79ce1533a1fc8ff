#!/usr/bin/env bash
# setup.sh - Gradescope runs this once, as root, when it builds the
# autograder image (Ubuntu): the Debian packages cugrade needs
# (cugrade/tools/deps.txt, grade column, installed by tools/deps.sh only when
# missing), python3 for the results helper, on the vgpu backend the CUDA
# compiler its executor needs (no GPU: the image's nvcc if it has one, else
# NVIDIA's compiler wheels from PyPI into $AUTOGRADER_ROOT/cuda,
# cugrade/tools/cuda_pip.sh: about 100 MB down, 271 MB on disk), cugrade
# built for it, and the hidden datasets' secret moved out of the source folder
# to $AUTOGRADER_ROOT/secret (mode 0600).
# Written by `cugrade export gradescope --lab @LAB@ --backend @BACKEND@`.
#   AUTOGRADER_ROOT    /autograder        AUTOGRADER_SOURCE  $AUTOGRADER_ROOT/source
#   CUGRADE_SKIP_APT=1 installs nothing (the packages are there already)
#   CUGRADE_NVCC       the nvcc to use (else PATH's, /usr/local/cuda's or the wheels')
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

backend=@BACKEND@
make_args=()
if [ "$backend" = vgpu ]; then
    nvcc=${CUGRADE_NVCC:-$(command -v nvcc || true)}
    if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
        nvcc=/usr/local/cuda/bin/nvcc
    fi
    if [ -z "$nvcc" ]; then
        if [ "${CUGRADE_SKIP_APT:-0}" != 1 ] && ! python3 -m pip --version >/dev/null 2>&1; then
            DEBIAN_FRONTEND=noninteractive apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pip
        fi
        nvcc=$("$src/cugrade/tools/cuda_pip.sh" "$root/cuda")
    fi
    printf 'CUGRADE_NVCC=%q\n' "$nvcc" > "$root/cugrade.env" # run_autograder reads it
    make_args=(NVCC="$nvcc" CUGRADE_NVCC="$nvcc")
fi

make -C "$src/cugrade" -j"$(nproc)" CUGRADE_SKIP_DEPS=1 WERROR= "${make_args[@]}" all
# the datasets too large to ship, made once here from their manifest lines (not in each grading)
"$src/cugrade/tools/make_datasets.sh" --missing @LAB@
if [ "$backend" = vgpu ]; then
    info=$(CUGRADE_NVCC=$nvcc "$src/cugrade/bin/cugrade" info 2>&1 || true)
    case $info in
    *"PTX executor: available"*) ;;
    *) printf 'setup.sh: the executor is not ready (cugrade info):\n%s\n' "$info" >&2; exit 1 ;;
    esac
fi

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
echo "setup.sh: cugrade built for lab @LAB@ (the $backend backend${nvcc:+, nvcc $nvcc})"
