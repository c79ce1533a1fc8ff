#!/usr/bin/env bash
# tests/gpu/attacks.sh - the red-team submissions of tests/attacks/ on the
# GPU backend (make gpu-test; needs a CUDA device, nvcc and bubblewrap):
# each is graded by bin/cugrade and its verdict checked as on the emulator
# (tests/attacks/README.md). Prints one line per attack and exits 1 if any
# verdict is wrong, 2 if the grader itself fails.
# The helpers (field, grade, verdict, finish) are tests/gpu/lib.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=$(mktemp -d /tmp/cugrade-gpu-attacks-XXXXXX)
failures=0
verdict_width=28
# shellcheck source=tests/gpu/lib.sh
. tests/gpu/lib.sh

grade reference lab3 reference/lab3/matmul.cu
verdict reference "every dataset passes, sandboxed" \
    "r['extra_data']['datasets_passed'] == r['extra_data']['datasets_total'] and 'bubblewrap' in r['output']"
verdict reference "every hidden dataset passes" \
    "r['extra_data']['hidden_total'] >= 8 and r['extra_data']['hidden_passed'] == r['extra_data']['hidden_total']"
grade hardcoded lab3 tests/attacks/hardcodes_public.cu
verdict hardcoded "hard-coded outputs: every hidden dataset fails" \
    "r['extra_data']['hidden_passed'] == 0 and r['score'] < 0.5 * sum(x['max_score'] for x in r['tests'])"
grade include lab3 tests/attacks/include_reference.cu
verdict include "#include of the reference: refused (source check)" \
    "t['compiles']['status'] == 'failed' and 'refused' in t['compiles']['output'] and r['score'] == 0"
grade incbin lab3 tests/attacks/incbin_macro.cu
verdict incbin ".incbin by macro: refused (nvcc -E)" \
    "t['compiles']['status'] == 'failed' and 'refused' in t['compiles']['output'] and r['score'] == 0"
grade markers lab3 tests/attacks/forges_markers.cu
verdict markers "forged markers: every dataset passes (grouped)" \
    "r['extra_data']['datasets_passed'] == r['extra_data']['datasets_total']"
grade system lab3 tests/attacks/system_call.cu
verdict system "system(): refused, score 0" \
    "t['compiles']['status'] == 'failed' and 'system' in t['compiles']['output'] and r['score'] == 0"
grade destructor lab3 tests/attacks/destructor_rewrites_diag.cu
verdict destructor "destructor: refused, score 0" \
    "t['compiles']['status'] == 'failed' and 'destructor' in t['compiles']['output'] and r['score'] == 0"
grade environ lab3 tests/attacks/prints_environment.cu CUGRADE_OBJCHECK=off TA_TOKEN=ghp_gpu_secret
verdict environ "environment: no TA variable" "'ghp_gpu_secret' not in json.dumps(r)"
printf '#include "%s/datasets/lab3/0/output.raw"\n' "$PWD" > "$out/include.cu"
grade jail lab3 "$out/include.cu" CUGRADE_SRCCHECK=off
verdict jail "nvcc in the jail: no datasets/" \
    "t['compiles']['status'] == 'failed' and 'No such file' in t['compiles']['output']"
grade endless lab3 tests/submissions/lab3/endless_kernel.cu
if [ "${CUGRADE_GPU_TEST_BACKEND:-native}" = native ]; then
    verdict endless "endless kernel: 2 time-outs, rest not run" \
        "r['score'] == 0 and sum('exceeded the time limit' in x.get('output', '') for x in r['tests']) == 2 and any('was not run: the kernel had already run past its time limit on 2 datasets' in x.get('output', '') for x in r['tests'])"
else # the executor counts instructions: each dataset stopped at its budget, nothing on the GPU
    verdict endless "endless kernel: each dataset past its instruction budget" \
        "r['score'] == 0 and all('ran past the instruction budget' in x.get('output', '') for x in r['tests'] if x['name'].startswith(('dataset', 'hidden')))"
fi
# host crashes: in the student's own code the driver goes past each one
# (harness_crash.h, one process); in libc each ends the process (lanes); the
# verdicts are the same: every dataset killed by signal 11, score 0
grade crash_own lab3 tests/submissions/lab3/host_segfault.cu
verdict crash_own "host crash, own code: each dataset signal 11" \
    "r['score'] == 0 and all('killed by signal 11' in x.get('output', '') for x in r['tests'] if x['name'].startswith(('dataset', 'hidden')))"
