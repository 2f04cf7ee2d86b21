#!/usr/bin/env python3
"""Runs a command N times (after a prepare command) and prints its peak RSS in KiB.

The figure is the command's own, from wait4's rusage of that child alone:
RUSAGE_CHILDREN would be the largest of every child so far, the prepare
command's included (which set a ~13.7 MiB floor under every figure)."""
import os
import subprocess
import sys

prepare, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
peak = 0
for _ in range(runs):
    subprocess.run(prepare.split(), check=True)
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=null)
        _, _, usage = os.wait4(child.pid, 0)
        child.returncode = 0  # reaped here: keep Popen from waiting again
    peak = max(peak, usage.ru_maxrss)
print(peak)
