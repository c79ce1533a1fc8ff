#!/usr/bin/env bash
# tests/gpu/replay.sh - the GPU's trusted runner against the executor (make
# gpu-test; a CUDA device and nvcc). Each program is compiled once (nvcc -c
# --keep: the object, the PTX the executor runs, the cubin the GPU runs);
# bin/cugrade-vgpu judges it with --trace on datasets of the project's own
# generator; bin/cugrade-replay does each record again on the GPU from the
# cubin alone, with no student host code, and times it. Checked: the GPU's
# output matches the expected one (1e-3 relative, as lab 3's tolerance)
# for the references of lab 3, the dot product and the libwb lab 3; the
# attack tests/attacks/detects_executor.cu, right on the executor, is
# caught by the GPU's output; the timing file holds positive times. Then a
# timing shape recorded without running (--dry) is timed against the
# reference's record and cuBLAS's SGEMM: the naive kernel's and the attack's speed, the
# attack's wrong outputs. Prints a table: program, dataset, the GPU's
# verdict, its median kernel time.
# Exit 1 when a check fails, 2 when a build or a run cannot be made.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp -d /tmp/cugrade-gpu-replay-XXXXXX)
nvcc=${NVCC:-nvcc}
arch=${CUGRADE_NVARCH:-sm_90}
failures=0
fail() { echo "GRADER FAULT: $*"; exit 2; }
make -s bin/cugrade bin/cugrade-vgpu bin/cugrade-replay build/libcugrade_vcudart.a || fail "make"