grade crash_libc lab3 tests/submissions/lab3/host_crash_in_libc.cu
verdict crash_libc "host crash in libc: each dataset signal 11" \
    "r['score'] == 0 and all('killed by signal 11' in x.get('output', '') for x in r['tests'] if x['name'].startswith(('dataset', 'hidden')))"
# a batch's child is shown its own GPU's device file alone (CUGRADE_GPU_NODE,
# run/sandbox.h) and finds it as device 0: here the CUDA_VISIBLE_DEVICES
# outside names a GPU that is not there, which every run would fail on
# unless the sandbox unsets it (what a batch child has besides: the count
# and the architecture, so that nothing outside the sandbox starts CUDA)
node=$(bin/cugrade info | sed -n 's|^    gpu 0: .*, \(/dev/nvidia[0-9]*\)$|\1|p')
[ -n "$node" ] || { echo "GRADER FAULT: cugrade info names no device file for GPU 0"; exit 2; }
# (on the gpu backend the runner, outside the sandbox, replays on the GPU
# CUDA_VISIBLE_DEVICES names, as a batch's child names its own; the
# sandboxed program is shown no GPU at all)
visible=7
[ "${CUGRADE_GPU_TEST_BACKEND:-native}" = native ] || visible=0
grade one_gpu lab3 reference/lab3/matmul.cu CUGRADE_GPU_NODE="$node" \
    CUDA_VISIBLE_DEVICES=$visible CUGRADE_GPU_COUNT=1 CUGRADE_NVCC_ARCH=sm_90
verdict one_gpu "its GPU's device file alone: all pass" \
    "r['extra_data']['datasets_passed'] == r['extra_data']['datasets_total'] and r['extra_data'].get('perf_ratio', 0) > 0"
# tile loads without their bounds checks read past A and B wherever K is not
# a multiple of the tile: what they find there is the driver's guard
# (labs/common/harness_device.h), the same in a list as in a process a
# dataset, so such a kernel fails those datasets, and only those, either way
grade unguarded lab3 tests/submissions/lab3/unguarded_loads.cu
grade unguarded_sep lab3 tests/submissions/lab3/unguarded_loads.cu -- --dataset-runs separate
verdict unguarded "reads past A, B: fails where K%16, in lists" \
    "all((int(d['name'].split('(')[1].split('x')[1]) % 16 != 0) == (d['score'] == 0) for d in r['tests'] if d['name'].startswith(('dataset', 'hidden')))"
verdict unguarded_sep "... and the same alone" \
    "r['score'] == json.load(open('$out/unguarded.json'))['score'] and [d['score'] for d in r['tests']] == [d['score'] for d in json.load(open('$out/unguarded.json'))['tests']]"
# a kernel that never ends at the timing's shape alone (it passes the small
# datasets): the timing's watchdog (labs/common/harness.h) ends the program at
# the shape's time cap, naming the launch, instead of the grader's limit for
# the whole timing holding the GPU alone (tests/e2e/test_gpu_pipeline.c's
# case, on a GPU: two small datasets and a rubric of one 48x40x56 shape)
for s in 0:16x16x16 1:17x9x13; do
    bin/cugrade dataset --lab lab3 --shape "${s#*:}" --seed 7 --out "$out/small/${s%%:*}" \
        > "$out/small.log" 2>&1 || { echo "GRADER FAULT: dataset ${s#*:}:"; cat "$out/small.log"; exit 2; }
done
printf '%s\n' '{"version": 1, "labs": {"lab3": {"compile": {"name": "compiles", "points": 0},
    "datasets": {"points": 1, "time_limit_s": 30}, "hidden": {"count": 0},
    "performance": {"points": 10, "shapes": ["48x40x56"], "zero_at": 0.5, "full_at": 0.9,
    "time_cap_s": 1}}}}' > "$out/small-rubric.json"
grade time_cap lab3 tests/submissions/lab3/hangs_on_large_shapes.cu -- \
    --rubric "$out/small-rubric.json" --datasets "$out/small"
