#!/usr/bin/env bash
# gpu_context.sh - the per-process cost of a GPU on this machine: how long a
# CUDA context takes to make (cudaFree(0)) and one small dataset's round trip
# after it (bench/gpu_context.cu), for K processes started together on one
# GPU, and 16 together on each of the first G GPUs at once (what a batch's
# workers do). A multi-GPU host whose batch is slow though its cores and its
# queues are idle shows it here. Each case runs twice: with the caller's
# CUDA_DEVICE_MAX_CONNECTIONS (the driver's default when unset), then with 1;
# on several GPUs, once more with each process shown its GPU's device file
# alone (bubblewrap, as a batch's sandbox does). Last, 16 workers a GPU each
# start 5 processes one after another, on one GPU and on G: the processes the
# host gets through a second, which bounds a batch's GPU programs. And the
# same with each process a lab 3 list run (28 datasets, `gpu_context --list`):
# every dataset making and freeing its buffers and events, as the matmul
# driver did, against making them once: do a list's driver calls wait for
# the other GPUs' processes? And both with every buffer between two 4 MiB
# guards, as the drivers now make them (labs/common/harness_device.h).
# Usage: bench/gpu_context.sh [G [lists]]   (G: GPUs to load at once; default:
# all; "lists": the list runs' case alone)
# Exit 0 when every process ran; 1 when one failed (its error is printed);
# 2 when nvcc or nvidia-smi is missing.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
need_nvcc "bench/gpu_context.sh compiles bench/gpu_context.cu with it"
need_tool nvidia-smi "bench/gpu_context.sh counts the GPUs with it"
host_gpus
g=${1:-$have_gpus}
if ! is_count "$g" || [ "$g" -gt "$have_gpus" ]; then
    bench_cannot_start "G must be 1..$have_gpus, not '$g'"
fi
bench_scratch gpu_context
"$nvcc" -O2 -arch="${CUGRADE_NVARCH:-sm_90}" -o "$tmp/ctx" "$bench_root/bench/gpu_context.cu" 2>"$tmp/nvcc.log" ||
    bench_fail "nvcc could not build bench/gpu_context.cu" "$tmp/nvcc.log"
nvidia-smi --query-gpu=index,name,persistence_mode,compute_mode,clocks.sm --format=csv,noheader |
    sed 's/^/gpu /'

# on_gpu GPU: runs the rest of its arguments seeing GPU alone: by
# CUDA_VISIBLE_DEVICES, or with $node_only, in bubblewrap with that GPU's
# device file alone beside the driver's shared ones (what the sandbox of a
# batch's child does, grader/run/sandbox.c).
on_gpu() {
    local gpu=$1 d binds=()
    shift
    if [ -z "${node_only:-}" ]; then
        CUDA_VISIBLE_DEVICES=$gpu "$@"
        return
    fi
    for d in /dev/nvidiactl /dev/nvidia-uvm /dev/nvidia-uvm-tools "/dev/nvidia${minor[$gpu]}"; do
        if [ -c "$d" ]; then binds+=(--dev-bind "$d" "$d"); fi
    done
    env -u CUDA_VISIBLE_DEVICES bwrap --bind / / --dev /dev "${binds[@]}" -- "$@"
}

