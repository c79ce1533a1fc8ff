#!/usr/bin/env bash
# bench/gpu_labs.sh - on a GPU machine: grade a lab's reference, its stub and
# every submission of tests/submissions/<lab>/ on the native backend (checks and
# the performance test included), keep each results.json and terminal report
# in OUT, and print a table: score, datasets passed, the failure keys of the
# failing datasets, the checks that failed, and the performance test's line.
# Exits 1 when a grade does not run to the end (an exit status other than 0).
# Usage (from the repository root, after `make all`):
#   bench/gpu_labs.sh LAB OUT        e.g. bench/gpu_labs.sh dotprod $OUT/dotprod
#   bench/gpu_labs.sh [LAB]          each array lab's (or LAB's) reference against its
#                                    library baseline, one table (bench/gpu_labs/baselines.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -le 1 ] && exec bench/gpu_labs/baselines.sh "$@"
[ $# -eq 2 ] || { echo "usage: $0 LAB OUT, or $0 [LAB] (the array labs' baselines)" >&2; exit 2; }
lab=$1 out=$2
[ -x bin/cugrade ] || { echo "gpu_labs: bin/cugrade is missing: run make first" >&2; exit 1; }
mkdir -p "$out" || exit 1

summary() { # results.json -> "score passed/total | failures | failed checks | perf"
    python3 - "$1" <<'PY'
import json, sys, collections
r = json.load(open(sys.argv[1]))
x = r.get("extra_data", {})
fails = collections.Counter()
checks, perf = [], ""
for t in r["tests"]:
    name, ok = t["name"], t.get("status") == "passed"
    f = t.get("extra_data", {}).get("failure")
    if name.startswith("dataset") and not ok and f:
        fails[f] += 1
    elif name in ("race-free", "barriers-uniform", "memory-safe", "uses-shared-memory",
                  "traffic-reduced") and not ok:
        checks.append(name)
    elif name == "performance":
        perf = "%g/%g %s" % (t.get("score", 0), t.get("max_score", 0),
                             t.get("output", "").splitlines()[0][:70] if t.get("output") else "")
print("%g | %s/%s | %s | %s | %s" % (r["score"], x.get("datasets_passed"), x.get("datasets_total"),
      ", ".join("%s x%d" % kv for kv in sorted(fails.items())) or "-",
      ", ".join(checks) or "-", perf))
PY
}

bad=0
subs=(reference student tests/submissions/"$lab"/*.cu)
printf "%-20s %6s  %s\n" submission ms "score | datasets | failures | checks failed | performance"
for sub in "${subs[@]}"; do
    name=$(basename "$sub" .cu)
    t0=$(date +%s%N)
    rc=0
    bin/cugrade run --lab "$lab" --backend native --color never --json "$out/$name.json" "$sub" \
        >"$out/$name.txt" 2>&1 || rc=$?
    wall=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ "$rc" -ne 0 ] || [ ! -f "$out/$name.json" ]; then
        printf "%-20s %6d  grading exited %d\n" "$name" "$wall" "$rc"
        tail -n 15 "$out/$name.txt" >&2
        bad=1
        continue
    fi
    if command -v python3 >/dev/null; then
        printf "%-20s %6d  %s\n" "$name" "$wall" "$(summary "$out/$name.json")"
    else
        printf "%-20s %6d  %s\n" "$name" "$wall" "$(grep -o 'Score: .*' "$out/$name.txt")"
    fi
done
exit $bad
