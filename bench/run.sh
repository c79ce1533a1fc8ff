#!/usr/bin/env bash
# bench/run.sh - `make bench`: the speed numbers of issue 2, printed.
#  1. Grading the reference on every shipped lab 3 dataset with the emulator
#     (wall time of the whole `cugrade run`, compile included; target <= 10 s
#     on a 2-core machine).
#  2. Emulator overhead: the reference tiled kernel (reference/lab3/matmul.cu)
#     at 512x512x512 on the emulator against a plain C triple loop of the same
#     shape, both -O2, one thread (target <= 10x).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${BENCH_REPS:-3}
echo "machine: $(nproc) cores, $(uname -m), $(${CXX:-g++} --version | head -n 1)"
echo

echo "1. grade the reference on every shipped lab 3 dataset (emu backend), $reps runs"
best=""
for i in $(seq "$reps"); do
    t0=$(date +%s.%N)
    bin/cugrade run --lab lab3 --backend emu --color never reference >/tmp/cugrade-bench-grade.log
    t1=$(date +%s.%N)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    printf "   run %d: %.2f s   (%s)\n" "$i" "$t" "$(grep -o 'Score: [0-9.]* / [0-9.]*' /tmp/cugrade-bench-grade.log)"
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
done
printf "   best: %.2f s (target <= 10 s)\n\n" "$best"

echo "2. emulator overhead at 512x512x512: reference tiled kernel vs plain C triple loop"
mkdir -p build/bench
bin/emucc -O2 -Ilabs/common bench/emu_overhead.cu reference/lab3/matmul.cu -o build/bench/emu_overhead
build/bench/emu_overhead 512 512 512 "$reps"
