#!/usr/bin/env python3
"""gpu_holds_split.py - where a GPU's time went in a batch, from its queue's
log of holds (grader/run/gpuqueue.h: "REQUESTED GRANTED RELEASED S|X PID
LABEL" a line): the time the GPU was held alone, shared while a timed run
waited for it (the drain: the shared holders finishing while newcomers are
kept out), shared with no timed run waiting, and held by nobody, between
its first request and its last release.

Usage: bench/gpu_holds_split.py QUEUE_DIR [ORIGIN]
  QUEUE_DIR: a batch's .gpu-queue folder; ORIGIN: the batch's start on
  CLOCK_MONOTONIC (the log's clock, grader/util/util.c now_seconds), to say
  when each GPU's first request and last release came after it.

Prints one line a GPU; exit 1 when the folder holds no log."""
import glob
import os
import sys


def split(lines):
    """Seconds alone, drained, shared and idle, the first request and the
    last release, and the number of holds, of one log."""
    holds = []
    for line in lines:
        f = line.split()
        if len(f) >= 4 and f[3] in ("S", "X"):
            holds.append((float(f[0]), float(f[1]), float(f[2]), f[3]))
    if not holds:
        return None
    events = []  # (time, kind, +1/-1): held shared, held alone, timed run waiting
    for req, got, rel, use in holds:
        events.append((got, use, 1))
        events.append((rel, use, -1))
        if use == "X" and got > req:
            events.append((req, "W", 1))
            events.append((got, "W", -1))
    events.sort()
    count = {"S": 0, "X": 0, "W": 0}
    total = {"alone": 0.0, "drain": 0.0, "shared": 0.0, "idle": 0.0}
    start = min(h[0] for h in holds)
    end = max(h[2] for h in holds)
    last = start
    for t, kind, step in events:
        dt = t - last
        if dt > 0:
            if count["X"] > 0:
                total["alone"] += dt
            elif count["S"] > 0 and count["W"] > 0:
                total["drain"] += dt
            elif count["S"] > 0:
                total["shared"] += dt
            else:
                total["idle"] += dt
        count[kind] += step
        last = t
    return total, start, end, len(holds)


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    origin = float(argv[2]) if len(argv) == 3 else None
    logs = sorted(glob.glob(os.path.join(argv[1], "gpu*.holds")))
    shown = 0
    for path in logs:
        with open(path) as f:
            r = split(f.readlines())
        if not r:
            continue
        total, start, end, n = r
        span = end - start
        name = os.path.basename(path)[: -len(".holds")]
        parts = ", ".join(f"{k} {v:.1f} s ({100 * v / span:.0f}%)" for k, v in total.items())
        when = ""
        if origin is not None:
            when = f"; from {start - origin:.1f} s to {end - origin:.1f} s after the batch's start"
        print(f"{name}: {n} holds over {span:.1f} s: {parts}{when}")
        shown += 1
    return 0 if shown else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
