#!/usr/bin/env bash
# gpu_build_check.sh - compile the GPU builds of every lab (run only where no GPU is needed).
#
#   tools/gpu_build_check.sh NVCC ARCH      e.g. /usr/local/cuda/bin/nvcc sm_90
#
# For each kernel-style lab (lab2, lab3, dotprod, challenge: the kernel_labs
# table, checked against labs/*/lab.json) it builds its kind's driver
# (labs/kinds/<kind>/driver.cu) with nvcc and the lab's harness flags
# (-DCUGRADE_LAUNCH=..., -DCUGRADE_LAUNCH_MNK for "launch_args": "m-n-k"),
# once with each of the reference
# solution, the baseline if any and the student stub, into executables under
# build/gpu-check/, exactly as the grader's GPU backend would (and checks that
# the reference build's list mode, driver --each LIST, rejects a malformed
# list without touching the GPU); then the kind's timing program
# (labs/kinds/<kind>/perf.cu), linked with the student stub, the references
# under their renamed symbols and cuBLAS, with the commands the grader uses
# (grader/build/build.c, build_timing_program; docs/gpu.md); and three
# libwb-style programs of labs/lab3-wb with labs/common/wb.h; and each array
# lab's driver (labs/kinds/array/driver.cu, with the call header the grader
# makes from lab.json's signature: bin/cugrade info --call-header, so run
# make all first) with its reference and its stub, and its library baseline
# built into the bench (BENCH_BUILD_ONLY=1 bench/gpu_labs/baselines.sh; a
# machine without the baseline's library says so and skips it). It proves the
# lab sources are valid CUDA for a real GPU toolchain on machines (CI) that
# have nvcc but no GPU. Exits 1 on any compile error. Without nvcc it exits 1
# too, unless CUGRADE_ALLOW_NO_NVCC=1 (then it says so and exits 0).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 NVCC ARCH   (e.g. $0 /usr/local/cuda/bin/nvcc sm_90)" >&2
    exit 2
fi
nvcc=$1
arch=$2
cd "$(dirname "$0")/.." || exit 1

if [ -z "$nvcc" ] || ! command -v "$nvcc" >/dev/null 2>&1; then
    if [ "${CUGRADE_ALLOW_NO_NVCC:-0}" = 1 ]; then
        echo "gpu_build_check: nvcc not found ('$nvcc'); skipped (CUGRADE_ALLOW_NO_NVCC=1)"
        exit 0
    fi
    echo "gpu_build_check: FAILED: nvcc not found ('$nvcc')." >&2
    echo "  Install the CUDA toolkit, pass its nvcc (make gpu-build NVCC=/path/to/nvcc)," >&2
    echo "  or set CUGRADE_ALLOW_NO_NVCC=1 to skip this check." >&2
    exit 1
fi

out=build/gpu-check
mkdir -p "$out" || exit 1
failed=()
array_labs=()

# The kernel-style labs, as their labs/<lab>/lab.json say (this table must
# name every one: checked below): the lab, its kind's folder under
# labs/kinds/ (driver.cu and perf.cu), "launch", the timing "symbols", the
# reference file (its "timing" "reference"), the "baseline" ("-": none), and
# the further files built with the driver (the student stub at least).
kernel_labs=(
    "lab2 matmul launchMatrixMultiply launchMatrixMultiply,matrixMultiply reference/lab2/matmul.cu - student/lab2/matmul.cu"
    "lab3 matmul launchMatrixMultiplyShared launchMatrixMultiplyShared,matrixMultiplyShared,matrixMultiplyNaive reference/lab3/matmul.cu reference/lab3/matmul_naive.cu student/lab3/matmul.cu"
    "dotprod reduction launchDotProduct launchDotProduct,dotProductShared reference/dotprod/dotprod.cu - student/dotprod/dotprod.cu"
    "challenge matmul launchSgemm launchSgemm reference/challenge/sgemm.cu - student/challenge/sgemm.cu tests/submissions/challenge/register_tiled.cu"
)

# The flags lab.json gives every compile of the lab's harness, as
# grader/build/harness_flags.c does: -DCUGRADE_LAUNCH=<launch>, and
# -DCUGRADE_LAUNCH_MNK for "launch_args": "m-n-k" (labs/kinds/matmul/launch.h).
harness_flags() {
    local lab=$1 launch=$2
    printf '%s\n' "-DCUGRADE_LAUNCH=$launch"
    if grep -q '"launch_args": *"m-n-k"' "labs/$lab/lab.json"; then
        printf '%s\n' -DCUGRADE_LAUNCH_MNK
    fi
}

