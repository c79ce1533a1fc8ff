#!/usr/bin/env bash
# bench/gpu_stability.sh [RUNS] - on a machine with a GPU: grade the reference
# RUNS times (default 5) on the gpu backend and print, per run, the
# performance score and the student kernel's median GFLOP/s at each timing
# shape, then the spread of the score and the coefficient of variation of
# the medians (targets: spread <= 1 point of 10, CV <= 1%).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
out=$(mktemp -d)
for i in $(seq "$runs"); do
    bin/cugrade run --lab lab3 --backend gpu --checks none --color never --json "$out/$i.json" reference >/dev/null
done
python3 - "$out" "$runs" <<'PY'
import json, re, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
scores, speeds = [], {}
for i in range(1, runs + 1):
    d = json.load(open(f"{out}/{i}.json"))
    perf = next(t for t in d["tests"] if t["name"] == "performance")
    scores.append(perf["score"])
    line = []
    for shape, gflops in re.findall(r"^(\d+x\d+x\d+): (\d+) GFLOP/s", perf["output"], re.M):
        speeds.setdefault(shape, []).append(float(gflops))
        line.append(f"{shape} {gflops} GFLOP/s")
    print(f"run {i}: performance {perf['score']:g}/{perf['max_score']:g}; " + "; ".join(line))
print(f"score spread: {max(scores) - min(scores):g} points (target <= 1)")
for shape, v in speeds.items():
    cv = statistics.pstdev(v) / statistics.mean(v) * 100
    print(f"{shape}: mean {statistics.mean(v):.0f} GFLOP/s, CV {cv:.3f}% (target <= 1%)")
PY
rm -rf "$out"
