#!/usr/bin/env python3
"""Prints BENCH.md's target table with the figures bench/run measured in this
run (read from the figures file it writes), each marked met or not met.

usage: targets.py FIGURES"""
import sys

pairs, logs, team, fsyncs, bursts = {}, {}, {}, {}, {}
binary = sync = board = interleaved = None
for line in open(sys.argv[1]):
    f = line.split()
    if not f:
        continue
    if f[0] == "pair":
        n, name, pm, tw, pmrss, twrss = int(f[1]), f[2], *map(float, f[3:])
        pairs[(n, name)] = (pm, tw, pmrss, twrss)
    elif f[0] == "fsyncs":
        fsyncs[(int(f[1]), f[2])] = int(f[3])
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
    elif f[0] == "flat":
        interleaved = (float(f[1]), float(f[2]))
    elif f[0] == "burst":
        bursts[int(f[1])] = float(f[2])

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


lists = [ratio(n, "list") for n in (10000, 100000)]
row("`pm list`, 10k / 100k tasks", " / ".join(fmt(r) for r in lists) + " `task list`", "≤ 0.15×",
    None if None in lists else all(r <= 0.15 for r in lists))
changes = [ratio(10000, k) for k in ("add", "move", "edit", "undo")]
row("`pm add` / `move` / `edit` / `undo`, 10k, with fsync (Taskwarrior: none)", " / ".join(fmt(c) for c in changes),
    "≤ 0.25×", None if None in changes else all(c <= 0.25 for c in changes))
counted = [fsyncs.get((10000, k)) for k in ("add", "move", "edit", "undo")]
row("fsyncs per `pm add` / `move` / `edit` / `undo`, 10k, as counted (strace)",
    " / ".join("not measured" if c is None else str(c) for c in counted), "stated (at least 1: the log's append)",
    None if None in counted else all(c >= 1 for c in counted))
# The same move at both sizes, interleaved run by run; else the two sizes' own runs.
flat = [pairs.get((n, "move")) for n in (1000, 100000)]
growth = interleaved[1] / interleaved[0] if interleaved else None if None in flat else flat[1][0] / flat[0][0]
row("a change on 100k tasks vs the same on 1k (`pm move`" + (", interleaved)" if interleaved else ")"), fmt(growth), "≤ 2×",
    at_most(growth, 2.0))
burst = bursts[100000] / bursts[1000] if 100000 in bursts and 1000 in bursts else None
row("the same, 256 moves in a row with the checkpoints they pay for",
    f"{fmt(burst)} ({bursts[100000] * 1000:.1f} vs {bursts[1000] * 1000:.1f} ms a move)" if burst else fmt(burst), "≤ 2×",
    at_most(burst, 2.0))
r = ratio(10000, "history")
flat = logs.get("history")
growth = None if flat is None else flat[1] / flat[0]
row("`pm history --limit 20`", f"{fmt(r)} `task 5 info`; log 10× longer: {fmt(growth)}",
    "≤ 0.15×; flat in log length", None if r is None or growth is None else r <= 0.15 and growth <= 1.1)
grown = [logs[k][1] / logs[k][0] for k in ("add", "edit", "list") if k in logs]
row("a change and a list, log 10× longer (same tasks, undo state carried over)",
    " / ".join(f"{(g - 1) * 100:+.0f}%" for g in grown) + " (add / edit / list)" if grown else "not measured", "≤ +10%",
    None if not grown else all(g <= 1.10 for g in grown))
small = pairs.get((1000, "add"))
team_add = None if small is None or "add" not in team else team["add"] / small[0]
team_list = team.get("list-vs-task")
row("two-year team board (20k tasks, 100k events): add vs an add on 1k tasks; list vs `task list` on 20k",
    f"{fmt(team_add)} ({fmt(team.get('add'), 'ms')}); {fmt(team_list)} ({fmt(team.get('list'), 'ms')})",
    "≤ 2×; list ≤ 0.15×",
    None if team_add is None or team_list is None else team_add <= 2.0 and team_list <= 0.15)
versions = [ratio(n, "version") for n in (1000, 10000, 100000) if (n, "version") in pairs]
v = sorted(versions)[len(versions) // 2] if versions else None
row("`pm --version`", fmt(v) + " (median of the sizes' runs)", "≤ 1.0×", at_most(v, 1.0))
rss = [(pairs[(n, k)][2] / pairs[(n, k)][3], f"{k} at {n // 1000}k") for (n, k) in pairs]
worst = max(rss) if rss else None
row("peak RSS, every command, 1k–100k", "not measured" if worst is None else f"{worst[0]:.2f}× (worst: {worst[1]})",
    "≤ 1.0× Taskwarrior's (child alone)", None if worst is None else worst[0] <= 1.0)
row("static binary", "not measured" if binary is None else
    f"{binary[1] / 1e6:.1f} MB stripped, as installed ({binary[0] / 1e6:.1f} MB with symbols)", "≤ 12 MB",
    None if binary is None else binary[1] <= 12e6)
row("`pm sync` of 1,000 new events from 3 replicas, folder remote", fmt(sync, "ms"), "≤ 0.5 s", at_most(sync, 0.5))
row("`pm board`: key to repainted screen, 10k tasks", "not measured" if board is None else f"{board:.1f} ms", "≤ 16 ms",
    at_most(board, 16))

print()
print("### BENCH.md's targets, measured in this run")
print()
print("| measure | this run | the goal | |")
print("|---|---|---|---|")
print("\n".join(rows))
