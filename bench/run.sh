#!/usr/bin/env bash
# bench/run.sh - `make bench`: the emulator's speed numbers, printed.
#  1. Grading the reference on every shipped lab 3 dataset with the emulator
#     (wall time of the whole `cugrade run`, compile included), without the
#     checks (target <= 10 s on a 2-core machine) and with them (<= 20 s).
#  2. Emulator overhead: the reference tiled kernel (reference/lab3/matmul.cu)
#     at 512x512x512 on the emulator against a plain C triple loop of the same
#     shape, one thread: plain build (target <= 10x) and checked build,
#     emucc --checks (target <= 40x; the loop itself is timed uninstrumented).
# BENCH_REPS=N runs (default 3; the best is printed).
#
# Every number printed was checked before it is shown (bench/lib.sh has the
# exit statuses: 0 ok, 1 a step failed or a result is wrong, 2 cannot start):
#  - needs bin/cugrade, bin/emucc, build/libcugrade_emu.a (`make`) and emucc's
#    C++ compiler (CUGRADE_CXX, default g++); says which is missing, exit 2;
#  - every `cugrade run` must exit 0, and its grade of the reference must be
#    everything the emu backend gives: every dataset passed and "Score: X / Y"
#    with X == Y (with --checks none the checks are not run and score 0, so X
#    must be Y less exactly their points); else exit 1 with the log's tail;
#  - every emucc build must succeed, and the overhead program must exit 0,
#    print both times and "ratio: Rx; products agree", and the emulator must
#    report no error in the reference kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/lib.sh
. bench/lib.sh

reps=${BENCH_REPS:-3}
is_count "$reps" || bench_cannot_start "BENCH_REPS must be a whole number >= 1, not '$reps'"
need_built CUGRADE_BIN "$cugrade" x
need_built EMUCC_BIN "$emucc" x
need_built CUGRADE_EMU_LIB "$emu_lib" f
cxx=${CUGRADE_CXX:-g++}
cxx=${cxx%% *}
need_tool "$cxx" "bin/emucc compiles with it (CUGRADE_CXX, default g++): install g++ (tools/deps.sh grade)"
cxx_version=$("$cxx" --version 2>&1) || bench_cannot_start "$cxx --version exited with status $?"

