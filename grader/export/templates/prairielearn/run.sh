#!/usr/bin/env bash
# run.sh - PrairieLearn's external grader entrypoint for lab @LAB@ (the
# question's tests/ folder is /grade/tests): grades /grade/student/@STUDENT_FILE@
# on cugrade's @BACKEND@ backend (vgpu: the executor, with the nvcc named in
# $CUGRADE_HOME/cugrade.env; emu: the CPU emulator), with the hidden datasets drawn from the secret in
# tests/ (never in the student's view: cugrade's sandbox shows the program
# only its build), and writes /grade/results/results.json in PrairieLearn's
# format (pl_results.py). A compile error is not gradable (no attempt used).
# Written by `cugrade export prairielearn --lab @LAB@`.
# Reads /grade/student/ (else /grade/data/data.json), /grade/tests/.
#   PL_GRADE_ROOT /grade     CUGRADE_HOME /opt/cugrade (the image's cugrade)
set -euo pipefail

grade=${PL_GRADE_ROOT:-/grade}
home=${CUGRADE_HOME:-/opt/cugrade}
lab=@LAB@
file=@STUDENT_FILE@
tests=$grade/tests
res=$grade/results
mkdir -p "$res"
work=$(mktemp -d) # work/out: cugrade's results (hidden from the student's program), work/sub
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/out" "$work/sub"
if [ -f "$home/cugrade.env" ]; then
    # shellcheck source=/dev/null # written when the image was built: CUGRADE_NVCC
    . "$home/cugrade.env"
    export CUGRADE_NVCC
fi

# The lab's reference (cugrade builds it to tell its own faults from the
# student's) travels in tests/, private to the course, not in the image.
if [ ! -e "$home/reference/$lab/$file" ] && [ -d "$tests/reference/$lab" ]; then
    mkdir -p "$home/reference"
    cp -r "$tests/reference/$lab" "$home/reference/$lab"
fi

# The editor's file is in /grade/student/; else it is taken from
# /grade/data/data.json (submitted_answers._files).
sub=$grade/student/$file
if [ ! -f "$sub" ] && [ -f "$grade/data/data.json" ] &&
    python3 "$tests/pl_results.py" extract "$grade/data/data.json" "$file" "$work/sub/$file"; then
    sub=$work/sub/$file
fi
if [ ! -f "$sub" ]; then
    python3 "$tests/pl_results.py" missing "$res/results.json" "$file"
    exit 0
fi
rc=0
"$home/bin/cugrade" run --lab "$lab" --backend @BACKEND@ --color never \
    --hidden-seed "$tests/hidden-seed" --json "$work/out/results.json" "$sub" >"$work/out/log" 2>&1 || rc=$?
cat "$work/out/log"
if [ "$rc" -eq 0 ] && [ -f "$work/out/results.json" ]; then
    python3 "$tests/pl_results.py" graded "$res/results.json" "$work/out/results.json" "$work/out/log" \
        "$home/rubric.json" "$lab" "$file"
else
    python3 "$tests/pl_results.py" fault "$res/results.json" "$rc" "$work/out/log"
fi