for json in labs/*/lab.json; do
    lab=$(basename "$(dirname "$json")")
    grep -q '"style": *"kernel"' "$json" || continue
    # an array lab's driver is built from the header the grader makes from lab.json's signature
    if grep -q '"kind": *"array"' "$json"; then
        array_labs+=("$lab")
        continue
    fi
    if ! printf '%s\n' "${kernel_labs[@]}" | grep -q "^$lab "; then
        echo "gpu_build_check: FAILED: $json is a kernel lab this script does not build; add it to kernel_labs" >&2
        failed+=("$json (not in kernel_labs)")
    fi
done

# The list mode of the nvcc build (driver --each LIST, labs/common/harness.h),
# as far as it goes without a GPU: a malformed list must stop it with status 2
# before any dataset begins (and before any CUDA call).
list_mode_check() {
    local exe=$1 list=$out/malformed.list text
    printf '30 a.bin b.bin c.bin\nsoon a.bin b.bin c.bin\n' >"$list"
    text=$("$exe" --each "$list" 2>&1)
    [ $? -eq 2 ] && [[ $text == *"malformed.list:2"* ]] && [[ $text != *cugrade-dataset-begin* ]]
}

# The timing program: the student's file as is, the reference (and the
# baseline) with the timing symbols renamed (-D<sym>=cugrade_reference_<sym>,
# cugrade_baseline_<sym>) so that they do not clash with the student's, then
# one link with cuBLAS, as grader/build/build.c's build_timing_program does.
perf_build() {
    local lab=$1 kind=$2 launch=$3 symbols=$4 ref=$5 base=$6 stub=$7
    local o=$out/perf-$lab nv=("$nvcc" -c -O3 -lineinfo -arch="$arch" -Ilabs/common)
    local s refd=() based=() flags=() objs=() driver_flags=()
    mapfile -t flags < <(harness_flags "$lab" "$launch")
    driver_flags=("${flags[@]}")
    for s in ${symbols//,/ }; do
        refd+=("-D$s=cugrade_reference_$s")
        based+=("-D$s=cugrade_baseline_$s")
    done
    [ "$base" != - ] && flags+=(-DCUGRADE_HAS_BASELINE)
    mkdir -p "$o" &&
    "${nv[@]}" "${flags[@]}" "labs/kinds/$kind/perf.cu" -o "$o/timing.o" &&
    "${nv[@]}" "$stub" -o "$o/student.o" &&
    "${nv[@]}" "${refd[@]}" "$ref" -o "$o/timing-reference.o" || return 1
    objs=("$o/timing.o" "$o/student.o" "$o/timing-reference.o")
    if [ "$base" != - ]; then
        "${nv[@]}" "${based[@]}" "$base" -o "$o/timing-baseline.o" || return 1
        objs+=("$o/timing-baseline.o")
    fi
    "$nvcc" -arch="$arch" "${objs[@]}" -lcublas -o "$out/$lab-perf-student" || return 1
    # and the timed driver (build_timed_driver): the driver with the list
    # mode's timing tail, perf.cu's main renamed, the same other objects
    "${nv[@]}" "${flags[@]}" -DCUGRADE_TIMING_ENTRY=cugrade_timing_main \
        "labs/kinds/$kind/perf.cu" -o "$o/timing-entry.o" &&
    "${nv[@]}" "${driver_flags[@]}" -DCUGRADE_TIMING_TAIL \
        "labs/kinds/$kind/driver.cu" -o "$o/driver-timed.o" || return 1
    objs[0]=$o/timing-entry.o
    "$nvcc" -arch="$arch" "$o/driver-timed.o" "${objs[@]}" -lcublas -o "$out/$lab-timed-student"
}

nbuilds=0
for row in "${kernel_labs[@]}"; do
    read -r lab kind launch symbols ref base stubs <<<"$row"
    driver=labs/kinds/$kind/driver.cu
    sources=("$ref")
    [ "$base" != - ] && sources+=("$base")
    sources+=($stubs)
    mapfile -t lab_flags < <(harness_flags "$lab" "$launch")
    for src in "${sources[@]}"; do
        exe="$out/$lab-$(dirname "$src" | cut -d/ -f1)-$(basename "$src" .cu)"
        echo "gpu_build_check: $nvcc -arch=$arch ${lab_flags[*]} $driver $src -> $exe"
        if "$nvcc" -O3 -lineinfo -arch="$arch" -Ilabs/common "${lab_flags[@]}" \
            "$driver" "$src" -o "$exe"; then
            nbuilds=$((nbuilds + 1))
        else
            failed+=("$src ($lab, $driver)")
        fi
    done
    ref_exe="$out/$lab-reference-$(basename "$ref" .cu)"
    echo "gpu_build_check: $ref_exe --each (a malformed list: status 2, no dataset begun)"
    if [ -x "$ref_exe" ] && ! list_mode_check "$ref_exe"; then
        failed+=("$driver --each ($lab, list mode, labs/common/harness.h)")
    fi
    stub=${stubs%% *}
    echo "gpu_build_check: $nvcc -arch=$arch labs/kinds/$kind/perf.cu + $stub + renamed references + cuBLAS -> $out/$lab-perf-student, and with $driver -> $out/$lab-timed-student"
    if ! perf_build "$lab" "$kind" "$launch" "$symbols" "$ref" "$base" "$stub"; then
        failed+=("labs/kinds/$kind/perf.cu ($lab, the timing program or the timed driver)")
    fi
done

# Array labs: the driver with the lab's call header (grader/build/harness_flags.c, through
# bin/cugrade info --call-header), once with the reference and once with the stub, as the
# grader's GPU build does; then the bench's build of the reference with the library baseline.
narray=0
for lab in "${array_labs[@]}"; do
    file=$(sed -n 's/.*"student_file": *"\([^"]*\)".*/\1/p' "labs/$lab/lab.json")
    header=$out/$lab-call.h
    if ! bin/cugrade info --lab "$lab" --call-header >"$header" 2>"$out/$lab-call.log"; then
        cat "$out/$lab-call.log" >&2
        failed+=("labs/$lab/lab.json (its call header: bin/cugrade info --lab $lab --call-header; make all first)")
        continue
    fi
    for src in "reference/$lab/$file" "student/$lab/$file"; do
        exe="$out/$lab-$(dirname "$src" | cut -d/ -f1)-$(basename "$src" .cu)"
        echo "gpu_build_check: $nvcc -arch=$arch -include $header labs/kinds/array/driver.cu $src -> $exe"
        if "$nvcc" -O3 -lineinfo -arch="$arch" -Ilabs/common -include "$header" labs/kinds/array/driver.cu "$src" \
            -o "$exe"; then
            nbuilds=$((nbuilds + 1))
        else
            failed+=("$src ($lab, labs/kinds/array/driver.cu)")
        fi
    done
    narray=$((narray + 1))
    [ -f "labs/$lab/baseline.cu" ] || continue
    rc=0
    CUGRADE_NVCC=$nvcc CUGRADE_NVARCH=$arch BENCH_BUILD_ONLY=1 bench/gpu_labs/baselines.sh "$lab" >"$out/$lab-bench.log" 2>&1 ||
        rc=$?
    if [ $rc -eq 0 ]; then
        echo "gpu_build_check: $(tail -1 "$out/$lab-bench.log")"
    elif [ $rc -eq 2 ]; then # a library this machine lacks: said, not a failure of the lab's sources
        echo "gpu_build_check: $lab's baseline not built here: $(tail -1 "$out/$lab-bench.log")"
    else
        tail -20 "$out/$lab-bench.log" >&2
        failed+=("labs/$lab/baseline.cu ($lab, bench/gpu_labs/baselines.sh)")
    fi
