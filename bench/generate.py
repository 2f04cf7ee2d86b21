#!/usr/bin/env python3
"""Generates the same N tasks as a pm board and as a Taskwarrior import file.

Titles of ~30 characters (some Korean), bodies of ~200 characters, deadlines,
all three states, and a history of several events per task. Deterministic:
task k has the UUID f"{k:08x}-...", so task 5's id prefix is known.
"""
import json
import random
import sys

def card_parts(k: int, created: str) -> dict:
    """Labels, a checklist of 10 items and 5 comments, as pm writes them on a card."""
    labels = sorted({["bug", "ui", "backend", "docs", "urgent-fix", "검토", "équipe"][(k + i) % 7] for i in range(2)})
    digits = "123456789abcdefghijklmnopqrstuvwxyz"
    checklist = [{"done": (k + i) % 3 == 0, "id": f"{k:08x}{i:04x}", "position": digits[i * 3],
                  "text": f"Step {i + 1} of card {k}"} for i in range(10)]
    comments = [{"at": created, "by": ["ana", "lee", "지우"][i % 3], "id": f"{k:08x}c{i:03x}",
                 "text": f"Comment {i + 1} on card {k}: looks good, one more pass."} for i in range(5)]
    return {"labels": labels, "checklist": checklist, "comments": comments}

def main(count: int, board_path: str, task_path: str, state_path: str, cards: bool = False) -> None:
    rng = random.Random(42)
    words = ["report", "review", "deploy", "meeting", "design", "budget", "release", "검토", "회의", "디자인", "équipe", "réunion"]
    tasks, history, tw = [], [], []
    for k in range(1, count + 1):
        uuid = f"{k:08x}-0000-4000-8000-{k:012x}"
        title = " ".join(rng.choice(words) for _ in range(4))[:30] + f" {k}"
        body = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4)[:200]
        state = ["todo", "doing", "done"][k % 3]
        due = None if k % 4 == 0 else f"2026-{1 + k % 12:02d}-{1 + k % 28:02d}"
        # Before the bench's PM_NOW (2026-11-21): a history from the future (past the
        # seven days a clock is followed) would make every change fold the whole log again.
        created = f"2026-{1 + k % 10:02d}-{1 + k % 28:02d}T{k % 24:02d}:{k % 60:02d}:00.000Z"
        tasks.append({"body": body, "createdAt": created, "due": due, "id": uuid, "state": state,
                      "title": title, "updatedAt": created})
        if cards:
            tasks[-1].update(card_parts(k, created))
        history.append({"action": "added", "at": created, "by": "bench", "id": f"e{k:07x}-0000-4000-8000-{k:012x}",
                        "task": uuid, "title": title, "to": "todo"})
        history.append({"action": "edited", "at": created, "by": "bench", "id": f"e{k:07x}-0001-4000-8000-{k:012x}",
                        "task": uuid, "title": title, "changes": [{"field": "due", "from": None, "to": due}]})
        if state != "todo":
            history.append({"action": "moved", "at": created, "by": "bench", "id": f"e{k:07x}-0002-4000-8000-{k:012x}",
                            "task": uuid, "title": title, "from": "todo", "to": state})
        entry = created[:19].replace("-", "").replace(":", "") + "Z"
        item = {"uuid": uuid, "description": title, "status": "completed" if state == "done" else "pending",
                "entry": entry, "modified": entry, "annotations": [{"entry": entry, "description": body}]}
        if state == "done":
            item["end"] = entry
        if state == "doing":
            item["start"] = entry
        if due:
            item["due"] = due.replace("-", "") + "T000000Z"
        tw.append(item)
    board = {"history": history, "id": "b0a4d000-0000-4000-8000-000000000001", "revision": 1,
             "schemaVersion": 1, "tasks": tasks}
    with open(board_path, "w", encoding="utf-8") as f:
        json.dump(board, f, indent=2, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    with open(task_path, "w", encoding="utf-8") as f:
        json.dump(tw, f, ensure_ascii=False)
    # The bench user's undo stack: task 5 was just moved from doing to its column.
    after = tasks[4]
    before = dict(after, state="doing")
    state = {"redo": [], "undo": [{"at": after["updatedAt"], "event": f"e{5:07x}-0002-4000-8000-{5:012x}",
                                   "from": before, "to": after}]}
    with open(state_path, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=2, sort_keys=True, ensure_ascii=False)

if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], len(sys.argv) > 5 and sys.argv[5] == "cards")
