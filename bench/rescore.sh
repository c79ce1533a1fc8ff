#!/usr/bin/env bash
# rescore.sh - benchmark of the commonest regrade: a rubric change that only
# moves points. A small class (the reference, a tile-32 solution, an
# integer-division grid, a missing barrier, a compile error) is graded on the
# emulator backend with the shipped rubric and datasets, replicated to N
# submissions (default 500; copies of the five files, so the first batch
# grades five and copies the rest: the re-score must not depend on the
# submissions being distinct), then a copy of rubric.json gives every public
# dataset 1.5 more points and `cugrade batch --resume --rubric COPY` is timed.
# Usage: bench/rescore.sh [N]   (from anywhere, after `make`)
# BENCH_KEEP=DIR keeps the results folder.
#
# No number is printed that was not checked (bench/lib.sh has the exit
# statuses: 0 ok, 1 a step failed or a result is wrong, 2 cannot start):
#  - needs bin/cugrade, bin/emucc, build/libcugrade_emu.a (`make`) and python3
#    (the rubric copy and the gradebook checks); N must be >= 1;
#  - the first batch must exit 0 and read "batch: N graded, 0 re-scored, 0
#    could not grade, 0 skipped (unchanged), 0 not written";
#  - the timed batch runs with PATH and TMPDIR pointing nowhere (any build or
#    run would fail, and the batch with it); it must exit 0, plan "0 to grade,
#    N to re-score" and read "batch: 0 graded, N re-scored, 0 could not grade,
#    0 skipped (unchanged), 0 not written";
#  - gradebook.csv must have N rows, every public dataset column at 0 or the
#    new points (and some at the new points), every max raised by exactly
#    1.5 per public dataset, and the totals of the rows the same dataset
#    verdicts as before the change;
#  only then is the re-score time printed; else exit 1 with the log's tail.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
n=${1:-500}
is_count "$n" || bench_cannot_start "N must be a whole number >= 1, not '$n' (usage: bench/rescore.sh [N])"
need_built CUGRADE_BIN "$cugrade" x
need_built EMUCC_BIN "$emucc" x
need_built CUGRADE_EMU_LIB "$emu_lib" f
need_tool python3 "bench/rescore.sh writes the rubric copy and checks the gradebook with it: install python3"

bench_scratch rescore

files=(reference/lab3/matmul.cu tests/submissions/lab3/tile32.cu tests/submissions/lab3/intdiv_grid.cu
    tests/submissions/lab3/missing_second_barrier.cu tests/submissions/lab3/compile_error.cu)
for ((i = 0; i < n; i++)); do
    id=$(printf "s%03d" "$i")
    mkdir -p "$tmp/subs/$id/lab3"
    cp "$bench_root/${files[i % ${#files[@]}]}" "$tmp/subs/$id/lab3/matmul.cu"
done
cp "$bench_root/rubric.json" "$tmp/rubric.json"
echo "machine: $(nproc) cores; class: $n submissions, copies of ${#files[@]} files"

# batch_summary LOG: the "batch: ..." summary line of a batch, less its time.
batch_summary() {
    local line
    line=$(grep -m1 '^batch: ' "$1") || return 0
    printf '%s\n' "${line%, *}"
}

args=(batch --lab lab3 --backend emu --out "$tmp/out")
t0=$(date +%s.%N)
rc=0
"$cugrade" "${args[@]}" --rubric "$tmp/rubric.json" "$tmp/subs" >"$tmp/first.log" 2>&1 || rc=$?
t1=$(date +%s.%N)
[ "$rc" -eq 0 ] || bench_fail "the first cugrade batch exited with status $rc" "$tmp/first.log"
want="batch: $n graded, 0 re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written"
got=$(batch_summary "$tmp/first.log")
[ "$got" = "$want" ] || bench_fail "the first batch's summary is \"${got:-(none)}\", not \"$want\"" "$tmp/first.log"
cp "$tmp/out/gradebook.csv" "$tmp/gradebook-before.csv"

python3 - "$tmp/rubric.json" "$tmp/rubric-copy.json" <<'PY' || bench_fail "cannot write the rubric copy"
import json, sys
rubric = json.load(open(sys.argv[1]))
datasets = rubric["labs"]["lab3"]["datasets"]
if "points" not in datasets:
    sys.exit("rubric.json: labs.lab3.datasets has no \"points\" to change")
datasets["points"] += 1.5
json.dump(rubric, open(sys.argv[2], "w"), indent=2)
PY

rc=0
env PATH=/nonexistent TMPDIR=/nonexistent "$cugrade" "${args[@]}" --resume --rubric "$tmp/rubric-copy.json" \
    "$tmp/subs" >"$tmp/rescore.log" 2>&1 || rc=$?
t2=$(date +%s.%N)
[ "$rc" -eq 0 ] || bench_fail "cugrade batch --resume with the changed rubric exited with status $rc" "$tmp/rescore.log"
grep -q "0 to grade, $n to re-score, 0 unchanged (skipped)" "$tmp/rescore.log" ||
    bench_fail "the batch did not plan to re-score all $n (\"0 to grade, $n to re-score\")" "$tmp/rescore.log"
want="batch: 0 graded, $n re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written"
got=$(batch_summary "$tmp/rescore.log")
[ "$got" = "$want" ] || bench_fail "the re-score's summary is \"${got:-(none)}\", not \"$want\"" "$tmp/rescore.log"

if ! python3 - "$tmp/gradebook-before.csv" "$tmp/out/gradebook.csv" "$tmp/rubric.json" "$n" <<'PY'; then
import csv, json, sys
before, after = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
old = json.load(open(sys.argv[3]))["labs"]["lab3"]["datasets"]["points"]
new, n = old + 1.5, int(sys.argv[4])
bad = []
if len(after) != n or len(before) != n:
    bad.append(f"{len(before)} rows before and {len(after)} after, not {n}")
public = [c for c in (after[0].keys() if after else []) if c.startswith("dataset ")]
if not public:
    bad.append("no public dataset columns in gradebook.csv")
raised = 0
for b, a in zip(before, after):
    for c in public:
        was, now = float(b[c]), float(a[c])
        if not (now == 0 and was == 0) and not (abs(was - old) < 1e-9 and abs(now - new) < 1e-9):
            bad.append(f"{a['id']}: {c} was {was}, is {now} (points {old} -> {new})")
        raised += now > 0
    if abs(float(a["max"]) - float(b["max"]) - 1.5 * len(public)) > 1e-9:
        bad.append(f"{a['id']}: max {b['max']} -> {a['max']}, not +{1.5 * len(public)}")
if raised == 0:
    bad.append("no dataset column shows the new points")
if bad:
    print("gradebook.csv NOT as expected: " + "; ".join(bad[:5]) + (" ..." if len(bad) > 5 else ""))
    sys.exit(1)
print(f"gradebook.csv: {n} rows, public datasets at {new:g} points where passed, every max +{1.5 * len(public):g}")
PY
    bench_fail "the gradebook does not show the new points (see above; BENCH_KEEP=DIR keeps the results)"
fi

distinct=$((n < ${#files[@]} ? n : ${#files[@]}))
awk -v n="$n" -v k="$distinct" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    if (!(c - b > 0) || !(b - a > 0)) exit 1
    printf "first grading: %d submissions in %.1f s (%d files graded, the rest copies)\n", n, b - a, k
    printf "re-score of %d submissions after a points change (batch --resume, nothing built or run): %.2f s (target <= 30 s)\n", n, c - b }' ||
    bench_fail "a batch took no measurable time ($t0, $t1, $t2)"
