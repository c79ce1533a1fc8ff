#!/usr/bin/env bash
# run_all.sh - run every Criterion test binary given on the command line, show
# each one's result, and close with one line "N passed, N failed" over all.
# A failed program's report is shown where it ran and again, in short, at the
# end, so that the last lines of a long log (all a CI page may keep) name it.
# The emulator's semantic tests (test_emu_*) run twice: with fibers scheduled
# forward and in reverse, so no test passes only because of one order.
# Exits non-zero if any test failed or crashed, or a binary did not run.
set -u
total_pass=0 total_fail=0 broken=0
runs=()
# A Criterion log less its progress lines: what failed, where, and why.
failure_lines() { grep -vE '^\[----\] *$|^\[RUN \]|^\[PASS\]' "$1"; }
recap=$(mktemp)
trap 'rm -f "$recap"' EXIT
for bin in "$@"; do
    runs+=("forward:$bin")
    case "$(basename "$bin")" in test_emu_*) runs+=("reverse:$bin") ;; esac
done
for run in "${runs[@]}"; do
    schedule=${run%%:*} bin=${run#*:}
    name=$(basename "$bin")
    [ "$schedule" = reverse ] && name="$name (reverse schedule)"
    log=$(mktemp)
    CUGRADE_EMU_SCHEDULE=$schedule "$bin" --color=never >"$log" 2>&1
    rc=$?
    line=$(grep -E 'Synthesis: Tested: ' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "== $name: no Criterion summary (exit $rc)"
        tail -n 30 "$log"
        { echo "== $name: no Criterion summary (exit $rc)"; tail -n 8 "$log"; } >>"$recap"
        broken=$((broken + 1))
        rm -f "$log"
        continue
    fi
    pass=$(sed -E 's/.*Passing: ([0-9]+).*/\1/' <<<"$line")
    fail=$(sed -E 's/.*Failing: ([0-9]+).*/\1/' <<<"$line")
    crash=$(sed -E 's/.*Crashing: ([0-9]+).*/\1/' <<<"$line")
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail + crash))
    if [ "$rc" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$crash" -ne 0 ]; then
        echo "== $name: FAILED ($pass passed, $fail failed, $crash crashed)"
        failure_lines "$log" | tail -n 60
        { echo "== $name: FAILED ($pass passed, $fail failed, $crash crashed)"
          failure_lines "$log" | grep -v '^\[====\]' | head -n 12
        } >>"$recap"
        [ "$fail" -eq 0 ] && [ "$crash" -eq 0 ] && broken=$((broken + 1))
    else
        echo "== $name: $pass passed"
    fi
    rm -f "$log"
done
echo
if [ -s "$recap" ]; then
    echo "What failed (in full above):"
    cat "$recap"
    echo
fi
[ "$broken" -gt 0 ] && echo "$broken test program(s) did not run cleanly"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$broken" -eq 0 ]
