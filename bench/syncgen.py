#!/usr/bin/env python3
"""Generates a sync remote (a folder) holding NEW events from REPLICAS other
replicas for a board made by eventlog.py: moves and edits of its tasks (each
replica saw the board as it is, so replicas touching the same task conflict,
as concurrent offline work does) and some new tasks, all after the board's
last event.

usage: syncgen.py BOARD_DIR REMOTE_DIR NEW REPLICAS
"""
import datetime
import json
import os
import random
import sys

STATES = ["todo", "doing", "done"]


def main(board_dir: str, remote: str, count: int, replicas: int) -> None:
    board = json.load(open(f"{board_dir}/board.json", encoding="utf-8"))
    tasks = board["tasks"]
    rng = random.Random(11)
    start = board["log"]["clock"][0] + 60_000
    os.makedirs(f"{remote}/events", exist_ok=True)
    with open(f"{remote}/pm-board.json", "w") as f:
        f.write(json.dumps({"board": board["id"], "format": 1}) + "\n")
    for r in range(replicas):
        replica = f"{0xC0 + r:08x}-0000-4000-8000-{r:012x}"
        lines = []
        for n in range(count // replicas + (1 if r < count % replicas else 0)):
            ms = start + n * 1000 + r
            iso = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
            event_id = f"{0xD0 + r:08x}-0000-4000-8000-{n:012x}"
            if n % 10 == 0:
                task_id = f"{0xF0 + r:08x}-0000-4000-8000-{n:012x}"
                fields = {"body": {"new": "", "old": None}, "createdAt": {"new": iso, "old": None}, "due": {"new": None, "old": None},
                          "state": {"new": "todo", "old": None}, "title": {"new": f"synced {r}-{n}", "old": None}}
                kind, title = "created", f"synced {r}-{n}"
            else:
                task = rng.choice(tasks)
                task_id, title = task["id"], task["title"]
                if n % 2:
                    new = STATES[(STATES.index(task["state"]) + 1 + r % 2) % 3]
                    fields, kind = {"state": {"new": new, "old": task["state"]}}, "moved"
                else:
                    fields, kind = {"body": {"new": f"replica {r} note {n}", "old": task["body"]}}, "edited"
            event = {"at": iso, "by": f"remote{r}", "fields": fields, "hlc": [ms, 0], "id": event_id, "kind": kind,
                     "replica": replica, "task": task_id, "title": title}
            lines.append(json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        with open(f"{remote}/events/{replica}.jsonl", "w", encoding="utf-8") as f:
            f.write("".join(lines))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
