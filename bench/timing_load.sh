#!/usr/bin/env bash
# bench/timing_load.sh [RUNS] - on a machine with a GPU: what a busy host does
# to a kernel's timing, with and without the timing program's launch gate
# (labs/common/timing.h: a timed rep's clock starts only once its launch is
# queued). A batch times each submission while its other workers build and
# check on every core; an event-timed launch also counts the launching
# thread's lost turns on the CPU.
#
# Two lab 3 kernels: the untiled one (tests/submissions/lab3/untiled.cu, a
# launch function that returns at once: gated) and the course-style one
# (tests/submissions/lab3/course_style.cu, whose launch function ends in
# cudaDeviceSynchronize: the gate must find it and time it without). Each
# timing program comes from the grader's own build (`cugrade run --keep
# --dataset-runs separate`), then runs RUNS times (default 5) per case
# (--impl student, the rubric's first shape and 1024x1024x1024): gate on and
# off, on an idle host ("idle"), with 2 spinning processes a core ("busy"),
# and with 8 processes at a time starting and ending CUDA contexts on the
# same GPU (bench/gpu_starts.cu, "starts": what a batch's other programs do
# outside the timing queue). It prints, per kernel, shape and case, the
# middle of the RUNS medians and of the RUNS first quartiles (the scored
# time), each with its range, the slowest rep of all, and each loaded host's
# against the idle one's.
#
# No number is printed that was not checked (bench/lib.sh has the exit
# statuses): every grade and every timing run must exit 0; every timed
# output must be right (wrong 0); and each kernel must be gated as said
# above ("gated 1" for the untiled one with the gate on, "gated 0" for the
# course-style one, "gated 0" for both with --gate off); else exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh
runs=${1:-5}
is_count "$runs" ||
    bench_cannot_start "RUNS must be a whole number >= 1, not '$runs' (usage: bench/timing_load.sh [RUNS])"
need_built CUGRADE_BIN "$cugrade" x
need_tool python3 "bench/timing_load.sh reads the timings with it: install python3"
need_nvcc "bench/timing_load.sh compiles bench/gpu_starts.cu with it"

