#!/usr/bin/env python3
"""Generates a sync remote (a folder) holding NEW events from REPLICAS other
replicas for a board made by eventlog.py: moves and edits of its tasks (each
replica saw the board as it is, so replicas touching the same task conflict,
as concurrent offline work does) and some new tasks, all after the board's
last event. Each replica signs its events as pm does (EventSeal: an
Ed25519 key, the replica's id made from it), since a board takes unsigned
events only from copies it knew before signatures.

usage: syncgen.py BOARD_DIR REMOTE_DIR NEW REPLICAS
"""
import base64
import datetime
import hashlib
import json
import os
import random
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

STATES = ["todo", "doing", "done"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def line(event: dict) -> str:
    """The canonical line: compact, keys sorted, text as UTF-8."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def signing_replica(number: int):
    """A replica's key (from a fixed seed) and the id pm makes of its public key."""
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(f"bench replica {number}".encode()).digest())
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    digits = list(hashlib.sha256(public).hexdigest()[:32])
    digits[12], digits[16] = "8", "b"
    text = "".join(digits)
    return key, public, "-".join([text[0:8], text[8:12], text[12:16], text[16:20], text[20:32]])


def sealed(event: dict, key, public: bytes) -> str:
    """The event's line with its key and its signature over the line without it."""
    event = dict(event, key=b64url(public))
    signature = key.sign(b"pm event 1\n" + line(event).encode("utf-8"))
    return line(dict(event, sig=b64url(signature)))


def main(board_dir: str, remote: str, count: int, replicas: int) -> None:
    board = json.load(open(f"{board_dir}/board.json", encoding="utf-8"))
    tasks = board["tasks"]
    rng = random.Random(11)
    start = board["log"]["clock"][0] + 60_000
    os.makedirs(f"{remote}/events", exist_ok=True)
    with open(f"{remote}/pm-board.json", "w") as f:
        f.write(json.dumps({"board": board["id"], "format": 1}) + "\n")
    for r in range(replicas):
        key, public, replica = signing_replica(r)
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
            lines.append(sealed(event, key, public))
        with open(f"{remote}/events/{replica}.jsonl", "w", encoding="utf-8") as f:
            f.write("".join(lines))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
