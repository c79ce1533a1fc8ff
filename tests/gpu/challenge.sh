#!/usr/bin/env bash
# tests/gpu/challenge.sh - the challenge lab on the GPU backend (make gpu-test;
# needs a CUDA device, nvcc with the toolkit's cuobjdump and nvdisasm, and
# bubblewrap): the reference passes every dataset and earns the whole
# performance score against cuBLAS (extra_data.performance_shapes has the
# four shapes, right and timed); the rule fp32-simt is enforced on the
# machine code: hides_mma.cu, whose tensor-core PTX the source never spells,
# is caught in its SASS (HMMA) and still graded for correctness; uses_wmma.cu
# is caught in its source and compiles with nvcc; calls_cublas.cu is caught
# and not built; a plain register-tiled kernel is timed with right outputs.
# Prints one line per verdict and the reference's timings; exits 1 if any
# verdict is wrong, 2 if the grader itself fails.
# The helpers (field, grade, verdict, finish) are tests/gpu/lib.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d /tmp/cugrade-gpu-challenge-XXXXXX)
sub=tests/submissions/challenge
failures=0
verdict_width=10
# shellcheck source=tests/gpu/lib.sh
. tests/gpu/lib.sh

all_pass="x['datasets_passed'] == x['datasets_total'] and x['hidden_passed'] == x['hidden_total'] >= 8"
perf_zero_by_rule="t['performance']['score'] == 0 and t['performance']['max_score'] > 0 and \
'FAILED: rule fp32-simt' in t['performance']['output']"
shapes="['4096x4096x4096', '3001x2999x3003', '8192x8192x1024', '1024x1024x8192']"

grade reference challenge reference/challenge/sgemm.cu
verdict reference "every dataset and hidden dataset passes, every check" \
    "$all_pass and all(v['status'] == 'passed' for v in r['tests'])"
verdict reference "breaks no rule (its SASS: FFMA, no tensor-core opcode)" \
    "'rule_broken' not in x"
verdict reference "timed against cuBLAS at the rubric's four shapes, every output right" \
    "x['perf_relative_to'] == 'cublas' and [s['shape'] for s in x['performance_shapes']] == $shapes \
and all(s['wrong'] == 0 and s['gflops'] > 0 and s['cublas_gflops'] > 0 for s in x['performance_shapes'])"
verdict reference "the whole performance score (>= 0.85 of cuBLAS, geometric mean)" \
    "t['performance']['max_score'] == 50 and t['performance']['score'] == 50 and x['perf_ratio'] >= 0.85"
field "$out/reference.json" "'\n'.join('      %-16s %8.0f GFLOP/s  cuBLAS %8.0f  ratio %.3f' % \
(s['shape'], s['gflops'], s['cublas_gflops'], s['ratio_to_cublas']) for s in x['performance_shapes']) + \
'\n      geometric mean %.3f of cuBLAS on %s' % (x['perf_ratio'], x['device'])"

grade hides challenge "$sub/hides_mma.cu"
if [ "${CUGRADE_GPU_TEST_BACKEND:-native}" = native ]; then
    verdict hides "tensor cores found in the SASS (the source never spells them)" \
        "'rule fp32-simt: the submission uses tensor cores (HMMA' in x.get('rule_broken', '') \
and 'in the SASS of _Z10sgemmHidesPKfS0_Pfiii' in x['rule_broken']"
    verdict hides "correctness still graded: every dataset passes" "$all_pass"
else # the executor reads the PTX nvcc made, and runs no tensor-core instruction
    verdict hides "tensor cores found in the PTX (the source never spells them)" \
        "'rule fp32-simt: the submission uses tensor cores (mma.sync' in x.get('rule_broken', '') \
and 'in the PTX of _Z10sgemmHidesPKfS0_Pfiii' in x['rule_broken']"
    verdict hides "each dataset fails: the executor refuses the instruction by name" \
        "x['datasets_passed'] == 0 and all('the executor runs no tensor-core code' in d.get('output', '') \
for d in r['tests'] if d['name'].startswith(('dataset', 'hidden')))"
fi
verdict hides "performance 0, with the rule's message" "$perf_zero_by_rule"

grade wmma challenge "$sub/uses_wmma.cu"
verdict wmma "<mma.h> named by the source check; nvcc compiles it" \
    "'uses_wmma.cu:14: #include <mma.h>' in x.get('rule_broken', '') \
and t['compiles']['status'] == 'passed' and 'rule fp32-simt' in t['compiles']['output']"
verdict wmma "performance 0, with the rule's message" "$perf_zero_by_rule"

grade cublas challenge "$sub/calls_cublas.cu"
verdict cublas "cuBLAS named, the build refused" \
    "t['compiles']['status'] == 'failed' and 'rule fp32-simt: the submission uses cuBLAS' in \
t['compiles']['output'] and r['score'] == 0"

grade tiled challenge "$sub/register_tiled.cu"
verdict tiled "a plain register-tiled kernel: every dataset, timed, outputs right" \
    "$all_pass and 'rule_broken' not in x and x['perf_ratio'] > 0 \
and all(s['wrong'] == 0 for s in x['performance_shapes'])"
printf '      %-10s perf_ratio %s, performance %s of %s\n' tiled \
    "$(field "$out/tiled.json" "round(x['perf_ratio'], 3)")" \
    "$(field "$out/tiled.json" "t['performance']['score']")" \
    "$(field "$out/tiled.json" "t['performance']['max_score']")"

finish challenge
