#!/usr/bin/env bash
# tools/race_check.sh - the grader's threads under ThreadSanitizer (make
# race-check): bin/cugrade built with -fsanitize=thread (make bin/cugrade-tsan),
# then a small class graded by it on the GPU path with the emulator standing
# in for nvcc and the device (tests/fixtures/nvcc_emu, two pretend GPUs), so
# that every thread of a batch and of its gradings runs: the workers, each
# GPU's baseline timing, an emulator build beside the GPU datasets, the GPU turns'
# keepers, a hung kernel's retry begun ahead. Performance is timed at one
# small shape (a rubric of its own), the emulator being slow.
# Usage: tools/race_check.sh [--if-usable]
# Exit 0: every submission graded and no report; 1: a report (printed) or
# a submission not graded; 2: it could not run (no compiler with TSan, or a
# TSan program does not start here). With --if-usable (make test) the last
# is a line that says so and exit 0: the check runs wherever TSan does.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
tmp=$(mktemp -d /tmp/cugrade-race-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if_usable=0
[ "${1:-}" = --if-usable ] && if_usable=1

cc=${CC:-cc}
# cannot_run WHY: exit 2, or 0 with --if-usable, saying why either way
cannot_run() {
    if [ "$if_usable" = 1 ]; then
        echo "race_check: NOT RUN (ThreadSanitizer is not usable here): $1"
        exit 0
    fi
    echo "race_check: cannot run: $1" >&2
    exit 2
}
# a program built with TSan must start (some kernels' address-space layout
# stops it before main)
printf 'int main(void) { return 0; }\n' >"$tmp/probe.c"
"$cc" -fsanitize=thread "$tmp/probe.c" -o "$tmp/probe" 2>"$tmp/probe.log" ||
    cannot_run "$cc -fsanitize=thread cannot build a program: $(head -c 300 "$tmp/probe.log")"
"$tmp/probe" >"$tmp/probe.log" 2>&1 ||
    cannot_run "a program built with it does not start: $(head -c 300 "$tmp/probe.log")"
if ! make -s bin/cugrade-tsan ${CC:+CC="$CC"} >"$tmp/cc.log" 2>&1; then
    echo "race_check: FAILED: make could not build bin/cugrade-tsan:" >&2
    tail -20 "$tmp/cc.log" >&2
    exit 1
fi

# the class: one copy of each kind
for entry in reference:reference/lab3/matmul.cu untiled:tests/submissions/lab3/untiled.cu \
    endless:tests/submissions/lab3/endless_kernel.cu \
    barrier:tests/submissions/lab3/missing_second_barrier.cu \
    segfault:tests/submissions/lab3/host_segfault.cu \
    compile:tests/submissions/lab3/compile_error.cu tile32:tests/submissions/lab3/tile32.cu \
    intdiv:tests/submissions/lab3/intdiv_grid.cu; do
    mkdir -p "$tmp/class/${entry%%:*}/lab3"
    cp "${entry#*:}" "$tmp/class/${entry%%:*}/lab3/matmul.cu"
done
python3 - "$root/rubric.json" "$tmp/rubric.json" <<'EOF' || exit 2
import json, sys
r = json.load(open(sys.argv[1]))
perf = r["labs"]["lab3"]["performance"]
perf["shapes"], perf["time_cap_s"] = ["64x64x64"], 1
json.dump(r, open(sys.argv[2], "w"))
EOF

export CUGRADE_NVCC=$root/tests/fixtures/nvcc_emu/bin/nvcc CUGRADE_NVCC_ARCH=sm_emu_nvcc \
    CUGRADE_SANDBOX_RO=$root/bin:$root/emu:$root/build CUGRADE_GPU_COUNT=2 CUGRADE_SRCCHECK=off
export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 exitcode=0 log_path=$tmp/tsan"
start=$(date +%s)
bin/cugrade-tsan batch --lab lab3 --backend native --jobs 4 --rubric "$tmp/rubric.json" \
    --out "$tmp/out" "$tmp/class" >"$tmp/batch.log" 2>&1
rc=$?
echo "race_check: a batch of 8 on 2 pretend GPUs under ThreadSanitizer: exit $rc in $(( $(date +%s) - start )) s"
failed=0
if ls "$tmp"/tsan.* >/dev/null 2>&1; then
    echo "race_check: FAILED: ThreadSanitizer reported $(cat "$tmp"/tsan.* | grep -c '^WARNING'):"
    cat "$tmp"/tsan.*
    failed=1
fi
summary=$(grep '^batch: ' "$tmp/batch.log" | head -1)
case $summary in
"batch: 8 graded, 0 re-scored, 0 could not grade,"*) ;;
*)
    echo "race_check: FAILED: not every submission was graded: ${summary:-(no summary)}"
    tail -20 "$tmp/batch.log"
    failed=1
    ;;
esac
[ "$failed" = 0 ] && echo "race_check: no data race reported; every submission graded"
exit "$failed"
