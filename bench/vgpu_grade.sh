#!/usr/bin/env bash
# bench/vgpu_grade.sh - `make bench`: lab 3's whole grade on the executor
# (--backend vgpu) against the CPU emulator (--backend emu), side by side in
# one run (issue 39 item 7: the executor's grade must be no slower than the
# emulator's). Each rep grades the reference on every shipped lab 3 dataset
# (and the hidden ones) once on each backend, every check on, compile
# included; the best of BENCH_REPS (default 3) is printed for each, and
# their ratio. The reference's instruction counts (the vgpu budgets) are
# made by a first, untimed grading, as a class's first submission makes them.
#
# Every number printed was checked (bench/lib.sh's exit statuses): each
# `cugrade run` must exit 0 with full marks ("Score: X / X") and every
# dataset passed, else exit 1 with the log's tail; a missing binary is exit 2.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh

reps=${BENCH_REPS:-3}
is_count "$reps" || bench_cannot_start "BENCH_REPS must be a whole number >= 1, not '$reps'"
need_built CUGRADE_BIN "$cugrade" x
need_built CUGRADE_VGPU_BIN "$bench_root/bin/cugrade-vgpu" x
need_built CUGRADE_VCUDART "$bench_root/build/libcugrade_vcudart.a" f

tmp=$(mktemp -d /tmp/cugrade-bench-vgpu-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# full_marks LOG: "Score: X / X, N of N datasets" when the grade is full marks.
full_marks() {
    awk '/^  Score: [0-9.]+ \/ [0-9.]+/ {
            n++; got = $2; max = $4; dp = $5; sub(/^\(/, "", dp); dt = $7
         }
         END {
            if (n != 1) { print "no \"Score: X / Y\" line"; exit 1 }
            if (got != max || dp != dt || dt + 0 < 1) { print "Score: " got " / " max ", " dp " of " dt " datasets"; exit 1 }
            print "Score: " got " / " max ", " dp " of " dt " datasets"
         }' "$1"
}

# grade BACKEND LOG: the wall time of one grading of the reference, checked.
grade() {
    local t0 t1 grade
    t0=$(date +%s.%N)
    run_step "cugrade run --backend $1 reference" "$2" \
        "$cugrade" run --lab lab3 --backend "$1" --color never reference
    t1=$(date +%s.%N)
    grade=$(full_marks "$2") || bench_fail "the reference's grade on the $1 backend is not full marks: $grade" "$2"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

echo "machine: $(nproc) cores, $(uname -m)"
echo "lab 3's reference graded on every shipped dataset and 8 hidden ones, every check on"
grade vgpu "$tmp/warm.log" > /dev/null # the reference's counts, cached as a class's first grading makes them
best_emu="" best_vgpu=""
for i in $(seq "$reps"); do
    te=$(grade emu "$tmp/emu-$i.log")
    tv=$(grade vgpu "$tmp/vgpu-$i.log")
    printf "   run %d: emu %s s, vgpu %s s\n" "$i" "$te" "$tv"
    if [ -z "$best_emu" ] || awk -v t="$te" -v b="$best_emu" 'BEGIN { exit !(t < b) }'; then best_emu=$te; fi
    if [ -z "$best_vgpu" ] || awk -v t="$tv" -v b="$best_vgpu" 'BEGIN { exit !(t < b) }'; then best_vgpu=$tv; fi
done
awk -v e="$best_emu" -v v="$best_vgpu" 'BEGIN {
    printf "   best: emu %.2f s, vgpu %.2f s: the executor takes %.2fx the emulator'"'"'s time (target <= 1.00x)\n", e, v, v / e }'
