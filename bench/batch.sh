#!/usr/bin/env bash
# batch.sh - benchmark of `cugrade batch` on a synthetic class: N submissions
# (default 100) mixing the reference, a tile-32 solution, an integer-division
# grid, a missing barrier, unguarded loads, a compile error, a host crash and
# an endless kernel, each with a unique comment (so none is graded as a copy
# of another), graded with the shipped rubric and datasets on the default
# backend (auto: the executor, replaying on the GPU when there is one). Checks every student's verdict
# against its kind, times an unchanged --resume, then prints submissions per
# minute.
# Usage: bench/batch.sh [N] [extra cugrade batch options...]
# (from anywhere; the class's files come from this tree, after `make`).
# BENCH_KEEP=DIR keeps the results folder (class.html, every results.json).
# BENCH_DEADLINE_S=S stops the batch after S seconds: the submissions graded
# by then are counted (a partial rate, said as such), their verdicts judged,
# and the bench fails. On a GPU the batch's "gpu:" lines say where each
# GPU's time went (batch/gpu_holds.h; a stopped batch's, from `cugrade batch
# --merge`).
#
# No number is printed that was not checked (bench/lib.sh has the exit
# statuses: 0 ok, 1 a step failed or a result is wrong, 2 cannot start):
#  - needs bin/cugrade, bin/emucc, build/libcugrade_emu.a (`make`) and python3
#    (the verdict checks); says which is missing, exit 2; N must be >= 1;
#  - `cugrade batch` must exit 0 (it does when every submission has a
#    results.json, whatever its score: the endless kernels fail their datasets
#    on the time budget, the host crashes and compile errors score 0, and the
#    batch still exits 0; 2 means some submission has no results.json or the
#    class files could not be written), every one of the N submissions must
#    have a results.json, and its summary must read "batch: N graded, 0
#    re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written";
#  - the --resume run must exit 0 and skip all N ("0 graded, 0 re-scored, ...,
#    N skipped");
#  - every student's verdict must match its kind (bench/batch_verdicts.py,
#    which a deadline's partial run prints for the finished ones too);
#  only then are the throughput and the --resume time printed; else exit 1
#  with the tail of the log concerned, and no throughput.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
usage="usage: bench/batch.sh [N] [extra cugrade batch options...]"
n=${1:-100}
is_count "$n" || bench_cannot_start "N must be a whole number >= 1, not '$n' ($usage)"
if [ $# -gt 0 ]; then shift; fi
need_built CUGRADE_BIN "$cugrade" x
need_built EMUCC_BIN "$emucc" x
need_built CUGRADE_EMU_LIB "$emu_lib" f
need_tool python3 "bench/batch.sh checks every verdict with it: install python3"

bench_scratch batch

# kind  weight  file
kinds=(
    "reference 30 reference/lab3/matmul.cu"
    "tile32 10 tests/submissions/lab3/tile32.cu"
    "untiled 8 tests/submissions/lab3/untiled.cu"
    "intdiv_grid 15 tests/submissions/lab3/intdiv_grid.cu"
    "missing_barrier 15 tests/submissions/lab3/missing_second_barrier.cu"
    "unguarded_loads 10 tests/submissions/lab3/unguarded_loads.cu"
    "compile_error 8 tests/submissions/lab3/compile_error.cu"
    "host_segfault 7 tests/submissions/lab3/host_segfault.cu"
    "endless_kernel 5 tests/submissions/lab3/endless_kernel.cu"
)
pattern=()
for k in "${kinds[@]}"; do
    read -r name weight file <<<"$k"
    for ((w = 0; w < weight; w++)); do pattern+=("$name:$file"); done
done
: >"$tmp/kinds.txt"
for ((i = 0; i < n; i++)); do
    # spread the kinds over the class, as a real class would have them
    entry=${pattern[(i * 37) % ${#pattern[@]}]}
    id=$(printf "s%03d" "$i")
    mkdir -p "$tmp/subs/$id/lab3"
    cp "$bench_root/${entry#*:}" "$tmp/subs/$id/lab3/matmul.cu"
    echo "// student $id" >>"$tmp/subs/$id/lab3/matmul.cu"
    echo "$id ${entry%%:*}" >>"$tmp/kinds.txt"
done

"$cugrade" info >"$tmp/info.log" 2>&1 || bench_fail "cugrade info exited with status $?" "$tmp/info.log"
gpu=0
grep -q '^using: gpu' "$tmp/info.log" && gpu=1

# On a GPU, the kinds that are timed are first graded alone (one `cugrade run`
# each, the reference and cuBLAS timed beside them): the batch's performance
# scores are compared with these.
: >"$tmp/alone.txt"
if [ "$gpu" = 1 ]; then
    for kind in reference tile32 untiled; do
        for k in "${kinds[@]}"; do
            read -r name _ file <<<"$k"
            [ "$name" = "$kind" ] || continue
            rc=0
            "$cugrade" run --lab lab3 --backend native --color never --json "$tmp/alone-$kind.json" \
                "$bench_root/$file" >"$tmp/alone-$kind.log" 2>&1 || rc=$?
            [ "$rc" -eq 0 ] || bench_fail "cugrade run of $kind alone exited with status $rc" "$tmp/alone-$kind.log"
            echo "$kind $tmp/alone-$kind.json" >>"$tmp/alone.txt"
        done
    done
fi
echo "machine: $(nproc) cores; $(grep -m1 '^using:' "$tmp/info.log" || echo "(cugrade info printed no 'using:' line)")"
echo "class: $n submissions: $(cut -d' ' -f2 "$tmp/kinds.txt" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"

# batch_summary LOG: the "batch: ..." summary line of a batch, less its time.
batch_summary() {
    local line
    line=$(grep -m1 '^batch: ' "$1") || return 0
    printf '%s\n' "${line%, *}"
}

# A deadline (BENCH_DEADLINE_S) stops a batch that would outlast the machine's
# time: what finished by then is counted and said, and the bench fails (1).
partial() {
    local finished secs
    finished=$(find "$tmp/out" -mindepth 2 -maxdepth 2 -name results.json | wc -l)
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    awk -v k="$finished" -v n="$n" -v s="$secs" 'BEGIN {
        printf "stopped at the deadline: %d of %d submissions graded in %s s = %.1f a minute (partial)\n",
               k, n, s, (s > 0 ? k * 60 / s : 0) }'
    cpu_line "$cpu0"
    # the finished ones judged as ever: did a correct submission lose points?
    python3 "$bench_root/bench/batch_verdicts.py" "$tmp/out" "$tmp/kinds.txt" "$tmp/alone.txt" --finished ||
        echo "bench/batch.sh: some finished submissions' verdicts are not as expected (above)"
    # the class files of what finished, and (on a GPU) where its time went
    "$cugrade" batch --merge --out "$tmp/out" >"$tmp/merge.log" 2>&1 ||
        bench_fail "cugrade batch --merge exited with status $?" "$tmp/merge.log"
    sed -n '/^gpu:/p' "$tmp/merge.log" # none on the emulator
}
t0=$(date +%s.%N)
m0=$(python3 -c 'import time; print(time.monotonic())') # the GPU queue's clock
cpu0=$(cpu_ticks)
rc=0
if [ -n "${BENCH_DEADLINE_S:-}" ]; then
    timeout -s INT "$BENCH_DEADLINE_S" "$cugrade" batch --lab lab3 --out "$tmp/out" "$@" "$tmp/subs" \
        >"$tmp/first.log" 2>&1 || rc=$?
    if [ "$rc" -eq 124 ]; then
        partial
        bench_fail "the batch did not end within BENCH_DEADLINE_S=$BENCH_DEADLINE_S s" "$tmp/first.log"
    fi
else
    "$cugrade" batch --lab lab3 --out "$tmp/out" "$@" "$tmp/subs" >"$tmp/first.log" 2>&1 || rc=$?
fi
t1=$(date +%s.%N)
cpu=$(cpu_line "$cpu0")
# show_cannot_grade: each submission the batch could not grade (its
# results.json the batch's stand-in) or left NOT GRADED (a grader fault, a
# crash of its cugrade run included: a run.log and no results.json): its
# kind, why, and its run.log's end, so that a failure on a lent machine can
# be read from the bench's output.
show_cannot_grade() {
    local f id dir
    for f in "$tmp"/out/*/results.json; do
        [ -f "$f" ] || continue
        grep -q '"could not grade' "$f" || continue
        id=$(basename "$(dirname "$f")")
        printf '%s: could not grade %s (%s): %s\n' "$bench_self" "$id" \
            "$(awk -v id="$id" '$1 == id { print $2 }' "$tmp/kinds.txt")" \
            "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["extra_data"]["batch_error"])' "$f" 2>&1)" >&2
        tail -n 15 "$(dirname "$f")/run.log" 2>/dev/null | sed 's/^/    | /' >&2
    done
    for f in "$tmp"/out/*/run.log; do
        [ -f "$f" ] || continue
        dir=$(dirname "$f")
        [ -f "$dir/results.json" ] && continue
        id=$(basename "$dir")
        printf '%s: NOT GRADED %s (%s): %s\n' "$bench_self" "$id" \
            "$(awk -v id="$id" '$1 == id { print $2 }' "$tmp/kinds.txt")" \
            "$(grep 'cugrade: cannot grade: ' "$f" | tail -n 1)" >&2
        tail -n 25 "$f" | sed 's/^/    | /' >&2
    done
}
if [ "$rc" -ne 0 ]; then show_cannot_grade; fi
[ "$rc" -eq 0 ] || bench_fail "cugrade batch exited with status $rc (0: every submission got a results.json, \
whatever its score; 2: some got none, or the class files could not be written; 64: bad options)" "$tmp/first.log"
grep -E '^(cugrade batch|batch|class|gpu):' "$tmp/first.log" ||
    bench_fail "cugrade batch printed no summary lines (cugrade batch:, batch:, class:)" "$tmp/first.log"
missing=()
while read -r id _; do
    [ -f "$tmp/out/$id/results.json" ] || missing+=("$id")
done <"$tmp/kinds.txt"
[ ${#missing[@]} -eq 0 ] || bench_fail "$((n - ${#missing[@]})) of $n submissions have a results.json \
(none for ${missing[*]:0:10}${missing[10]:+ ...})" "$tmp/first.log"
want="batch: $n graded, 0 re-scored, 0 could not grade, 0 skipped (unchanged), 0 not written"
got=$(batch_summary "$tmp/first.log")
if [ "$got" != "$want" ]; then
    show_cannot_grade
    bench_fail "the batch's summary is \"${got:-(none)}\", not \"$want\"" "$tmp/first.log"
fi

# the steady rate: the middle 80% of the results written (each results.json is
# renamed into place when its grading ends), without the start, when nothing
# has ended yet, and the last stragglers, whose share shrinks as a class grows;
# the results' times read once, for it and for when the results came
find "$tmp/out" -name results.json -printf '%T@\n' | sort -n >"$tmp/written.txt"
steady=$(awk '{ t[NR] = $1 }
    END { lo = int(NR * 0.1 + 0.999); hi = int(NR * 0.9); if (lo < 1) lo = 1
          if (hi - lo >= 2 && t[hi] > t[lo])
              printf "steady throughput (results %d to %d of %d, %.1f s apart): %.1f submissions/minute\n",
                     lo, hi, NR, t[hi] - t[lo], (hi - lo) * 60 / (t[hi] - t[lo]) }' "$tmp/written.txt")
# when the results came: what the batch's start and end cost against its middle
results_at=$(awk -v a="$t0" '{ t[NR] = $1 - a }
    END { if (NR < 1) exit; lo = int(NR * 0.1 + 0.999); hi = int(NR * 0.9); if (lo < 1) lo = 1; if (hi < 1) hi = 1
          printf "results written, in s after the batch'"'"'s start: #1 %.1f, #%d %.1f, #%d %.1f, #%d %.1f\n",
                 t[1], lo, t[lo], hi, t[hi], NR, t[NR] }' "$tmp/written.txt")

# where each GPU's time went (its queue's log; the --resume run below starts a new one)
gpu_split=""
if compgen -G "$tmp/out/.gpu-queue/gpu*.holds" >/dev/null; then
    gpu_split=$(python3 "$bench_root/bench/gpu_holds_split.py" "$tmp/out/.gpu-queue" "$m0") ||
        bench_fail "bench/gpu_holds_split.py could not read the GPU queue's logs"
fi

rc=0
"$cugrade" batch --lab lab3 --out "$tmp/out" --resume "$@" "$tmp/subs" >"$tmp/resume.log" 2>&1 || rc=$?
t2=$(date +%s.%N)
[ "$rc" -eq 0 ] || bench_fail "cugrade batch --resume exited with status $rc" "$tmp/resume.log"
want="batch: 0 graded, 0 re-scored, 0 could not grade, $n skipped (unchanged), 0 not written"
got=$(batch_summary "$tmp/resume.log")
[ "$got" = "$want" ] ||
    bench_fail "the --resume run's summary is \"${got:-(none)}\", not \"$want\"" "$tmp/resume.log"

# The verdicts (bench/batch_verdicts.py): exit 1 (and a line that says which
# students) when one is not as its kind expects; the mean phase times and
# speed ratios are information.
if ! python3 "$bench_root/bench/batch_verdicts.py" "$tmp/out" "$tmp/kinds.txt" "$tmp/alone.txt"; then
    bench_fail "the verdicts are not as expected (see above; BENCH_KEEP=DIR keeps the results)"
fi

awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    if (!(b - a > 0)) exit 1
    printf "throughput: %d submissions in %.1f s = %.1f submissions/minute\n", n, b - a, n * 60 / (b - a)
    printf "regrade of the unchanged class (--resume): %.2f s (target < 30 s)\n", c - b }' ||
    bench_fail "the batch took no measurable time ($t0 to $t1)"
[ -z "$steady" ] || echo "$steady"
[ -z "$results_at" ] || echo "$results_at"
[ -z "$gpu_split" ] || echo "$gpu_split" | sed 's/^/gpu time: /'
[ -z "$cpu" ] || echo "$cpu"
