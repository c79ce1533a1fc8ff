#!/usr/bin/env bash
# bench/run.sh - `make bench`: the emulator's speed numbers, printed.
#  1. Grading the reference on every shipped lab 3 dataset with the emulator
#     (wall time of the whole `cugrade run`, compile included), without the
#     checks (target <= 10 s on a 2-core machine) and with them (<= 20 s).
#  2. Emulator overhead: the reference tiled kernel (reference/lab3/matmul.cu)
#     at 512x512x512 on the emulator against a plain C triple loop of the same
#     shape, one thread: plain build (target <= 10x) and checked build,
#     emucc --checks (target <= 40x; the loop itself is timed uninstrumented).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${BENCH_REPS:-3}
echo "machine: $(nproc) cores, $(uname -m), $(${CXX:-g++} --version | head -n 1)"
echo

grade_bench() { # $1: --checks value, $2: target
    echo "1. grade the reference on every shipped lab 3 dataset (emu backend, --checks $1), $reps runs"
    best=""
    for i in $(seq "$reps"); do
        t0=$(date +%s.%N)
        bin/cugrade run --lab lab3 --backend emu --checks "$1" --color never reference >/tmp/cugrade-bench-grade.log
        t1=$(date +%s.%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
        printf "   run %d: %.2f s   (%s)\n" "$i" "$t" "$(grep -o 'Score: [0-9.]* / [0-9.]*' /tmp/cugrade-bench-grade.log)"
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    printf "   best: %.2f s (target <= %s)\n\n" "$best" "$2"
}
grade_bench none "10 s"
grade_bench all "20 s"

mkdir -p build/bench
echo "2. emulator overhead at 512x512x512: reference tiled kernel vs plain C triple loop"
bin/emucc -O2 -Ilabs/common bench/emu_overhead.cu reference/lab3/matmul.cu -o build/bench/emu_overhead
build/bench/emu_overhead 512 512 512 "$reps"
echo "   (target <= 10x)"
echo
echo "3. the same with the checks on (emucc --checks: races, memory, traffic)"
bin/emucc -c -O2 -Ilabs/common bench/emu_overhead.cu -o build/bench/emu_overhead_main.o
bin/emucc -c --checks -Ilabs/common reference/lab3/matmul.cu -o build/bench/matmul_checked.o
bin/emucc build/bench/emu_overhead_main.o build/bench/matmul_checked.o -o build/bench/emu_overhead_checked
CUGRADE_EMU_DIAG=/dev/null build/bench/emu_overhead_checked 512 512 512 "$reps" 2>/dev/null
echo "   (target <= 40x)"
