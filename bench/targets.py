#!/usr/bin/env python3
"""Prints BENCH.md's target table with the figures bench/run measured in this
run (read from the figures file it writes), each marked met or not met.

usage: targets.py FIGURES"""
import sys

pairs, logs, team = {}, {}, {}
binary = sync = board = None
for line in open(sys.argv[1]):
    f = line.split()
    if not f:
        continue
    if f[0] == "pair":
        n, name, pm, tw, pmrss, twrss = int(f[1]), f[2], *map(float, f[3:])
        pairs[(n, name)] = (pm, tw, pmrss, twrss)
    elif f[0] == "log":
        logs[f[1]] = (float(f[2]), float(f[3]))
    elif f[0] == "team":
        team[f[1]] = float(f[2])
    elif f[0] == "binary":
        binary = (int(f[1]), int(f[2]))
    elif f[0] == "sync":
        sync = float(f[1])
    elif f[0] == "board":
        board = float(f[1])

rows = []


def row(measure, figure, goal, met):
    verdict = "—" if met is None else ("met" if met else "not met")
    rows.append(f"| {measure} | {figure} | {goal} | {verdict} |")


def ratio(n, name):
    p = pairs.get((n, name))
    return None if p is None else p[0] / p[1]


def fmt(value, unit="x"):
    return "not measured" if value is None else (f"{value:.2f}{unit}" if unit == "x" else f"{value * 1000:.0f} ms")


def at_most(value, limit):
    return None if value is None else value <= limit


r = ratio(10000, "list")
row("`pm list`, 10k tasks", fmt(r) + " `task list`", "≤ 0.2×", at_most(r, 0.2))
changes = [ratio(10000, k) for k in ("add", "move", "edit")]
row("`pm add` / `move` / `edit`, 10k, with fsync (Taskwarrior: none)", " / ".join(fmt(c) for c in changes), "≤ 0.5×",
    None if None in changes else all(c <= 0.5 for c in changes))
r = ratio(10000, "undo")
row("`pm undo`, 10k", fmt(r), "≤ 0.5×", at_most(r, 0.5))
r = ratio(10000, "history")
flat = logs.get("history")
growth = None if flat is None else flat[1] / flat[0]
row("`pm history --limit 20`", f"{fmt(r)} `task 5 info`; log 10× longer: {fmt(growth)}",
    "≤ 0.2×; flat in log length", None if r is None or growth is None else r <= 0.2 and growth <= 1.1)
grown = [logs[k][1] / logs[k][0] for k in ("add", "edit") if k in logs]
row("any change, log 10× longer (same tasks)",
    " / ".join(f"{(g - 1) * 100:+.0f}%" for g in grown) + " (add / edit)" if grown else "not measured", "≤ +10%",
    None if not grown else all(g <= 1.10 for g in grown))
row("two-year team board (20k tasks, 100k events): add / list",
    f"{fmt(team.get('add'), 'ms')} / {fmt(team.get('list'), 'ms')}", "≤ 30 / ≤ 60 ms",
    None if "add" not in team or "list" not in team else team["add"] <= 0.030 and team["list"] <= 0.060)
versions = [ratio(n, "version") for n in (1000, 10000, 100000) if (n, "version") in pairs]
v = sorted(versions)[len(versions) // 2] if versions else None
row("`pm --version`", fmt(v) + " (median of the sizes' runs)", "≤ 1.0×", at_most(v, 1.0))
rss = [(pairs[(10000, k)][2] / pairs[(10000, k)][3], k) for (n, k) in pairs if n == 10000]
worst = max(rss) if rss else None
row("peak RSS, any command, 10k", "not measured" if worst is None else f"{worst[0]:.2f}× (worst: {worst[1]})",
    "≤ 1.0× Taskwarrior's (child alone)", None if worst is None else worst[0] <= 1.0)
row("static binary", "not measured" if binary is None else
    f"{binary[1] / 1e6:.1f} MB stripped, as installed ({binary[0] / 1e6:.1f} MB with symbols)", "≤ 15 MB",
    None if binary is None else binary[1] <= 15e6)
big = [pairs.get((100000, k)) for k in ("list", "move")]
row("100k tasks: `pm list` / `pm move`", " / ".join("not measured" if b is None else f"{b[0]:.2f} s" for b in big),
    "≤ 0.3 s / ≤ 0.1 s", None if None in big else big[0][0] <= 0.3 and big[1][0] <= 0.1)
row("`pm sync` of 1,000 new events from 3 replicas, folder remote", fmt(sync, "ms"), "≤ 0.5 s", at_most(sync, 0.5))
row("`pm board`: key to repainted screen, 10k tasks", "not measured" if board is None else f"{board:.1f} ms", "≤ 16 ms",
    at_most(board, 16))

print()
print("### BENCH.md's targets, measured in this run")
print()
print("| measure | this run | the goal | |")
print("|---|---|---|---|")
print("\n".join(rows))
