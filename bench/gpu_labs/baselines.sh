#!/usr/bin/env bash
# bench/gpu_labs/baselines.sh [LAB...] - on a machine with a CUDA GPU (run
# as `bench/gpu_labs.sh` with no arguments): each array lab's reference
# against its library baseline (lab.json "array.baseline": CUB, cuSPARSE,
# cuDNN, CCCL), on its rubric's timing shape, in one table. For each lab:
# its generator makes the shape's dataset (inputs and the exact output),
# `cugrade info --call-header` gives its launch function's call, and
# library_timer.cu (built with the reference and the baseline under renamed
# launch functions) checks both outputs against the dataset and times each
# 20 times (CUDA events, L2 flushed, median; GB/s of the compulsory
# traffic, every array once).
# BENCH_BUILD_ONLY=1: build everything and run nothing (no GPU needed:
# tools/gpu_build_check.sh, `make gpu-build`).
# Exit statuses (bench/lib.sh): 0 every lab built, ran and was right; 1 a
# build, a run or an output failed (the message says which); 2 nvcc, the
# GPU, bin/cugrade or a baseline's library is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=bench/lib.sh
. bench/lib.sh

need_nvcc "install the CUDA toolkit, or set CUGRADE_NVCC"
build_only=${BENCH_BUILD_ONLY:-0}
if [ "$build_only" != 1 ]; then
    need_tool nvidia-smi "run it on a machine with an NVIDIA GPU and its driver"
    nvidia-smi -L >/dev/null 2>&1 || bench_cannot_start "nvidia-smi sees no GPU: run it on a machine with a CUDA device"
fi
need_built CUGRADE_BIN bin/cugrade x
need_tool python3 "the lab.json and rubric.json fields are read with python3"
arch=${CUGRADE_NVARCH:-sm_90}
reps=${BENCH_REPS:-20}
out=build/gpu-labs-bench
mkdir -p "$out"

# lab_field LAB EXPR: EXPR of lab.json's "array" block (a), the lab's
# performance rule (p) and the timing shape's params (v)
lab_field() {
    python3 - "$1" "$2" <<'PY'
import json, sys
lab, expr = sys.argv[1], sys.argv[2]
a = json.load(open("labs/%s/lab.json" % lab))["array"]
p = json.load(open("rubric.json"))["labs"][lab]["performance"]
v = dict(zip(a["params"], map(int, p["shapes"][0].split("x"))))
t = a["tolerance"]
print(eval(expr, {"a": a, "p": p, "v": v, "t": t}))
PY
}

# has_library FILE: the loader's cache or the CUDA toolkit's lib folders have it
has_library() {
    local cache toolkit
    cache=$(ldconfig -p 2>/dev/null || true)
    [[ $cache == *"$1"* ]] && return 0
    toolkit=$(dirname "$(dirname "$(command -v "$nvcc")")")
    compgen -G "$toolkit/lib*/$1*" >/dev/null
}

