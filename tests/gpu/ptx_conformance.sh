#!/usr/bin/env bash
# tests/gpu/ptx_conformance.sh - the executor against a real GPU (make
# gpu-test; needs a CUDA device and nvcc): tests/gpu/ptx_conformance.cu built
# with libcudart runs on the GPU, built with emu/vcudart runs its kernels on
# bin/cugrade-vgpu (from nvcc -ptx of the same source); the two printouts of
# every result must be the same. Exit 1 when they differ (the first
# differing lines are printed), 2 when a build or a run fails.
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
if cmp -s "$out/gpu.txt" "$out/executor.txt"; then
    echo "ok    executor = GPU on $(wc -l < "$out/gpu.txt") result lines ($(wc -c < "$out/gpu.txt") bytes)"
    exit 0
fi
echo "FAIL  executor != GPU (each differing line's first differing values, by position):"
python3 - "$out/gpu.txt" "$out/executor.txt" <<'PY'
import sys
gpu, ex = (open(p).read().splitlines() for p in sys.argv[1:3])
for n, (g, e) in enumerate(zip(gpu, ex), 1):
    if g == e:
        continue
    gw, ew = g.split(), e.split()
    diffs = [(i, a, b) for i, (a, b) in enumerate(zip(gw, ew)) if a != b][:8]
    print("line %d (%s): %d of %d values differ%s" % (n, gw[0] if gw else "", len([1 for a, b in zip(gw, ew) if a != b]),
          len(gw), "" if len(gw) == len(ew) else ", and the counts (%d, %d)" % (len(gw), len(ew))))
    for i, a, b in diffs:
        print("    value %d: GPU %s, executor %s" % (i, a, b))
if len(gpu) != len(ex):
    print("the GPU printed %d lines, the executor %d" % (len(gpu), len(ex)))
PY
exit 1
