#!/usr/bin/env python3
# pl_results.py - the results.json PrairieLearn's external grader reads
# (docs: externalGrading, "Grading results"): gradable, score in 0..1,
# message, output, tests[] (name, points, max_points, output, message), from
# cugrade's Gradescope-shaped results.json. A compile error is not gradable
# (the compiler's message in message and format_errors); a grader fault is not
# gradable either, and says so. Written by `cugrade export prairielearn
# --lab @LAB@`; atomic writes.
import json
import os
import sys

# what grades the question (cugrade export prairielearn --backend)
GRADED_ON = "CPU emulator" if "@BACKEND@" == "emu" else "executor (nvcc's PTX, no GPU)"


def write(path, results):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def tail(path, limit=8000):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-limit:]
    except OSError:
        return ""


def compile_test_name(rubric, lab):
    try:
        with open(rubric) as f:
            return json.load(f)["labs"][lab]["compile"]["name"]
    except (OSError, KeyError, ValueError, TypeError):
        return "compiles"


def pl_test(t):
    out = t.get("output") or ""
    first = out.strip().splitlines()[0] if out.strip() else ""
    return {
        "name": t.get("name", ""),
        "points": float(t.get("score", 0)),
        "max_points": float(t.get("max_score", 0)),
        "output": out,
        "message": ("passed" if t.get("status") == "passed" else "failed")
        + (": " + first if first else ""),
    }


def graded(out, raw, log, rubric, lab, file):
    with open(raw) as f:
        r = json.load(f)
    tests = r.get("tests", [])
    comp = compile_test_name(rubric, lab)
    broken = [t for t in tests if t.get("name") == comp and t.get("status") != "passed"]
    if broken:
        msg = broken[0].get("output") or "the file does not compile"
        write(out, {"gradable": False, "score": 0.0,
                    "message": "Your code does not compile (no attempt was used):\n" + msg,
                    "output": tail(log), "tests": [],
                    "format_errors": {file: msg}})
        return
    got = sum(float(t.get("score", 0)) for t in tests)
    best = sum(float(t.get("max_score", 0)) for t in tests)
    score = min(1.0, max(0.0, got / best)) if best > 0 else 0.0
    write(out, {"gradable": True, "score": score,
                "message": "%g / %g points on cugrade's %s" % (got, best, GRADED_ON),
                "output": tail(log, 60000), "tests": [pl_test(t) for t in tests],
                "format_errors": {}})


def fault(out, rc, log):
    msg = ("The autograder failed (cugrade exit status %s): a fault of the grader, not of "
           "your code; no attempt was used. Tell your instructor." % rc)
    write(out, {"gradable": False, "score": 0.0, "message": msg, "output": tail(log),
                "tests": [], "format_errors": {"_grader": msg}})


def extract(data, file, dest):
    """The file from /grade/data/data.json (submitted_answers._files: name and
    base64 contents), for a grader run without /grade/student/FILE."""
    import base64
    with open(data) as f:
        files = json.load(f).get("submitted_answers", {}).get("_files", [])
    for entry in files:
        if entry.get("name") == file:
            with open(dest, "wb") as f:
                f.write(base64.b64decode(entry.get("contents", "")))
            return
    sys.exit(1)


def missing(out, file):
    msg = "No %s was submitted." % file
    write(out, {"gradable": False, "score": 0.0, "message": msg, "output": "", "tests": [],
                "format_errors": {file: msg}})


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    {"graded": graded, "fault": fault, "missing": missing, "extract": extract}[kind](*args)