tmp=$(mktemp -d /tmp/cugrade-bench-run-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "machine: $(nproc) cores, $(uname -m), ${cxx_version%%$'\n'*}"
echo

# reference_grade LOG CHECKS: prints "Score: X / Y ..." when the log of a
# `cugrade run` of the reference has every point the emu backend can give
# (exit 0), else what is wrong (exit 1).
reference_grade() {
    awk -v checks="$2" '
    function flush() { if (pending != "") { bad = bad sep pending; sep = "; " }; pending = "" }
    /^  (PASS|FAIL|SKIP) +[0-9.]+\/[0-9.]+ / {
        flush()
        split($2, pts, "/")
        name = $0
        sub(/^  [A-Z]+ +[0-9.]+\/[0-9.]+ +/, "", name)
        if ($1 == "FAIL") { pending = "FAIL " name; pending_max = pts[2] }
        next
    }
    pending != "" && checks == "none" && /not run: the checks were switched off/ {
        off += pending_max; noff++; pending = ""; next
    }
    /^  Score: [0-9.]+ \/ [0-9.]+/ {
        flush()
        nscore++; got = $2; max = $4
        if ($6 == "of" && $8 == "datasets") { dpass = $5; sub(/^\(/, "", dpass); dtotal = $7 }
    }
    END {
        flush()
        if (nscore != 1) { print "no \"Score: X / Y\" line in the output"; exit 1 }
        if (bad != "") { print "not every test passed: " bad; exit 1 }
        if (dtotal == "" || dtotal + 0 < 1 || dpass != dtotal) {
            print "not every dataset passed (" dpass " of " dtotal ")"; exit 1
        }
        d = got + off - max
        if (d > 1e-6 || d < -1e-6) {
            printf "Score: %s / %s is not full marks", got, max
            if (off > 0) printf " (%s points of checks not run)", off
            print ""; exit 1
        }
        printf "Score: %s / %s, %s of %s datasets", got, max, dpass, dtotal
        if (noff > 0) printf "; the %d checks (%s points) not run", noff, off
        print ""
    }' "$1"
}

grade_bench() { # $1: --checks value, $2: target
    echo "1. grade the reference on every shipped lab 3 dataset (emu backend, --checks $1), $reps runs"
    local best="" i t t0 t1 log grade
    for i in $(seq "$reps"); do
        log=$tmp/grade-$1-$i.log
        t0=$(date +%s.%N)
        run_step "run $i: cugrade run --backend emu --checks $1 reference" "$log" \
            "$cugrade" run --lab lab3 --backend emu --checks "$1" --color never --verbose reference
        t1=$(date +%s.%N)
        grade=$(reference_grade "$log" "$1") ||
            bench_fail "run $i: the reference's grade (--checks $1) is not full marks: $grade" "$log"
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
        printf "   run %d: %.2f s   (%s)\n" "$i" "$t" "$grade"
        if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    printf "   best: %.2f s (target <= %s)\n\n" "$best" "$2"
}

# overhead WHAT PROGRAM [ENV...]: runs PROGRAM 512 512 512 REPS (with ENV),
# checks that it exited 0, printed both times and "products agree", and that
# the emulator reported no error (the reference has none), then prints its
# report (stdout; the emulator's notes on stderr are not shown).
overhead() {
    local what=$1 prog=$2 out=$tmp/overhead.out err=$tmp/overhead.err rc=0
    shift 2
    env "$@" "$prog" 512 512 512 "$reps" >"$out" 2>"$err" || rc=$?
    cat "$out" "$err" >"$tmp/overhead.log"
    [ "$rc" -eq 0 ] || bench_fail "$what: the overhead program exited with status $rc" "$tmp/overhead.log"
    local num='[0-9]+(\.[0-9]+)?'
    if ! grep -Eq "^   emulator \(tiled kernel\): +$num s$" "$out" ||
        ! grep -Eq "^   plain C triple loop: +$num s$" "$out" ||
        ! grep -Eq "^   ratio: ${num}x; products agree$" "$out"; then
        bench_fail "$what: the overhead program did not print both times and \"ratio: Rx; products agree\"" \
            "$tmp/overhead.log"
    fi
    if grep -q '^cugrade-emu: error:' "$err"; then
        bench_fail "$what: the emulator reported errors in the reference kernel" "$tmp/overhead.log"
    fi
    cat "$out"
}

grade_bench none "10 s"
grade_bench all "20 s"

echo "2. emulator overhead at 512x512x512: reference tiled kernel vs plain C triple loop"
run_step "emucc (bench/emu_overhead.cu + reference/lab3/matmul.cu, plain build)" "$tmp/build.log" \
    "$emucc" -O2 -Ilabs/common bench/emu_overhead.cu reference/lab3/matmul.cu -o "$tmp/emu_overhead"
overhead "plain build" "$tmp/emu_overhead"
echo "   (target <= 10x)"
echo
echo "3. the same with the checks on (emucc --checks: races, memory, traffic)"
run_step "emucc -c bench/emu_overhead.cu" "$tmp/build.log" \
    "$emucc" -c -O2 -Ilabs/common bench/emu_overhead.cu -o "$tmp/emu_overhead_main.o"
run_step "emucc -c --checks reference/lab3/matmul.cu" "$tmp/build.log" \
    "$emucc" -c --checks -Ilabs/common reference/lab3/matmul.cu -o "$tmp/matmul_checked.o"
run_step "emucc (link of the checked build)" "$tmp/build.log" \
    "$emucc" "$tmp/emu_overhead_main.o" "$tmp/matmul_checked.o" -o "$tmp/emu_overhead_checked"
overhead "checked build" "$tmp/emu_overhead_checked" CUGRADE_EMU_DIAG=/dev/null
echo "   (target <= 40x)"
