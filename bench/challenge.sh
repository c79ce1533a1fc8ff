#!/usr/bin/env bash
# bench/challenge.sh [bench args] - on a machine with a CUDA GPU: build
# bench/challenge/bench.cu with the challenge reference
# (reference/challenge/sgemm.cu) and the lab 3 kernels
# (reference/lab3/matmul.cu, the tiled reference; matmul_naive.cu, the
# untiled kernel), check the challenge reference on awkward shapes, then
# print one table: ms, GFLOP/s and % of cuBLAS (cublasSgemm, default math
# mode: FP32, no TF32) for the four kernels at 4096^3, 3001x2999x3003,
# 8192x8192x1024 and 1024x1024x8192 (M x K x N), with the course's timing
# protocol (events, L2 flush, median, interleaved; docs/gpu.md).
#
# Extra arguments go to the program (--reps N, --shape MxKxN ...).
# Exit statuses (bench/lib.sh): 0 every step ran and every output was
# right; 1 a build failed, the program failed, or an output was wrong (the
# message says which; the table is not printed as a result); 2 nvcc or the
# GPU is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh

need_nvcc "install the CUDA toolkit, or set CUGRADE_NVCC"
need_tool nvidia-smi "run it on a machine with an NVIDIA GPU and its driver"
nvidia-smi -L >/dev/null 2>&1 ||
    bench_cannot_start "nvidia-smi sees no GPU: run it on a machine with a CUDA device"

out=build/challenge-bench
mkdir -p "$out"
flags=(-O3 -arch=sm_90 -lineinfo)
# The four objects compile in parallel, each with its own log; the lab 3
# files get their launch function renamed (as the grader does), so that
# both fit in one program.
names=(sgemm lab3 naive bench)
srcs=(reference/challenge/sgemm.cu reference/lab3/matmul.cu reference/lab3/matmul_naive.cu
    bench/challenge/bench.cu)
defs=("" -DlaunchMatrixMultiplyShared=lab3TiledLaunch -DlaunchMatrixMultiplyShared=lab3NaiveLaunch
    "")
pids=()
for i in "${!names[@]}"; do
    # shellcheck disable=SC2206 # an empty define must vanish
    args=("${flags[@]}" ${defs[$i]} -c "${srcs[$i]}" -o "$out/${names[$i]}.o")
    "$nvcc" "${args[@]}" >"$out/${names[$i]}.log" 2>&1 &
    pids+=($!)
done
for i in "${!pids[@]}"; do
    rc=0
    wait "${pids[$i]}" || rc=$?
    [ "$rc" -eq 0 ] ||
        bench_fail "compiling ${srcs[$i]} exited with status $rc" "$out/${names[$i]}.log"
done
objs=("$out/bench.o" "$out/sgemm.o" "$out/lab3.o" "$out/naive.o")
run_step "linking bench" "$out/link.log" "$nvcc" -arch=sm_90 "${objs[@]}" -lcublas -o "$out/bench"

version=$("$nvcc" --version | grep -o 'release [0-9.]*, V[0-9.]*')
echo "bench/challenge.sh, $(date -u +%Y-%m-%dT%H:%MZ), nvcc $version"
gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader)
echo "gpu: $gpu"
rc=0
NVIDIA_TF32_OVERRIDE=0 "$out/bench" "$@" 2>&1 | tee "$out/bench.txt" || rc=$?
[ "$rc" -eq 0 ] ||
    bench_fail "bench exited with status $rc: the table above is not a result" "$out/bench.txt"
