#!/usr/bin/env bash
# bench/cuda_pip.sh - the exports' CUDA compiler (docs/exports.md): NVIDIA's
# compiler wheels from PyPI, installed by tools/cuda_pip.sh, measured on this
# machine as an LMS image would use them. Prints: the download and install
# time, the wheels' size and the size on disk; then a clone of this tree
# built with that nvcc alone and lab 3's reference graded on the executor
# (--backend vgpu) with the machine's own toolkit hidden (/usr/local under an
# empty tmpfs, by bubblewrap): the build's time, the grade's time and score.
# Not in `make bench` (it needs PyPI); run by hand, numbers in
# docs/benchmarks.md. Exit 1 when a step fails (the grade must be full
# marks), 2 when it cannot start (no pip, no bubblewrap, no network).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh

need_tool bwrap "apt-get install bubblewrap"
need_tool git "apt-get install git"
python3 -m pip --version > /dev/null 2>&1 || bench_cannot_start "python3 has no pip (apt-get install python3-pip)"
tmp=$(mktemp -d "${BENCH_TMP:-/var/tmp}/cugrade-bench-cuda-pip-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

t0=$(date +%s.%N)
nvcc=$(tools/cuda_pip.sh "$tmp/cuda" 2> "$tmp/pip.log") || bench_fail "tools/cuda_pip.sh failed" "$tmp/pip.log"
t1=$(date +%s.%N)
disk_mb=$(du -sm "$tmp/cuda" | cut -f1)
mkdir -p "$tmp/wheels"
python3 -m pip download --quiet --disable-pip-version-check --no-deps -d "$tmp/wheels" \
    "nvidia-cuda-nvcc==13.0.*" "nvidia-cuda-crt==13.0.*" "nvidia-cuda-runtime==13.0.*" \
    "nvidia-cuda-cccl==13.0.*" "nvidia-nvvm==13.0.*" > "$tmp/download.log" 2>&1 ||
    bench_fail "pip download failed" "$tmp/download.log"
wheels_mb=$(du -sm "$tmp/wheels" | cut -f1)

git clone -q . "$tmp/tree" || bench_fail "git clone of this tree failed"
# shellcheck disable=SC2016 # expanded inside the hidden-toolkit shell
hidden='cd "$1" && export PATH=/usr/sbin:/usr/bin:/sbin:/bin CUGRADE_NVCC="$2" &&
        s=$(date +%s.%N) && make -j"$(nproc)" NVCC="$2" all > build.log 2>&1 && e=$(date +%s.%N) &&
        echo "build $(echo "$e - $s" | bc)" &&
        s=$(date +%s.%N) && bin/cugrade run --lab lab3 --backend vgpu --color never reference/lab3/matmul.cu > grade.log 2>&1 &&
        e=$(date +%s.%N) && echo "grade $(echo "$e - $s" | bc)"'
bwrap --dev-bind / / --tmpfs /usr/local -- bash -c "$hidden" _ "$tmp/tree" "$nvcc" > "$tmp/times" 2> "$tmp/err" ||
    bench_fail "the build or the grade with the wheels' nvcc alone failed" \
        "$( [ -f "$tmp/tree/grade.log" ] && echo "$tmp/tree/grade.log" || echo "$tmp/tree/build.log")"
grep -q "Score: 110 / 110" "$tmp/tree/grade.log" || bench_fail "lab 3's reference did not get full marks" "$tmp/tree/grade.log"
grep -q "backend: vgpu" "$tmp/tree/grade.log" || bench_fail "not graded on the executor" "$tmp/tree/grade.log"

printf '%-48s %s\n' "step (NVIDIA's wheels, CUDA 13.0)" "measured"
printf '%-48s %.1f s\n' "tools/cuda_pip.sh: download and install" "$(echo "$t1 - $t0" | bc)"
printf '%-48s %s MB\n' "the five wheels, downloaded" "$wheels_mb"
printf '%-48s %s MB\n' "installed, on disk" "$disk_mb"
printf '%-48s %.1f s\n' "make all with that nvcc ($(nproc) CPUs)" "$(sed -n 's/^build //p' "$tmp/times")"
printf '%-48s %.1f s  (%s)\n' "lab 3 reference on the executor, no /usr/local" "$(sed -n 's/^grade //p' "$tmp/times")" \
    "$(grep -o 'Score: [0-9./ ]*' "$tmp/tree/grade.log" | head -1)"
