#!/usr/bin/env python3
"""Runs a command N times (after a prepare command) and prints its peak RSS in KiB.

The figure is the command's own, measured by GNU time (/usr/bin/time -f %M),
a small C program that forks it: a child forked from this Python process
would count Python's own pages, copied before the exec (a ~13.7 MiB floor
under every figure, a C hello world's included)."""
import os
import subprocess
import sys
import tempfile

prepare, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
peak = 0
with tempfile.NamedTemporaryFile() as out:
    for _ in range(runs):
        subprocess.run(prepare.split(), check=True)
        with open(os.devnull, "wb") as null:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *command], stdout=null, stderr=null)
        with open(out.name) as figure:
            peak = max(peak, int(figure.read().split()[-1]))
print(peak)
