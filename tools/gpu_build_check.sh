#!/usr/bin/env bash
# gpu_build_check.sh - compile the GPU build of the lab 3 driver (run only where no GPU is needed).
#
#   tools/gpu_build_check.sh NVCC ARCH      e.g. /usr/local/cuda/bin/nvcc sm_90
#
# Builds labs/kinds/matmul/driver.cu with nvcc, once with each of the reference
# solution, the untiled baseline and the student stub, into executables under
# build/gpu-check/, exactly as the grader's GPU backend would (and checks that
# the reference build's list mode, driver --each LIST, rejects a malformed
# list without touching the GPU); then the lab 3
# timing program labs/kinds/matmul/perf.cu, linked with the student stub, the two
# references under their renamed symbols and cuBLAS, with the commands the
# grader uses (grader/build/build.c, build_timing_program; docs/gpu.md); and three
# libwb-style programs of labs/lab3-wb with labs/common/wb.h. It proves the lab sources are valid CUDA for a real GPU toolchain on
# machines (CI) that have nvcc but no GPU. Exits 1 on any compile error. Without nvcc it exits 1
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
driver=labs/kinds/matmul/driver.cu
launch=-DCUGRADE_LAUNCH=launchMatrixMultiplyShared
failed=()
for src in reference/lab3/matmul.cu reference/lab3/matmul_naive.cu student/lab3/matmul.cu; do
    exe="$out/lab3-$(dirname "$src" | cut -d/ -f1)-$(basename "$src" .cu)"
    echo "gpu_build_check: $nvcc -arch=$arch $driver $src -> $exe"
    if ! "$nvcc" -O3 -lineinfo -arch="$arch" -Ilabs/common "$launch" "$driver" "$src" -o "$exe"; then
        failed+=("$src")
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
ref_exe=$out/lab3-reference-matmul
echo "gpu_build_check: $ref_exe --each (a malformed list: status 2, no dataset begun)"
if [ -x "$ref_exe" ] && ! list_mode_check "$ref_exe"; then
    failed+=("$driver --each (list mode, labs/common/harness.h)")
fi

# The timing program: the student's file as is, the reference and the untiled
# baseline with the symbols of labs/lab3/lab.json "timing" renamed
# (-D<sym>=cugrade_reference_<sym>, cugrade_baseline_<sym>) so that they do
# not clash with the student's, then one link with cuBLAS.
perf_objs() {
    local o=$out/perf nv=("$nvcc" -c -O3 -lineinfo -arch="$arch" -Ilabs/common)
    local s ref=() base=()
    for s in launchMatrixMultiplyShared matrixMultiplyShared; do
        ref+=("-D$s=cugrade_reference_$s")
        base+=("-D$s=cugrade_baseline_$s")
    done
    mkdir -p "$o" &&
    "${nv[@]}" "$launch" -DCUGRADE_HAS_BASELINE labs/kinds/matmul/perf.cu -o "$o/timing.o" &&
    "${nv[@]}" student/lab3/matmul.cu -o "$o/student.o" &&
    "${nv[@]}" "${ref[@]}" reference/lab3/matmul.cu -o "$o/timing-reference.o" &&
    "${nv[@]}" "${base[@]}" reference/lab3/matmul_naive.cu -o "$o/timing-baseline.o" &&
    "$nvcc" -arch="$arch" "$o/timing.o" "$o/student.o" "$o/timing-reference.o" \
        "$o/timing-baseline.o" -lcublas -o "$out/lab3-perf-student"
}
echo "gpu_build_check: $nvcc -arch=$arch labs/kinds/matmul/perf.cu + student stub + renamed references + cuBLAS -> $out/lab3-perf-student"
if ! perf_objs; then
    failed+=("labs/kinds/matmul/perf.cu (the timing program)")
fi

# Program-style (libwb) labs: the whole program, with labs/common/wb.h, as
# the grader builds it (compile, then link; grader/build/build.c).
for src in reference/lab3-wb/template.cu student/lab3-wb/template.cu tests/submissions/lab3-wb/good.cu; do
    exe="$out/lab3-wb-$(dirname "$src" | cut -d/ -f1)-$(basename "$src" .cu)"
    echo "gpu_build_check: $nvcc -arch=$arch -Ilabs/common $src -> $exe"
    if ! "$nvcc" -c -O3 -lineinfo -arch="$arch" -Ilabs/common "$src" -o "$exe.o" 2>"$exe.log" ||
        ! "$nvcc" -arch="$arch" "$exe.o" -o "$exe"; then
        cat "$exe.log" >&2
        failed+=("$src (libwb program)")
    fi
done

if [ ${#failed[@]} -ne 0 ]; then
    echo "gpu_build_check: FAILED: nvcc -arch=$arch could not build for lab 3:" >&2
    printf '  %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "gpu_build_check: OK: 3 lab 3 driver builds, the timing program and 3 libwb programs for $arch in $out/"
