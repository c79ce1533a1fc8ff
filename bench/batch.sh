#!/usr/bin/env bash
# batch.sh - benchmark of `cugrade batch` on a synthetic class: N submissions
# (default 100) mixing the reference, a tile-32 solution, an integer-division
# grid, a missing barrier, unguarded loads, a compile error, a host crash and
# an endless kernel, each with a unique comment (so none is graded as a copy
# of another), graded with the shipped rubric and datasets on the default
# backend (auto: the GPU when there is one). Prints submissions per minute,
# checks every student's verdict against its kind, then times an unchanged
# --resume.
# Usage: bench/batch.sh [N] [extra cugrade batch options...]
# (from the repository root, after `make all`; needs python3 for the checks).
# BENCH_KEEP=DIR keeps the results folder (class.html, every results.json).
set -euo pipefail
n=${1:-100}
shift || true
tmp=$(mktemp -d /tmp/cugrade-bench-batch-XXXXXX)
keep() { if [ -n "${BENCH_KEEP:-}" ]; then rm -rf "$BENCH_KEEP"; cp -r "$tmp/out" "$BENCH_KEEP"; fi; rm -rf "$tmp"; }
trap keep EXIT INT TERM

# kind  weight  file
kinds=(
    "reference 30 reference/lab3/matmul.cu"
    "tile32 10 tests/submissions/lab3/tile32.cu"
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
    cp "${entry#*:}" "$tmp/subs/$id/lab3/matmul.cu"
    echo "// student $id" >>"$tmp/subs/$id/lab3/matmul.cu"
    echo "$id ${entry%%:*}" >>"$tmp/kinds.txt"
done

echo "machine: $(nproc) cores; $(bin/cugrade info 2>/dev/null | grep -m1 '^using:' || true)"
echo "class: $n submissions: $(cut -d' ' -f2 "$tmp/kinds.txt" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')"
t0=$(date +%s.%N)
bin/cugrade batch --lab lab3 --out "$tmp/out" "$@" "$tmp/subs" >"$tmp/first.log" 2>&1 || true
t1=$(date +%s.%N)
bin/cugrade batch --lab lab3 --out "$tmp/out" --resume "$@" "$tmp/subs" >"$tmp/resume.log" 2>&1 || true
t2=$(date +%s.%N)
grep -E '^(cugrade batch|batch|class):' "$tmp/first.log" || true
awk -v n="$n" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    printf "throughput: %d submissions in %.1f s = %.1f submissions/minute\n", n, b - a, n * 60 / (b - a)
    printf "regrade of the unchanged class (--resume): %.2f s (target < 30 s)\n", c - b }'

python3 - "$tmp/out" "$tmp/kinds.txt" <<'PY'
import json, sys, collections
out, kinds = sys.argv[1], sys.argv[2]

def tests(r):
    return {t["name"]: t for t in r["tests"]}

def status(r, name):
    t = tests(r).get(name)
    return t and t["status"]

def datasets(r):
    return [t for n, t in tests(r).items() if n.startswith("dataset ")]

def all_pass(r):
    return all(t["status"] == "passed" for t in datasets(r))

def some_fail(r):
    d = datasets(r)
    return any(t["status"] != "passed" for t in d) and any(t["status"] == "passed" for t in d)

def any_output(r, text):
    return any(text in (t.get("output") or "") for t in datasets(r))

expect = {
    "reference": lambda r: all_pass(r) and status(r, "race-free") == "passed",
    "tile32": lambda r: all_pass(r),
    "intdiv_grid": lambda r: some_fail(r) and any_output(r, "never written"),
    "missing_barrier": lambda r: status(r, "race-free") == "failed",
    "unguarded_loads": lambda r: status(r, "memory-safe") == "failed",
    "compile_error": lambda r: status(r, "compiles") == "failed",
    "host_segfault": lambda r: any_output(r, "killed by signal"),
    "endless_kernel": lambda r: any_output(r, "exceeded the time limit"),
}
rows = collections.defaultdict(lambda: [0, 0, 0.0])
bad = []
for line in open(kinds):
    sid, kind = line.split()
    try:
        r = json.load(open(f"{out}/{sid}/results.json"))
        ok = expect[kind](r)
        score = r["score"]
    except Exception as e:
        ok, score = False, 0
    row = rows[kind]
    row[0] += 1
    row[1] += ok
    row[2] += score
    if not ok:
        bad.append(f"{sid} ({kind})")
print(f"{'kind':<17} {'n':>3} {'verdict ok':>10} {'mean score':>10}")
for kind, (count, ok, total) in sorted(rows.items()):
    print(f"{kind:<17} {count:>3} {ok:>10} {total / count:>10.1f}")
print("verdicts: all as expected" if not bad else "verdicts NOT as expected: " + ", ".join(bad))

# where the time goes, and the spread of the timed speed ratio (GPU only)
phases = collections.defaultdict(list)
ratios = collections.defaultdict(list)
for line in open(kinds):
    sid, kind = line.split()
    try:
        extra = json.load(open(f"{out}/{sid}/results.json")).get("extra_data", {})
    except Exception:
        continue
    for part in (extra.get("phase_times") or "").split(", "):
        if part:
            name, secs, _ = part.split(" ")
            phases[name].append(float(secs))
    if extra.get("perf_ratio"):
        ratios[kind].append(extra["perf_ratio"])
if phases:
    print("mean seconds per submission: " + ", ".join(
        f"{n} {sum(v) / len(v):.1f}" for n, v in phases.items()))
for kind, v in sorted(ratios.items()):
    print(f"speed ratio to the reference, {kind}: n={len(v)} min {min(v):.3f} max {max(v):.3f} "
          f"spread {max(v) - min(v):.3f}")
sys.exit(1 if bad else 0)
PY