if [ "${CUGRADE_GPU_TEST_BACKEND:-native}" = native ]; then
    verdict time_cap "hangs at the timing's shape: its cap" \
        "x['datasets_passed'] == x['datasets_total'] == 2 and t['performance']['score'] == 0 and 'at 48x40x56 ran past 1 s, the shape\\'s time cap' in t['performance']['output'] and 'the failure is the submission\\'s' in t['performance']['output']"
else # the runner's watchdog: the replayed launch past the cap, named
    verdict time_cap "hangs at the timing's shape: its cap" \
        "x['datasets_passed'] == x['datasets_total'] == 2 and t['performance']['score'] == 0 and 'not timed: at 48x40x56, replayed on the GPU' in t['performance']['output'] and 'ran past the shape\\'s time cap of 1 s' in t['performance']['output']"
fi
grade honest dotprod reference/dotprod/dotprod.cu
grade timing dotprod tests/attacks/forges_timing.cu
verdict timing "forged timing line: not counted" \
    "0 < r['extra_data'].get('perf_ratio', 0) < 3"
# launch functions that hand back what they kept from an earlier call with the
# same inputs: every dataset passes, every timed output is wrong (the inputs
# are new every round), no performance points
grade memo_product lab3 tests/attacks/memoizes_product.cu
grade skip_rows lab3 tests/attacks/skips_rows_when_repeated.cu
grade overwrites lab3 tests/attacks/overwrites_inputs.cu
grade memo_dot dotprod tests/attacks/memoizes_dot_product.cu
if [ "${CUGRADE_GPU_TEST_BACKEND:-native}" = native ]; then
    # (memo_product: a dataset whose shape came before in the list is given the
    # same arrays, the driver keeping them from one dataset to the next, and is
    # served the earlier product: it fails, and the timing is not scored; else
    # every dataset passes and the timed outputs are wrong)
    verdict memo_product "kept product: no performance points" \
        "t['performance']['score'] == 0 and (('wrong elements in the timed outputs' in t['performance']['output'] and x['datasets_passed'] == x['datasets_total']) or any('elements wrong' in d.get('output', '') for d in r['tests']))"
    verdict skip_rows "rows skipped when repeated: wrong" \
        "x['datasets_passed'] == x['datasets_total'] and 'wrong elements in the timed outputs' in t['performance']['output'] and t['performance']['score'] == 0"
    verdict overwrites "inputs overwritten: wrong" \
        "x['datasets_passed'] == x['datasets_total'] and 'wrong elements in the timed outputs' in t['performance']['output'] and t['performance']['score'] == 0"
    verdict memo_dot "kept partial sums: timed results wrong" \
        "x['datasets_passed'] == x['datasets_total'] and 'wrong elements in the timed outputs' in t['performance']['output'] and t['performance']['score'] == 0"
else
    # the replay times the launches the executor recorded from one call per
    # shape, each with arrays of its own: the host code's memory of earlier
    # calls never comes into play, and the kernel is timed doing the whole
    # product, at the honest tiled kernel's speed (the tricks would be 2x
    # and more): nothing gained, nothing to catch
    for n in memo_product skip_rows overwrites memo_dot; do
        verdict "$n" "timed as the kernel it is (the replay)" \
            "x['datasets_passed'] == x['datasets_total'] and 0.5 < x.get('perf_ratio', 0) < 1.5 and 'wrong elements' not in t['performance']['output']"
    done
fi
# a kernel on a non-blocking stream of its own that the launch function waits
# for: refused by the object check; behind it, the gate would time it as
# taking no time, and it is timed by its launch call instead, at about the
# speed of the same kernel launched the usual way (a tile-16 kernel like the
# reference's: under 2x the reference)
grade own_stream_refused lab3 tests/attacks/waits_on_own_stream.cu
verdict own_stream_refused "own non-blocking stream: refused" \
    "t['compiles']['status'] == 'failed' and 'cudaStreamCreateWithFlags' in t['compiles']['output'] and r['score'] == 0"
grade own_stream lab3 tests/attacks/waits_on_own_stream.cu CUGRADE_OBJCHECK=off
verdict own_stream "own stream, check off: timed by its call" \
    "x['datasets_passed'] == x['datasets_total'] and 0 < x.get('perf_ratio', 0) < 2"
for n in honest timing own_stream; do
    printf '      %-28s perf_ratio %s\n' "$n" "$(field "$out/$n.json" "r['extra_data'].get('perf_ratio')")"
done
finish attacks