done

# Program-style (libwb) labs: the whole program, with labs/common/wb.h, as
# the grader builds it (compile, then link with wb.h's file I/O,
# labs/common/wb_io.cu; grader/build/build.c).
echo "gpu_build_check: $nvcc -arch=$arch -Ilabs/common labs/common/wb_io.cu"
if ! "$nvcc" -c -O3 -lineinfo -arch="$arch" -Ilabs/common labs/common/wb_io.cu -o "$out/wb_io.o" 2>"$out/wb_io.log"; then
    cat "$out/wb_io.log" >&2
    failed+=("labs/common/wb_io.cu (libwb's file I/O)")
fi
for src in reference/lab3-wb/template.cu student/lab3-wb/template.cu tests/submissions/lab3-wb/good.cu; do
    exe="$out/lab3-wb-$(dirname "$src" | cut -d/ -f1)-$(basename "$src" .cu)"
    echo "gpu_build_check: $nvcc -arch=$arch -Ilabs/common $src -> $exe"
    if ! "$nvcc" -c -O3 -lineinfo -arch="$arch" -Ilabs/common "$src" -o "$exe.o" 2>"$exe.log" ||
        ! "$nvcc" -arch="$arch" "$exe.o" "$out/wb_io.o" -o "$exe"; then
        cat "$exe.log" >&2
        failed+=("$src (libwb program)")
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "gpu_build_check: FAILED: nvcc -arch=$arch could not build:" >&2
    printf '  %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "gpu_build_check: OK: $nbuilds driver builds ($narray array labs among them), ${#kernel_labs[@]} timing programs and timed drivers of ${#kernel_labs[@]} kernel labs, and 3 libwb programs, for $arch in $out/"
