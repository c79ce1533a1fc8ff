#!/usr/bin/env bash
# cuda_pip.sh - the CUDA compiler the executor (the vgpu backend) needs, on
# a machine with no CUDA toolkit (an LMS image: the exports' setup): nvcc,
# its front end and NVVM, and the runtime's headers, from NVIDIA's wheels on
# PyPI, installed into a folder of their own by pip (no driver, no GPU, no
# library of the system's replaced):
#
#   tools/cuda_pip.sh DIR    installs into DIR (again: nothing to do) and
#                            prints the path of its nvcc (DIR/nvidia/cu13/bin/nvcc)
#
# That nvcc's folder above bin/ is a toolkit (bin/nvcc, include/
# cuda_runtime.h), which the sandbox shows to nvcc in the jail
# (grader/run/sandbox.c). Call nvcc by that path: from a link elsewhere it
# finds neither its headers nor NVVM. Needs python3
# and its pip (Debian, Ubuntu: apt-get install python3-pip). About 100 MB
# downloaded and 271 MB on disk (docs/dependencies.md).
# $CUGRADE_CUDA_VERSION picks the release (13.0, the one tested; its
# wheels are nvidia-cuda-nvcc, -crt, -runtime, -cccl and nvidia-nvvm).
# Exit 2 with the reason when it cannot.
set -euo pipefail

die() {
    echo "tools/cuda_pip.sh: $*" >&2
    exit 2
}

[ $# -eq 1 ] || die "usage: tools/cuda_pip.sh DIR"
dir=$1
version=${CUGRADE_CUDA_VERSION:-13.0}
major=${version%%.*}
real=$dir/nvidia/cu$major/bin/nvcc
if [ ! -x "$real" ]; then
    python3 -m pip --version > /dev/null 2>&1 || die "python3 has no pip (apt-get install python3-pip)"
    wheels=()
    for w in nvidia-cuda-nvcc nvidia-cuda-crt nvidia-cuda-runtime nvidia-cuda-cccl nvidia-nvvm; do
        wheels+=("$w==$version.*")
    done
    python3 -m pip install --quiet --disable-pip-version-check --no-cache-dir --target "$dir" "${wheels[@]}" >&2 ||
        die "pip could not install CUDA $version's compiler into $dir"
    [ -x "$real" ] || die "the wheels hold no $real"
fi
"$real" --version > /dev/null 2>&1 || die "$real does not run"
echo "$real"
