#!/usr/bin/env python3
# gradescope_results.py - run_autograder's last step: the results.json
# Gradescope reads (https://gradescope-autograders.readthedocs.io/en/latest/specs/),
# from cugrade's own (already Gradescope-shaped: score, tests, extra_data,
# leaderboard), with output_format, stdout_visibility and execution_time in
# whole seconds added; or, when there was no grading, one that says why.
# Written by `cugrade export gradescope --lab @LAB@`; atomic writes.
import json
import os
import sys
import time


def write(path, results):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def elapsed(start):
    return max(0, int(round(time.time() - int(start))))


def tail(path, limit=6000):
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    return text[-limit:]


def sandbox_of(report):
    """The report header's "sandbox: ..." (bubblewrap, or why there is none)."""
    for line in report.splitlines()[:5]:
        if "sandbox:" in line:
            return line.split("sandbox:", 1)[1].strip()
    return "unknown"


def graded(out, raw, log, start):
    with open(raw) as f:
        r = json.load(f)
    report = tail(log, 60000)
    r["output"] = report if report else r.get("output", "")
    r["output_format"] = "text"
    r["test_output_format"] = "text"
    r["stdout_visibility"] = "hidden"
    r["execution_time"] = elapsed(start)
    extra = r.setdefault("extra_data", {})
    extra.setdefault("backend", "@BACKEND@")
    extra["sandbox"] = sandbox_of(report)
    if extra["sandbox"].startswith("uid"):
        print("run_autograder: graded in the sandbox's second tier (%s); see docs/security.md"
              % extra["sandbox"])
    elif not extra["sandbox"].startswith("bubblewrap"):
        print("run_autograder: WARNING: no sandbox (%s): the student's program could read "
              "the hidden datasets' secret; see docs/exports.md" % extra["sandbox"])
    for i, t in enumerate(r.get("tests", [])):
        t.setdefault("number", str(i + 1))
    write(out, r)


def fault(out, rc, log, start):
    msg = ("THE AUTOGRADER FAILED: this is not a grade. cugrade could not grade the "
           "submission (exit status %s: a fault of the grader, its toolchain or the lab's "
           "files, not of your code). Your instructor has to fix the autograder and "
           "regrade; the score below is a placeholder.\n\n%s" % (rc, tail(log)))
    write(out, {
        "score": 0,
        "execution_time": elapsed(start),
        "output": msg,
        "output_format": "text",
        "stdout_visibility": "visible",
        "extra_data": {"grader_fault": True, "exit_status": int(rc)},
        "tests": [{"name": "autograder", "number": "0", "score": 0, "max_score": 0,
                   "status": "failed", "visibility": "visible", "output": msg}],
    })


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    {"graded": graded, "fault": fault}[kind](*args)
