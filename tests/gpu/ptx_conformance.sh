#!/usr/bin/env bash
# tests/gpu/ptx_conformance.sh - the executor against a real GPU (make
# gpu-test; needs a CUDA device and nvcc): tests/gpu/ptx_conformance.cu built
# with libcudart runs on the GPU, built with emu/vcudart runs its kernels on
# bin/cugrade-vgpu (from nvcc -ptx of the same source); the two printouts of
# every result must be the same, but for the approximate intrinsics'
# (__expf, __sinf, __cosf, __log2f: the "approx:" line), which PTX documents
# as approximate (sin.approx's absolute error up to 2^-20.5, ex2.approx's
# relative error about 2^-22): those within 2e-6 + 2e-5 |GPU| of the GPU's.
# Exit 1 when they differ (each differing value is named), 2 when a build
# or a run fails.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp -d /tmp/cugrade-gpu-ptx-XXXXXX)
nvcc=${NVCC:-nvcc}
arch=${CUGRADE_NVARCH:-sm_90}
src=tests/gpu/ptx_conformance.cu
fail() { echo "GRADER FAULT: $*"; exit 2; }
"$nvcc" -arch="$arch" -o "$out/gpu" "$src" 2> "$out/gpu.log" || { cat "$out/gpu.log"; fail "nvcc (GPU build)"; }
"$nvcc" -ptx -lineinfo -arch="$arch" -o "$out/kernels.ptx" "$src" 2> "$out/ptx.log" || fail "nvcc -ptx"
"$nvcc" -c -arch="$arch" -o "$out/vgpu.o" "$src" 2> "$out/vgpu.log" || fail "nvcc -c"
make -s build/libcugrade_vcudart.a bin/cugrade-vgpu || fail "make the executor"
g++ "$out/vgpu.o" build/libcugrade_vcudart.a -lpthread -o "$out/vgpu" || fail "link with emu/vcudart"
"$out/gpu" > "$out/gpu.txt" || fail "the GPU run"
bin/cugrade-vgpu --report "$out/report.json" "$out/kernels.ptx" -- "$out/vgpu" > "$out/executor.txt" ||
    fail "the executor's run"
# same: 0; else each differing value named (an approximate intrinsic's only past its tolerance), 1
python3 - "$out/gpu.txt" "$out/executor.txt" <<'PY'
import sys
gpu, ex = (open(p).read().splitlines() for p in sys.argv[1:3])
def same(line, a, b):
    if a == b:
        return True
    if not line.startswith("approx:"):
        return False
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= 2e-6 + 2e-5 * abs(x)
bad, approx = 0, 0
for n, (g, e) in enumerate(zip(gpu, ex), 1):
    gw, ew = g.split(), e.split()
    diffs = [(i, a, b) for i, (a, b) in enumerate(zip(gw, ew)) if not same(g, a, b)]
    approx += sum(1 for a, b in zip(gw, ew) if a != b and same(g, a, b))
    if not diffs and len(gw) == len(ew):
        continue
    bad += 1
    if bad == 1:
        print("FAIL  executor != GPU (each differing line's first differing values, by position):")
    print("line %d (%s): %d of %d values differ%s" % (n, gw[0] if gw else "", len(diffs), len(gw),
          "" if len(gw) == len(ew) else ", and the counts (%d, %d)" % (len(gw), len(ew))))
    for i, a, b in diffs[:8]:
        print("    value %d: GPU %s, executor %s" % (i, a, b))
if len(gpu) != len(ex):
    bad += 1
    print("FAIL  the GPU printed %d lines, the executor %d" % (len(gpu), len(ex)))
if bad == 0:
    print("ok    executor = GPU on %d result lines (%d approximate intrinsics' values within their "
          "tolerance, not equal)" % (len(gpu), approx))
sys.exit(1 if bad else 0)
PY
