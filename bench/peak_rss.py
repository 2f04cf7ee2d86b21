#!/usr/bin/env python3
"""Runs a command N times (after a prepare command) and prints its peak RSS in KiB."""
import resource
import subprocess
import sys

prepare, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
peak = 0
for _ in range(runs):
    subprocess.run(prepare.split(), check=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(peak)