# compile NAME SRC: one nvcc -c --keep of SRC into $out/NAME (student.o, *.ptx, *.sm_XX.cubin)
compile() {
    mkdir -p "$out/$1/keep"
    "$nvcc" -c --keep --keep-dir "$out/$1/keep" -lineinfo -arch="$arch" -Ilabs/common -o "$out/$1/student.o" "$2" \
        > "$out/$1/nvcc.log" 2>&1 || { cat "$out/$1/nvcc.log"; fail "nvcc $2"; }
}
ptx_of() { ls "$out/$1"/keep/*.ptx; }
cubin_of() { ls "$out/$1"/keep/*."${arch}".cubin; }

# link NAME MAIN FLAGS...: student.o with MAIN (the kind's vgpu_main.cu or wb_io.cu) and the vgpu runtime
link() {
    local name=$1 main=$2; shift 2
    "$nvcc" -c -arch="$arch" -Ilabs/common "$@" "$main" -o "$out/$name/main.o" || fail "nvcc $main"
    g++ "$out/$name/student.o" "$out/$name/main.o" build/libcugrade_vcudart.a -lpthread -o "$out/$name/program" ||
        fail "link $name"
}

# dataset LAB SHAPE: a dataset of the project's generator in $out/ds/LAB-SHAPE
dataset() {
    local d="$out/ds/$1-$2"
    [ -d "$d" ] || bin/cugrade dataset --lab "$1" --shape "$2" --out "$d" > /dev/null || fail "dataset $1 $2"
    echo "$d"
}

# close GOT WANT [ANY]: whether GOT matches WANT (.raw files; the dot product's partial sums
# with ANY: their sum against the one value)
close() { python3 - "$@" <<'PY'
import sys
def num(x):  # the poison is written "-nan(0x7fffff)", which float() does not read
    return float("nan") if "nan" in x.lower() else float(x)
def read(p):  # libwb .raw: "rows cols" then the values, or a vector's "n"
    w = open(p).read().split()
    if len(w) >= 2 and w[1].isdigit() and int(w[0]) * int(w[1]) == len(w) - 2:
        return [num(x) for x in w[2:]]
    return [num(x) for x in w[1:]]
got, want = read(sys.argv[1]), read(sys.argv[2])
if len(sys.argv) > 3:
    got = [sum(got)]
ok = len(got) == len(want) and all(abs(g - e) <= 1e-3 * (1 + abs(e)) for g, e in zip(got, want))
print("True" if ok else "False")
PY
}

report() { # PROGRAM DATASET VERDICT TIMING-FILE
    local ms="-"
    [ -f "$4" ] && ms=$(python3 -c "import json;print('%.4f' % json.load(open('$4'))['impls'][0]['median_ms'])")
    printf '%-22s %-22s %-30s %s\n' "$1" "$2" "$3" "$ms"
}

# judge NAME LAB CALL-FLAGS EXPECT SHAPE...: the executor with --trace, then the replay of each
# record on the GPU; EXPECT "right" (the GPU's output must match) or "caught" (must not)
judge() {
    local name=$1 lab=$2 call=$3 expect=$4; shift 4
    local datasets=() shape
    for shape in "$@"; do
        local d; d=$(dataset "$lab" "$shape")
        datasets+=(--dataset "$d:$out/$name/$shape.raw")
    done
    # shellcheck disable=SC2086 # call is the flags' words
    bin/cugrade-vgpu --trace $call "${datasets[@]}" --report "$out/$name/report.json" "$(ptx_of "$name")" \
        -- "$out/$name/program" > "$out/$name/vgpu.log" 2>&1 || { tail "$out/$name/vgpu.log"; fail "executor $name"; }
    for shape in "$@"; do
        local d="$out/ds/$lab-$shape" got="$out/$name/$shape.raw" any=""
        [ "$lab" = dotprod ] && any=sum
        [ -f "$got.trace" ] || { echo "FAIL  $name $shape: no record"; failures=$((failures + 1)); continue; }
        [ "$(close "$got" "$d/output.raw" $any)" = True ] || { echo "FAIL  $name $shape: the executor's output";
                                                               failures=$((failures + 1)); }
        bin/cugrade-replay --inputs "$d" --repeat 10 --timing "$out/$name/$shape.json" "$(cubin_of "$name")" \
            "$got.trace" "$out/$name/$shape.gpu.raw" > "$out/$name/$shape.replay.log" 2>&1
        local rc=$?
        [ $rc -ge 2 ] && { cat "$out/$name/$shape.replay.log"; fail "cugrade-replay $name $shape"; }
        local right=False
        [ $rc -eq 0 ] && right=$(close "$out/$name/$shape.gpu.raw" "$d/output.raw" $any)
        if { [ "$expect" = right ] && [ "$right" = True ]; } || { [ "$expect" = caught ] && [ "$right" = False ]; }; then
            report "$name" "$shape" "ok ($expect on the GPU)" "$out/$name/$shape.json"
        else
            report "$name" "$shape" "FAIL (not $expect on the GPU)" "$out/$name/$shape.json"
            failures=$((failures + 1))
        fi
    done
}

printf '%-22s %-22s %-30s %s\n' program dataset verdict "GPU kernel ms (median of 10)"
compile lab3 reference/lab3/matmul.cu
link lab3 labs/kinds/matmul/vgpu_main.cu -Ilabs/kinds/matmul -DCUGRADE_LAUNCH=launchMatrixMultiplyShared
judge lab3 lab3 "--call in0,in1,out,rows0,cols0,cols1 --out-shape rows0,cols1" right 37x29x41 1x200x3 256x256x256
compile detects_executor tests/attacks/detects_executor.cu
link detects_executor labs/kinds/matmul/vgpu_main.cu -Ilabs/kinds/matmul -DCUGRADE_LAUNCH=launchMatrixMultiplyShared
judge detects_executor lab3 "--call in0,in1,out,rows0,cols0,cols1 --out-shape rows0,cols1" caught 37x29x41 256x256x256
compile dotprod reference/dotprod/dotprod.cu
link dotprod labs/kinds/reduction/vgpu_main.cu -DCUGRADE_LAUNCH=launchDotProduct
judge dotprod dotprod "--call in0,in1,out,n0 --out-shape 1,n0 --out-count returned" right 1000 70001 1048577

# the libwb program: its record's output is the copy back that wbSolution came from
compile lab3wb reference/lab3-wb/template.cu
link lab3wb labs/common/wb_io.cu -DCUGRADE_VGPU
d=$(dataset lab3 100x120x90)
bin/cugrade-vgpu --trace --solution "$out/lab3wb/solution.raw" --report "$out/lab3wb/report.json" \
    "$(ptx_of lab3wb)" -- "$out/lab3wb/program" -e "$d/output.raw" -i "$d/input0.raw,$d/input1.raw" \
    -o "$out/lab3wb/wrote.raw" -t matrix > "$out/lab3wb/vgpu.log" 2>&1 || fail "executor lab3wb"
bin/cugrade-replay --repeat 10 --timing "$out/lab3wb/t.json" "$(cubin_of lab3wb)" "$out/lab3wb/solution.raw.trace" \
    "$out/lab3wb/gpu.raw" > "$out/lab3wb/replay.log" 2>&1 || { cat "$out/lab3wb/replay.log"; fail "replay lab3wb"; }
if [ "$(close "$out/lab3wb/gpu.raw" "$d/output.raw")" = True ]; then
    report lab3wb 100x120x90 "ok (right on the GPU)" "$out/lab3wb/t.json"
else
    report lab3wb 100x120x90 "FAIL (not right on the GPU)" "$out/lab3wb/t.json"; failures=$((failures + 1))
fi

# timing: the executor records a timing shape's launches without running them (--dry); the runner
# times the submission's record against the reference's and cuBLAS's SGEMM (--cublas), interleaved,
# every output checked
timing_shape=${REPLAY_TIMING_SHAPE:-1024x1024x1024}
d=$(dataset lab3 "$timing_shape")
compile naive reference/lab3/matmul_naive.cu
link naive labs/kinds/matmul/vgpu_main.cu -Ilabs/kinds/matmul -DCUGRADE_LAUNCH=launchMatrixMultiplyShared
for name in lab3 naive detects_executor; do
    bin/cugrade-vgpu --dry --trace --call in0,in1,out,rows0,cols0,cols1 --out-shape rows0,cols1 \
        --dataset "$d:$out/$name/timing.bin" --report "$out/$name/dry.json" "$(ptx_of "$name")" \
        -- "$out/$name/program" > "$out/$name/dry.log" 2>&1 || fail "the executor's dry run of $name"
done
for name in lab3 naive detects_executor; do
    bin/cugrade-replay --inputs "$d" --repeat 20 --timing "$out/$name/timing.json" \
        --reference "$(cubin_of lab3)" "$out/lab3/timing.bin.trace" --rtol 1e-4 --atol 1e-3 --cublas \
        "$(cubin_of "$name")" "$out/$name/timing.bin.trace" "$out/$name/timing.gpu.bin" \
        > "$out/$name/timing.log" 2>&1 || { cat "$out/$name/timing.log"; fail "timing $name"; }
    line=$(python3 - "$out/$name/timing.json" "$timing_shape" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s, ref, cb = r["impls"][0], r["impls"][1], r["impls"][2]
m, k, n = (int(x) for x in sys.argv[2].split("x"))
gflops = 2.0 * m * n * k / (s["q1_ms"] * 1e6)
print("%.3f ms (%.0f GFLOP/s; reference %.3f ms, %.2fx; cuBLAS %.3f ms, %.2fx) wrong %d in %d of %d replays, rse %.3f"
      % (s["median_ms"], gflops, ref["median_ms"], ref["median_ms"] / s["median_ms"], cb["median_ms"],
         cb["median_ms"] / s["median_ms"], s["wrong"], s["wrong_reps"], s["reps"] + 1, s["rse"]))
PY
)
    wrong=$(python3 -c "import json;print(json.load(open('$out/$name/timing.json'))['impls'][0]['wrong'])")
    expect_wrong=0
    [ "$name" = detects_executor ] && expect_wrong=1
    if { [ "$expect_wrong" = 0 ] && [ "$wrong" = 0 ]; } || { [ "$expect_wrong" = 1 ] && [ "$wrong" != 0 ]; }; then
        printf '%-22s %-22s %-30s %s\n' "timing $name" "$timing_shape" "ok" "$line"
    else
        printf '%-22s %-22s %-30s %s\n' "timing $name" "$timing_shape" "FAIL (wrong $wrong)" "$line"
        failures=$((failures + 1))
    fi
done

# the grader itself: vgpu on a machine with a GPU replays every dataset there (run/runs_replay.h)
for sub in reference/lab3/matmul.cu tests/attacks/detects_executor.cu; do
    name=$(basename "$sub" .cu)
    bin/cugrade run --lab lab3 --backend gpu --color never --json "$out/$name.json" "$sub" > "$out/$name.log" 2>&1 ||
        { tail -5 "$out/$name.log"; fail "cugrade run --backend gpu $sub"; }
done
scores=$(python3 -c "import json
h, a = (json.load(open('$out/%s.json' % n)) for n in ('matmul', 'detects_executor'))
print(h['score'], sum(t['max_score'] for t in h['tests']), a['score'])")
read -r honest full attack <<< "$scores"
gpu_failed=$(grep -c "FAILED on the GPU" "$out/detects_executor.log")
# full marks for the reference (performance too: timed by replay), less for the attack
if python3 -c "import sys; sys.exit(0 if $honest == $full and $attack < $honest and $gpu_failed > 0 else 1)"; then
    printf '%-22s %-22s %-30s %s\n' "grade (vgpu + GPU)" "lab3" "ok: reference $honest" "detects_executor $attack ($gpu_failed failed on the GPU)"
else
    printf '%-22s %-22s %-30s %s\n' "grade (vgpu + GPU)" "lab3" "FAIL: reference $honest" "detects_executor $attack"
    failures=$((failures + 1))
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures replay check(s) failed; the files are in $out"
    exit 1
fi
# CUGRADE_GPU_KEEP=1 keeps the compiles, records and outputs (a later step's inputs)
if [ -n "${CUGRADE_GPU_KEEP:-}" ]; then echo "replay: kept in $out"; else rm -rf "$out"; fi
echo "replay: every check passed"
