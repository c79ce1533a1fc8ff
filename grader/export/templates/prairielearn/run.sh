#!/usr/bin/env bash
# run.sh - PrairieLearn's external grader entrypoint for lab @LAB@ (the
# question's tests/ folder is /grade/tests): grades /grade/student/@STUDENT_FILE@
# on cugrade's CPU emulator, with the hidden datasets drawn from the secret in
# tests/ (never in the student's view: cugrade's sandbox shows the program
# only its build), and writes /grade/results/results.json in PrairieLearn's
# format (pl_results.py). A compile error is not gradable (no attempt used).
# Written by `cugrade export prairielearn --lab @LAB@`.
#   PL_GRADE_ROOT /grade     CUGRADE_HOME /opt/cugrade (the image's cugrade)
set -euo pipefail

grade=${PL_GRADE_ROOT:-/grade}
home=${CUGRADE_HOME:-/opt/cugrade}
lab=@LAB@
file=@STUDENT_FILE@
tests=$grade/tests
res=$grade/results
mkdir -p "$res"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The lab's reference (cugrade builds it to tell its own faults from the
# student's) travels in tests/, private to the course, not in the image.
if [ ! -e "$home/reference/$lab/$file" ] && [ -d "$tests/reference/$lab" ]; then
    mkdir -p "$home/reference"
    cp -r "$tests/reference/$lab" "$home/reference/$lab"
fi

sub=$grade/student/$file
if [ ! -f "$sub" ]; then
    python3 "$tests/pl_results.py" missing "$res/results.json" "$file"
    exit 0
fi
rc=0
"$home/bin/cugrade" run --lab "$lab" --backend emu --color never \
    --hidden-seed "$tests/hidden-seed" --json "$work/results.json" "$sub" >"$work/log" 2>&1 || rc=$?
cat "$work/log"
if [ "$rc" -eq 0 ] && [ -f "$work/results.json" ]; then
    python3 "$tests/pl_results.py" graded "$res/results.json" "$work/results.json" "$work/log" \
        "$home/rubric.json" "$lab" "$file"
else
    python3 "$tests/pl_results.py" fault "$res/results.json" "$rc" "$work/log"
fi
