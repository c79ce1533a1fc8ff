#!/usr/bin/env bash
# bench/gpu_stability.sh [RUNS] - on a machine with a GPU: grade the reference
# RUNS times (default 5) on the native backend and print, per run, the
# performance score and the student kernel's median GFLOP/s at each timing
# shape, then the spread of the score and the coefficient of variation of
# the medians (targets: spread <= 1 point of 10, CV <= 1%).
#
# No number is printed that was not checked (bench/lib.sh has the exit
# statuses: 0 ok, 1 a step failed or a result is wrong, 2 cannot start):
#  - needs bin/cugrade (`make`), python3, nvcc (CUGRADE_NVCC, else PATH or
#    /usr/local/cuda/bin, as cugrade looks for it) and a CUDA device (from
#    `cugrade info`); says which is missing, exit 2; RUNS must be >= 1;
#  - every `cugrade run --backend native` must exit 0 and write its results.json;
#  - in every run the reference must compile and pass every dataset, and its
#    performance test must report a GFLOP/s median for every timing shape,
#    the same shapes in every run; else exit 1 (with the log's tail) and no
#    spread or CV is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=${1:-5}
is_count "$runs" ||
    bench_cannot_start "RUNS must be a whole number >= 1, not '$runs' (usage: bench/gpu_stability.sh [RUNS])"
need_built CUGRADE_BIN "$cugrade" x
need_tool python3 "bench/gpu_stability.sh reads the results with it: install python3"
need_nvcc "the native backend compiles with it: install the CUDA toolkit, or set CUGRADE_NVCC"

out=$(mktemp -d /tmp/cugrade-bench-gpu-XXXXXX)
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$cugrade" info >"$out/info.log" 2>&1 || bench_fail "cugrade info exited with status $?" "$out/info.log"
if grep -Eq '^  gpu +0 CUDA devices' "$out/info.log"; then
    gpu_line=$(grep -m1 -E '^  gpu ' "$out/info.log" | sed 's/^ *//')
    bench_cannot_start "no CUDA device (cugrade info: \"$gpu_line\"): run it on a machine with a GPU"
fi

for i in $(seq "$runs"); do
    run_step "run $i: cugrade run --backend native reference" "$out/$i.log" \
        "$cugrade" run --lab lab3 --backend native --checks none --color never --json "$out/$i.json" reference
    [ -s "$out/$i.json" ] || bench_fail "run $i: cugrade run exited 0 but wrote no results.json" "$out/$i.log"
done

# The checks of every run come first, then the numbers: exit 1 with what is
# wrong (the caller adds the log) before anything is printed.
if ! python3 - "$out" "$runs" >"$out/report.txt" 2>"$out/why.txt" <<'PY'; then
import json, re, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
scores, speeds, lines, shapes_of = [], {}, [], []

def fail(i, why):
    print(f"run {i}: {why}", file=sys.stderr)
    sys.exit(1)

for i in range(1, runs + 1):
    try:
        d = json.load(open(f"{out}/{i}.json"))
        tests = {t["name"]: t for t in d["tests"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(i, f"unreadable results.json: {e}")
    graded = [t for n, t in tests.items() if n == "compiles" or n.startswith("dataset ")]
    if not any(t["name"].startswith("dataset ") for t in graded):
        fail(i, "no dataset was graded")
    wrong = [t["name"] for t in graded if t["status"] != "passed"]
    if wrong:
        fail(i, "the reference did not pass: " + ", ".join(wrong))
    perf = tests.get("performance")
    if perf is None:
        fail(i, "no performance test in the results")
    found = re.findall(r"^(\d+x\d+x\d+): (\d+) GFLOP/s", perf.get("output") or "", re.M)
    if not found:
        fail(i, "the performance test reported no GFLOP/s median: " + (perf.get("output") or "")[:300])
    shapes_of.append([shape for shape, _ in found])
    if shapes_of[-1] != shapes_of[0]:
        fail(i, f"timed the shapes {shapes_of[-1]}, run 1 timed {shapes_of[0]}")
    scores.append(perf["score"])
    for shape, gflops in found:
        speeds.setdefault(shape, []).append(float(gflops))
    lines.append(f"run {i}: performance {perf['score']:g}/{perf['max_score']:g}; " +
                 "; ".join(f"{shape} {gflops} GFLOP/s" for shape, gflops in found))

for line in lines:
    print(line)
print(f"score spread: {max(scores) - min(scores):g} points (target <= 1)")
for shape, v in speeds.items():
    cv = statistics.pstdev(v) / statistics.mean(v) * 100 if statistics.mean(v) > 0 else float("inf")
    print(f"{shape}: mean {statistics.mean(v):.0f} GFLOP/s, CV {cv:.3f}% (target <= 1%)")
PY
    why=$(cat "$out/why.txt")
    run=$(sed -n '1s/^run \([0-9]*\): .*/\1/p' "$out/why.txt")
    bench_fail "${why:-the results check (python3) failed}" "$out/${run:-1}.log"
fi
cat "$out/report.txt"
