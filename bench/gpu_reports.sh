#!/usr/bin/env bash
# bench/gpu_reports.sh - on a GPU machine: grade the stub and the buggy lab 3
# submissions on the native backend and print, for each, the length of its
# terminal report (lines, widest line at 80 columns), the score and the
# failure of each dataset block; fail (exit 1) when a report is too long
# (stub > 25 lines, a buggy submission > 60), a line is wider than 80
# columns, a grade does not run (exit status other than 0), or the expected
# wrong program is not the one named (results.json extra_data.failure).
# Usage (from the repository root, after `make all`): bench/gpu_reports.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x bin/cugrade ] || { echo "gpu_reports: bin/cugrade is missing: run make first" >&2; exit 1; }
out=$(mktemp -d /tmp/cugrade-gpu-reports-XXXXXX)
trap 'rm -rf "$out"' EXIT

# submission  max-lines  failure every failing dataset's key must include ("-": any)
cases=(
    "student 25 never-written"
    "tests/submissions/lab3/intdiv_grid.cu 60 -"
    "tests/submissions/lab3/transposed_b.cu 60 hypothesis:b-transposed"
    "tests/submissions/lab3/transposed_a.cu 60 hypothesis:a-transposed"
    "tests/submissions/lab3/store_transposed.cu 60 hypothesis:c-transposed"
    "tests/submissions/lab3/intdiv_phases.cu 60 -"
    "tests/submissions/lab3/tile_b_transposed.cu 60 -"
    "tests/submissions/lab3/blocks_swapped.cu 60 hypothesis:blocks-swapped"
    "tests/submissions/lab3/sum_reset_each_phase.cu 60 hypothesis:sum-reset-each-phase"
    "tests/submissions/lab3/phase_totals_kept.cu 60 hypothesis:phase-totals-kept"
    "tests/submissions/lab3/missing_second_barrier.cu 60 -"
    "tests/submissions/lab3/unguarded_loads.cu 60 -"
)
bad=0
printf "%-28s %5s %5s %6s  %s\n" submission lines cols score "failures (datasets)"
for c in "${cases[@]}"; do
    read -r sub max want <<<"$c"
    name=$(basename "$sub" .cu)
    rc=0
    bin/cugrade run --lab lab3 --backend native --color never --json "$out/$name.json" "$sub" \
        >"$out/$name.txt" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "gpu_reports: grading $sub exited $rc:" >&2
        tail -n 20 "$out/$name.txt" >&2
        bad=1
        continue
    fi
    lines=$(wc -l <"$out/$name.txt")
    cols=$(LC_ALL=C.UTF-8 wc -L <"$out/$name.txt")
    score=$(grep -o '"score":[ ]*[0-9.]*' "$out/$name.json" | head -n 1 | grep -o '[0-9.]*$')
    failures=$(grep -o '"failure":[ ]*"[^"]*"' "$out/$name.json" | sed 's/.*"\([^"]*\)"$/\1/' |
        sort | uniq -c | awk '{ printf "%s%s (%d)", sep, $2, $1; sep = ", " }')
    printf "%-28s %5d %5d %6s  %s\n" "$name" "$lines" "$cols" "$score" "${failures:-none}"
    if [ "$lines" -gt "$max" ] || [ "$cols" -gt 80 ]; then
        echo "gpu_reports: $name: $lines lines, $cols columns (at most $max and 80)" >&2
        bad=1
    fi
    if [ "$want" != - ] && ! grep -q "\"failure\":[ ]*\"$want\"" "$out/$name.json"; then
        echo "gpu_reports: $name: no dataset failed as $want" >&2
        bad=1
    fi
done
echo
echo "the transposed-B report on the GPU:"
cat "$out/transposed_b.txt"
exit $bad
