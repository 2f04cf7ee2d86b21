#!/usr/bin/env python3
"""Times commands interleaved, not in blocks: each round runs every command
once, each after its own prepare script, in an order that alternates from
round to round (A B, then B A), so that whatever drifts on a shared machine
(other jobs, the page cache, the CPU's clock) falls on every command alike.

usage: pair.py RUNS WARMUP OUT.json PREPARE COMMAND [PREPARE COMMAND ...]

PREPARE is a shell script's path (run with bash, untimed); COMMAND a command
line, split on spaces and started without a shell, its output thrown away.
Writes {"results": [{"command", "median", "times"}, ...]} as hyperfine does.
A command that exits non-zero stops the bench: its output is shown."""
import json
import os
import statistics
import subprocess
import sys
import time


def run(command, show=False):
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        done = subprocess.run(command, stdout=None if show else null, stderr=None if show else null)
        elapsed = time.perf_counter() - start
    return elapsed, done.returncode


def main():
    runs, warmup, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rest = sys.argv[4:]
    if not rest or len(rest) % 2:
        sys.exit("usage: pair.py RUNS WARMUP OUT.json PREPARE COMMAND [PREPARE COMMAND ...]")
    pairs = [(rest[i], rest[i + 1].split()) for i in range(0, len(rest), 2)]
    times = [[] for _ in pairs]
    for round_ in range(warmup + runs):
        order = list(range(len(pairs)))
        if round_ % 2:
            order.reverse()
        for index in order:
            prepare, command = pairs[index]
            subprocess.run(["bash", prepare], check=True)
            elapsed, status = run(command)
            if status != 0:
                subprocess.run(["bash", prepare], check=True)
                run(command, show=True)
                sys.exit(f"pair.py: {' '.join(command)} exited {status}")
            if round_ >= warmup:
                times[index].append(elapsed)
    results = [{"command": " ".join(command), "median": statistics.median(t), "times": t}
               for (_, command), t in zip(pairs, times)]
    with open(out, "w") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main()
