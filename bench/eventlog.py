#!/usr/bin/env python3
"""Generates a pm board in the event-log format (schema 2): board.json and
board.events.jsonl beside it, consistent (board.json is the fold of the log),
and the history's marks (board.events.marks).

usage: eventlog.py TASKS EVENTS_PER_TASK PEOPLE DIR

Each task is created, then edited and moved EVENTS_PER_TASK - 1 times by
PEOPLE people over two years, so the same tasks can carry a short or a long
log. Deterministic: task k has the UUID f"{k:08x}-...".
"""
import datetime
import json
import random
import sys

STATES = ["todo", "doing", "done"]


def uuid(prefix: int, n: int) -> str:
    return f"{prefix:08x}-0000-4000-8000-{n:012x}"


def main(count: int, per_task: int, people: int, directory: str) -> None:
    rng = random.Random(7)
    words = ["report", "review", "deploy", "meeting", "design", "budget", "release", "검토", "회의", "디자인", "équipe", "réunion"]
    start_ms = 1_700_000_000_000  # two years before the bench's PM_NOW
    span_ms = 2 * 365 * 86_400_000
    total = count * per_task
    tasks = {}
    lines = []
    last_id = None
    for n in range(total):
        ms = start_ms + span_ms * n // total
        k = n % count + 1 if n >= count else n + 1
        task_id = uuid(k, k)
        event_id = uuid(0xE0000000 + n // 0xFFFFFFFF, n + 1)
        moment = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
        iso = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
        author = f"person{n % people}"
        if task_id not in tasks:
            title = " ".join(rng.choice(words) for _ in range(4))[:30] + f" {k}"
            task = {"body": ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4)[:200], "createdAt": iso,
                    "due": f"2026-{(k % 12) + 1:02d}-{(k % 28) + 1:02d}" if k % 2 else None, "id": task_id,
                    "state": "todo", "title": title, "updatedAt": iso}
            tasks[task_id] = task
            fields = {name: {"new": task[name], "old": None} for name in ("body", "createdAt", "due", "state", "title")}
            kind = "created"
        elif n % 3 == 0:
            task = tasks[task_id]
            new = STATES[(STATES.index(task["state"]) + 1) % 3]
            fields = {"state": {"new": new, "old": task["state"]}}
            task["state"] = new
            kind = "moved"
        else:
            task = tasks[task_id]
            new = f"{task['body'][:180]} edit {n}"
            fields = {"body": {"new": new, "old": task["body"]}}
            task["body"] = new
            kind = "edited"
        task["updatedAt"] = iso
        event = {"at": iso, "by": author, "fields": fields, "hlc": [ms, 0], "id": event_id, "kind": kind,
                 "replica": uuid(0xA, n % people), "task": task_id, "title": task["title"]}
        lines.append(json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
        last_id = event_id
    log = "".join(lines).encode("utf-8")
    with open(f"{directory}/board.events.jsonl", "wb") as f:
        f.write(log)
    # The history's marks, as pm keeps them beside every log it wrote from
    # the start: the log is in merge order, with no batch from elsewhere.
    # (Without them, pm history reads the whole log until its own changes
    # bound it: a board restored without this file, not a board in use.)
    with open(f"{directory}/board.events.marks", "w", encoding="utf-8") as f:
        f.write('{"from": 0, "recorded": false, "batches": []}\n')
    ordered = sorted(tasks.values(), key=lambda t: (t["createdAt"], t["id"]))
    board = {"id": "b0a4d000-0000-4000-8000-000000000002", "schemaVersion": 2, "tasks": ordered,
             "log": {"clock": [start_ms + span_ms * (total - 1) // total, 0], "events": total, "last": last_id, "length": len(log),
                     "replica": uuid(0xA, (total - 1) % people)}}
    with open(f"{directory}/board.json", "w", encoding="utf-8") as f:
        json.dump(board, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
