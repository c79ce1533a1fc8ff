#!/usr/bin/env bash
# batch.sh - benchmark of `cugrade batch`: a synthetic class of N submissions
# (default 40) mixing the reference and known-bad lab 3 submissions, with a
# few byte-identical copies, graded on the emulator with the shipped
# datasets; prints submissions per minute and the time of an unchanged --resume.
# Usage: bench/batch.sh [N] (from the repository root, after `make all`).
set -euo pipefail
n=${1:-40}
tmp=$(mktemp -d /tmp/cugrade-bench-batch-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
kinds=(reference/lab3/matmul.cu tests/submissions/lab3/intdiv_grid.cu
       tests/submissions/lab3/missing_second_barrier.cu tests/submissions/lab3/compile_error.cu
       tests/submissions/lab3/host_segfault.cu tests/submissions/lab3/endless_kernel.cu)
for ((i = 0; i < n; i++)); do
    d="$tmp/subs/s$(printf %03d "$i")/lab3"
    mkdir -p "$d"
    cp "${kinds[i % ${#kinds[@]}]}" "$d/matmul.cu"
    # all but every fourth get a unique comment: the rest are byte-identical copies
    if ((i % 4 != 3)); then echo "// student $i" >>"$d/matmul.cu"; fi
done
cat >"$tmp/rubric.json" <<'JSON'
{"version": 1, "labs": {"lab3": {"compile": {"name": "compiles", "points": 0},
 "datasets": {"points": 1, "time_limit_s": 5}}}}
JSON
t0=$(date +%s.%N)
bin/cugrade batch --lab lab3 --backend emu --rubric "$tmp/rubric.json" --out "$tmp/out" "$tmp/subs" \
    >"$tmp/first.log" || true
t1=$(date +%s.%N)
bin/cugrade batch --lab lab3 --backend emu --rubric "$tmp/rubric.json" --out "$tmp/out" --resume \
    "$tmp/subs" >"$tmp/resume.log" || true
t2=$(date +%s.%N)
grep -E '^batch: ' "$tmp/first.log" || true
awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    printf "batch: %d submissions in %.1f s: %.1f submissions/minute\n", n, b - a, n * 60 / (b - a)
    printf "batch --resume (unchanged class): %.2f s (target < 30 s)\n", c - b }'
