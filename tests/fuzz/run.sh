#!/usr/bin/env bash
# tests/fuzz/run.sh - runs libFuzzer harnesses one after another (make fuzz):
#   tests/fuzz/run.sh RUNS "EXTRA FLAGS" NAME...
# Each build/fuzz/fuzz_NAME runs -runs=RUNS with no total-time limit, a 10 s
# timeout per input and a 2 GiB memory limit, from the committed seeds
# tests/fuzz/corpus/NAME/ (read only) into build/fuzz/corpus/NAME/; its log
# is build/fuzz/NAME.log (with -jobs=N, also build/fuzz/fuzz-<job>.log), a
# crashing input build/fuzz/artifacts/NAME-*.
# Prints each harness's final line (executions, coverage, corpus, exec/s)
# and exits 1, loudly, when any harness crashed or reported.
set -u
cd "$(dirname "$0")/../.."
runs=$1 extra=$2
shift 2
failed=()
mkdir -p build/fuzz/artifacts
for name in "$@"; do
    log=build/fuzz/$name.log
    mkdir -p "build/fuzz/corpus/$name"
    start=$(date +%s)
    # In build/fuzz/, where -jobs=N leaves its fuzz-<job>.log files.
    # shellcheck disable=SC2086 # extra holds several flags
    (cd build/fuzz && exec "./fuzz_$name" -runs="$runs" -max_total_time=0 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="artifacts/$name-" $extra \
        "corpus/$name" "../../tests/fuzz/corpus/$name") >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1)
    if [ "$rc" -ne 0 ]; then
        failed+=("$name")
        echo "== fuzz_$name: FAILED (exit $rc after ${secs} s); log: $log"
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error|deadly signal' "$log" | head -n 20
    else
        echo "== fuzz_$name: ok in ${secs} s: ${done_line:-$(tail -n 1 "$log")}"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo
    echo "FUZZING FAILED: ${failed[*]} (inputs in build/fuzz/artifacts/; reproduce with build/fuzz/fuzz_NAME FILE)"
    exit 1
fi
echo "fuzz: ${#@} harness(es), no crash, no sanitizer report, no timeout"