# together LABEL GPUS K: K processes on each listed GPU, started at once.
together() {
    local label=$1 gpus=$2 k=$3 i gpu
    rm -f "$tmp"/out.* "$tmp"/err.*
    for gpu in ${gpus//,/ }; do
        for ((i = 0; i < k; i++)); do
            on_gpu "$gpu" "$tmp/ctx" >"$tmp/out.$gpu.$i" 2>"$tmp/err.$gpu.$i" &
        done
    done
    wait_all "$label"
    cat "$tmp"/out.* | sort -n | awk -v l="$label" -v p="$(($(echo "${gpus//,/ }" | wc -w) * k))" '
        { c[NR] = $1; r += $2; s += $3; e += $4; if ($1 > m) m = $1 }
        END {
            if (NR != p) { printf "%s: %d lines from %d processes\n", l, NR, p; exit 1 }
            printf "%-28s n=%3d  driver start ms: mean %6.1f  context ms: median %7.1f max %7.1f   round trip ms: mean %6.1f  end ms: mean %6.1f\n",
                   l, NR, s / NR, c[int((NR + 1) / 2)], m, r / NR, e / NR }' ||
        bench_fail "$label: a process printed no times"
}

# in_a_row GPU N OUT [ARGS...]: N processes on GPU, one after another (a
# batch worker's), their lines appended to OUT.
in_a_row() {
    local gpu=$1 n=$2 out=$3 r
    shift 3
    for ((r = 0; r < n; r++)); do on_gpu "$gpu" "$tmp/ctx" "$@" >>"$out" || return 1; done
}

# sustained LABEL GPUS K N [ARGS...]: K workers on each listed GPU, each
# starting N processes (gpu_context ARGS) one after another, as a batch's
# workers do all along: how many whole processes (start, context, round
# trips, end) the host gets through a second, which bounds the GPU programs
# a batch can run, and what their round trips took.
sustained() {
    local label=$1 gpus=$2 k=$3 n=$4 i gpu t0 t1
    shift 4
    rm -f "$tmp"/err.* "$tmp"/out.*
    t0=$(date +%s.%N)
    for gpu in ${gpus//,/ }; do
        for ((i = 0; i < k; i++)); do
            in_a_row "$gpu" "$n" "$tmp/out.$gpu.$i" "$@" 2>"$tmp/err.$gpu.$i" &
        done
    done
    wait_all "$label"
    t1=$(date +%s.%N)
    cat "$tmp"/out.* | sort -g -k2 | awk -v l="$label" -v p="$(($(echo "${gpus//,/ }" | wc -w) * k * n))" \
        -v a="$t0" -v b="$t1" '{ r[NR] = $2; s += $2 } END {
        if (NR != p) { printf "%s: %d lines from %d processes\n", l, NR, p; exit 1 }
        n = NR
        printf "%-40s %4d processes in %6.2f s = %6.1f a second; round trips ms: median %7.1f mean %7.1f max %7.1f\n",
               l, p, b - a, p / (b - a), r[int((n + 1) / 2)], s / n, r[n] }' ||
        bench_fail "$label: a process printed no times"
}
only=${2:-}
[ -z "$only" ] || [ "$only" = lists ] || bench_cannot_start "the second argument can only be 'lists', not '$only'"
# each case as this environment has it, then with the one work queue a
# context gets from cugrade's runner (grader/run/runner.c)
for queues in "${CUDA_DEVICE_MAX_CONNECTIONS:-}" 1; do
    [ -z "$only" ] || break
    if [ -n "$queues" ]; then export CUDA_DEVICE_MAX_CONNECTIONS=$queues; fi
    echo "CUDA_DEVICE_MAX_CONNECTIONS=${queues:-unset (the default, 8)}"
    together "1 on GPU 0" 0 1
    together "1 on GPU 0 (again)" 0 1
    together "16 on GPU 0" 0 16
    [ "$g" -lt 2 ] || together "16 on each of $g GPUs" "$(seq -s, 0 $((g - 1)))" 16
done
# and each process shown its GPU's device file alone (1 queue still)
if [ "$g" -ge 2 ] && command -v bwrap >/dev/null 2>&1; then
    # each GPU's device file, as the batch finds it (cugrade info's lines)
    need_built CUGRADE_BIN "$cugrade" x
    "$cugrade" info >"$tmp/info.log" 2>&1 || bench_fail "cugrade info exited with status $?" "$tmp/info.log"
    minor=()
    for ((k = 0; k < g; k++)); do
        minor[k]=$(sed -n "s|^    gpu $k: .*, /dev/nvidia\([0-9]*\)\$|\1|p" "$tmp/info.log")
        [ -n "${minor[k]}" ] || bench_fail "cugrade info names no device file for GPU $k" "$tmp/info.log"
    done
    node_only=1
    if [ -z "$only" ]; then
        echo "each process in bubblewrap with its GPU's device file alone"
        together "16 on each of $g GPUs" "$(seq -s, 0 $((g - 1)))" 16
    fi
else
    echo "(each process with its GPU's device file alone: needs 2 GPUs or more and bwrap)"
fi
# processes all along, as a batch's workers start them (each shown its GPU
# alone where the case above ran so): does the host get through G times as
# many on G GPUs as on one?
export CUDA_DEVICE_MAX_CONNECTIONS=1
if [ -z "$only" ]; then
    echo "processes one after another, 16 workers a GPU, 5 processes each"
    sustained "on GPU 0" 0 16 5
    [ "$g" -lt 2 ] || sustained "on each of $g GPUs" "$(seq -s, 0 $((g - 1)))" 16 5
fi
for mode in each reuse guards guards-reuse; do
    echo "lab 3 list runs (28 datasets a process, buffers and events: $mode), 16 workers a GPU, 5 each"
    sustained "on GPU 0" 0 16 5 --list "$mode"
    [ "$g" -lt 2 ] || sustained "on each of $g GPUs" "$(seq -s, 0 $((g - 1)))" 16 5 --list "$mode"
done
