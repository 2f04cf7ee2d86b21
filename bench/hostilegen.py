# Writes one hostile event line of up to 8 MB (issue 43), COUNT members of
# KIND, into a new replica's folder on REMOTE, aimed at the first task of
# BOARD. Prints the line's size in bytes.
# Usage: hostilegen.py COUNT KIND BOARD REMOTE
import json, sys, uuid, os
n, kind, board_path, remote = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
board = json.load(open(board_path))
tasks = board['tasks'] if isinstance(board, dict) and 'tasks' in board else board
task = tasks[0]['id']
rep = str(uuid.uuid4())
ev = {"at": "2026-11-20T10:00:00.000Z", "by": "mallory", "hlc": [1795000000000, 0],
      "id": str(uuid.uuid4()), "kind": "edited", "replica": rep, "task": task}
if kind == 'assignee':
    ev['fields'] = {f"assignee/n{i:06d}" + "x" * 40: {"new": True, "old": False} for i in range(n)}
elif kind == 'unknown':
    ev['fields'] = {f"x{i}": {"new": "v", "old": None} for i in range(n)}
elif kind == 'seen':
    ev['fields'] = {f"x{i}": {"new": "v", "old": None} for i in range(n)}
    ev['seen'] = [str(uuid.UUID(int=i)) for i in range(n)]
elif kind == 'conflicts':
    ev['fields'] = {"title": {"new": "T", "old": "S", "conflicts": ["c%d" % i for i in range(n)]}}
elif kind == 'fieldkeys':
    ev['fields'] = {"title": {"new": "T", "old": "S", **{f"k{i}": 1 for i in range(n)}}}
elif kind == 'unknownkeys':
    ev.update({f"u{i}": 1 for i in range(n)})
if kind == 'bigvalue':
    ev['fields'] = {"x": {"new": [1] * n, "old": None}}
elif kind == 'bigstring':
    ev['fields'] = {f"x{i}": {"new": "v" * 3900, "old": None} for i in range(n)}
elif kind == 'seenonly':
    ev['fields'] = {"title": {"new": "T", "old": "S"}}
    ev['seen'] = [str(uuid.UUID(int=i)) for i in range(n)]
elif kind == 'deleted':
    ev['kind'] = 'deleted'
    ev['fields'] = {f"x{i}": {"new": None, "old": "v"} for i in range(n)}
line = json.dumps(ev, separators=(',', ':'), ensure_ascii=False) + "\n"
d = f"{remote}/events/{rep}/0/0"
os.makedirs(d, exist_ok=True)
open(f"{d}/1.jsonl", "w").write(line)
print(len(line.encode()))