labs=("$@")
if [ ${#labs[@]} -eq 0 ]; then
    for f in labs/*/lab.json; do
        l=$(basename "$(dirname "$f")")
        grep -q '"baseline"' "$f" && [ -f "labs/$l/baseline.cu" ] && labs+=("$l")
    done
fi
[ ${#labs[@]} -gt 0 ] || bench_cannot_start "no array lab declares a baseline"

rows=()
for lab in "${labs[@]}"; do
    dir=$out/$lab
    mkdir -p "$dir"
    shape=$(lab_field "$lab" "p['shapes'][0]")
    launch=$(lab_field "$lab" "a['signature'].split('(')[0].split()[-1]")
    file=$(python3 -c "import json; print(json.load(open('labs/$lab/lab.json'))['student_file'])")
    name=$(lab_field "$lab" "a['baseline']['name']")
    link=$(lab_field "$lab" "' '.join(a['baseline'].get('link', []))")
    # each within the tolerance of the exact output (a bound that grows with a param grows here too)
    rtol=$(lab_field "$lab" "0 if t == 'exact' else t['rtol']")
    atol=$(lab_field "$lab" "0 if t == 'exact' else t['atol'] * (v[t['grows_with']] if 'grows_with' in t else 1)")
    for l in $link; do
        has_library "lib${l#-l}.so" ||
            bench_cannot_start "$lab: its baseline ($name) needs lib${l#-l}.so, which this machine does not have"
    done
    run_step "$lab: building its generator" "$dir/gen.log" cc -O2 -Ilabs/common "labs/$lab/gen.c" -o "$dir/gen" -lm
    if [ "$build_only" != 1 ] && [ ! -f "$dir/data-$shape/output.raw" ]; then
        rm -rf "$dir/data-$shape" && mkdir -p "$dir/data-$shape"
        run_step "$lab: making the $shape dataset" "$dir/gen-run.log" \
            "$dir/gen" --shape "$shape" --seed 1 --values course --out "$dir/data-$shape"
    fi
    run_step "$lab: its call header" "$dir/header.log" sh -c "bin/cugrade info --lab $lab --call-header > $dir/call.h"
    common=(-O3 "-arch=$arch" -lineinfo -Ilabs/common -Ilabs/kinds/array)
    run_step "$lab: the reference" "$dir/ref.log" "$nvcc" "${common[@]}" -c "-D$launch=bench_ref_$launch" \
        "reference/$lab/$file" -o "$dir/ref.o"
    run_step "$lab: the baseline" "$dir/lib.log" "$nvcc" "${common[@]}" -c "-D$launch=bench_lib_$launch" \
        "labs/$lab/baseline.cu" -o "$dir/lib.o"
    run_step "$lab: the reference's call" "$dir/shim-ref.log" "$nvcc" "${common[@]}" -c -include "$dir/call.h" \
        "-D$launch=bench_ref_$launch" -DBENCH_CALL=bench_call_reference labs/kinds/array/library_call.cu -o "$dir/shim-ref.o"
    run_step "$lab: the baseline's call" "$dir/shim-lib.log" "$nvcc" "${common[@]}" -c -include "$dir/call.h" \
        "-D$launch=bench_lib_$launch" -DBENCH_CALL=bench_call_library labs/kinds/array/library_call.cu -o "$dir/shim-lib.o"
    # shellcheck disable=SC2086 # the link flags are words
    run_step "$lab: the bench" "$dir/bench.log" "$nvcc" "${common[@]}" -include "$dir/call.h" \
        labs/kinds/array/library_timer.cu "$dir/ref.o" "$dir/lib.o" "$dir/shim-ref.o" "$dir/shim-lib.o" $link \
        -o "$dir/bench"
    if [ "$build_only" = 1 ]; then
        echo "$lab: built $dir/bench (the reference and $name)"
        continue
    fi
    run_step "$lab: timing at $shape" "$dir/run.log" "$dir/bench" "$dir/data-$shape" "$reps" "$rtol" "$atol"
    rows+=("$(python3 - "$dir/run.log" "$lab" "$shape" "$name" <<'PY'
import json, sys
r = {}
for line in open(sys.argv[1]):
    if line.startswith("{"):
        o = json.loads(line)
        r[o["impl"]] = o
ref, lib = r["reference"], r["library"]
print("%-12s %-28s %9.4f %7.0f   %-38s %9.4f %7.0f  %6.2f" % (sys.argv[2], sys.argv[3], ref["median_ms"], ref["gbs"],
      sys.argv[4], lib["median_ms"], lib["gbs"], lib["median_ms"] / ref["median_ms"]))
PY
)")
done
[ "$build_only" = 1 ] && exit 0
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
printf '%s, %s, median of %d (CUDA events, L2 flushed), GB/s of every array read or written once\n' "$gpu" "$arch" "$reps"
printf "%-12s %-28s %9s %7s   %-38s %9s %7s  %6s\n" lab shape "ref ms" "GB/s" "library baseline" "ms" "GB/s" "ref/lib speed"
printf '%s\n' "${rows[@]}"