tmp=$(mktemp -d /tmp/cugrade-bench-timing-XXXXXX)
spinners=()
# stop_load: ends the load's processes. Cleanup only (the EXIT trap, and after
# a load's cases, once load_alive found every process still running): kill
# fails for one that already ended (on an early exit), no step's failure and
# no figure's, so it may.
stop_load() {
    [ ${#spinners[@]} -eq 0 ] || kill "${spinners[@]}" 2>/dev/null || true
    spinners=()
}
trap 'stop_load; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

run_step "nvcc bench/gpu_starts.cu" "$tmp/nvcc.log" \
    "$nvcc" -O2 -arch="${CUGRADE_NVARCH:-sm_90}" -o "$tmp/gpu_starts" bench/gpu_starts.cu

shape=$(python3 -c 'import json; print(json.load(open("rubric.json"))["labs"]["lab3"]["performance"]["shapes"][0])')
kernels=("untiled tests/submissions/lab3/untiled.cu 1" "course_style tests/submissions/lab3/course_style.cu 0")

# The timing program of each kernel, from the grader's build.
for k in "${kernels[@]}"; do
    read -r name file _ <<<"$k"
    run_step "cugrade run of $file" "$tmp/$name.grade.log" \
        "$cugrade" run --lab lab3 --backend native --checks none --dataset-runs separate --keep \
        --color never --json "$tmp/$name.json" "$file"
    dir=$(sed -n 's/^ *build and run files kept in //p' "$tmp/$name.grade.log" | tail -1)
    [ -n "$dir" ] && [ -x "$dir/timing" ] ||
        bench_fail "cugrade run --keep of $file left no timing program" "$tmp/$name.grade.log"
    mv "$dir/timing" "$tmp/$name.timing"
    rm -rf "$dir"
done

# start_load busy|starts: the load of a busy host, until stop_load.
start_load() {
    local i
    if [ "$1" = busy ]; then
        for ((i = 0; i < 2 * $(nproc); i++)); do
            (while :; do :; done) &
            spinners+=($!)
        done
    else
        for ((i = 0; i < 8; i++)); do
            (while "$tmp/gpu_starts"; do :; done) &
            spinners+=($!)
        done
    fi
    sleep 1
}

# load_alive: every loop of the load still runs (a gpu_starts that failed
# ended its loop: the case would have been measured without its load).
load_alive() {
    local p
    for p in "${spinners[@]}"; do
        kill -0 "$p" 2>/dev/null || bench_fail "a process of the load ended: bench/gpu_starts failed?"
    done
}

# time_case KERNEL GATE HOST: RUNS timing runs into $tmp/KERNEL.GATE.HOST.N
time_case() {
    local name=$1 gate=$2 host=$3 r
    for ((r = 1; r <= runs; r++)); do
        run_step "the timing of $name (gate $gate, $host host, run $r)" "$tmp/$name.$gate.$host.$r" \
            "$tmp/$name.timing" --impl student --shape "$shape" --shape 1024x1024x1024 --gate "$gate"
    done
}

for host in idle busy starts; do
    [ "$host" = idle ] || start_load "$host"
    for k in "${kernels[@]}"; do
        read -r name _ _ <<<"$k"
        for gate in on off; do
            time_case "$name" "$gate" "$host"
        done
    done
    load_alive
    stop_load
done

echo "timing on a loaded host: $(nproc) cores; busy = $((2 * $(nproc))) spinning processes, starts = 8 processes at a time making and ending CUDA contexts; $runs runs a case"
python3 - "$tmp" "$runs" "${kernels[@]}" <<'PY' || exit 1
import os, statistics, sys

tmp, runs, kernels = sys.argv[1], int(sys.argv[2]), [k.split() for k in sys.argv[3:]]
hosts = ("idle", "busy", "starts")
bad, rows = [], {}
for name, _, gated_on in kernels:
    for gate in ("on", "off"):
        for host in hosts:
            for r in range(1, runs + 1):
                path = os.path.join(tmp, f"{name}.{gate}.{host}.{r}")
                shape = None
                for line in open(path):
                    f = line.split()
                    if f[:1] == ["shape"]:
                        shape = f[1]
                    if f[:2] != ["impl", "student"]:
                        continue
                    kv = dict(zip(f[2::2], f[3::2]))
                    want = gated_on if gate == "on" else "0"
                    if kv.get("wrong") != "0":
                        bad.append(f"{path}: wrong {kv.get('wrong')}")
                    if kv.get("gated") != want:
                        bad.append(f"{path}: gated {kv.get('gated')}, expected {want}")
                    cell = rows.setdefault((name, shape, gate), {}).setdefault(host, [[], [], []])
                    for k, key in enumerate(("median_ms", "q1_ms", "max_ms")):
                        cell[k].append(float(kv[key]))
for key, by in rows.items():
    if set(by) != set(hosts) or any(len(v[0]) != runs for v in by.values()):
        bad.append(f"{' '.join(key)}: missing runs")
if bad:
    print("bench/timing_load.sh: FAILED:\n  " + "\n  ".join(bad), file=sys.stderr)
    sys.exit(1)

def mid(v):
    return f"{statistics.median(v):.4f} ({min(v):.4f}-{max(v):.4f})"

print(f"{'kernel':<13} {'shape':<15} {'gate':<4} {'host':<6} {'median ms (range)':<26} "
      f"{'q1 ms (range)':<26} {'slowest':<9} median/idle q1/idle")
for (name, shape, gate), by in rows.items():
    idle = [statistics.median(by["idle"][k]) for k in (0, 1)]
    for h in hosts:
        med, q1, top = by[h]
        print(f"{name:<13} {shape:<15} {gate:<4} {h:<6} {mid(med):<26} {mid(q1):<26} "
              f"{max(top):<9.4f} {statistics.median(med) / idle[0]:.3f}       "
              f"{statistics.median(q1) / idle[1]:.3f}")
PY
