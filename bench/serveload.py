#!/usr/bin/env python3
"""pm serve under load (issue 46): a 10k board, 50 pages with open live
streams that fetch their parts at every change (as the page's script does),
and 20 edits a second for DURATION seconds (adds and moves, each from its own
client), on loopback.

Usage: serveload.py PM WORKDIR [DURATION]. Prints a Markdown section for
bench/results.md and exits 1 when an edit failed or was lost, or the
server's RSS grew (the last quarter against the second).

Quiet figures first (no load): the first page's time and size (gzipped, as a
browser takes it) and a move's round trip. Then the load: the p50/p99 of an
edit's round trip and of the first page, errors, lost edits (every
acknowledged add must be on the board, every card in the column of its last
acknowledged move), and the server's RSS second by second.
"""
import http.client
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time

PM, WORK = sys.argv[1], sys.argv[2]
DURATION = int(sys.argv[3]) if len(sys.argv) > 3 else 60
HERE = os.path.dirname(os.path.abspath(__file__))
BOARD = os.path.join(WORK, "board.json")
ENV = {"HOME": WORK, "PM_BOARD": BOARD, "PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8", "TZ": "UTC", "PM_USER": "bench",
       "XDG_STATE_HOME": os.path.join(WORK, "state")}


def pm(*arguments):
    return subprocess.run([PM, *arguments], env=ENV, capture_output=True, text=True, check=True).stdout


os.makedirs(WORK, exist_ok=True)
subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "10000", BOARD, os.path.join(WORK, "tasks.json"),
                os.path.join(WORK, "undo.json")], check=True)
pm("add", "convert")  # the generated board is pm 0.1's: converted once, as bench/run does

server = subprocess.Popen([PM, "serve", "--port", "0"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})", server.stdout.readline())
PORT = int(match.group(1))
HOST = "127.0.0.1:%d" % PORT
ORIGIN = "http://" + HOST


def connection():
    return http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)


first = connection()
first.request("GET", "/?token=" + match.group(2), headers={"Host": HOST})
answer = first.getresponse()
answer.read()
COOKIE = answer.getheader("Set-Cookie").split(";")[0]
first.request("GET", "/", headers={"Host": HOST, "Cookie": COOKIE})
CSRF = re.search(rb'name="pm-csrf" content="([0-9a-f]{64})"', first.getresponse().read()).group(1).decode()
WRITE = {"Host": HOST, "Cookie": COOKIE, "Origin": ORIGIN, "X-PM-CSRF": CSRF,
         "Content-Type": "application/x-www-form-urlencoded"}


def timed(conn, method, path, headers, body=None):
    start = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return time.perf_counter() - start, response.status, data


def page(conn):
    return timed(conn, "GET", "/", {"Host": HOST, "Cookie": COOKIE, "Accept-Encoding": "gzip"})


def rss():
    with open("/proc/%d/status" % server.pid) as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


# Quiet: the first page and a move's round trip.
conn = connection()
quiet_pages = []
for _ in range(30):
    seconds, status, data = page(conn)
    assert status == 200
    quiet_pages.append(seconds)
page_bytes = len(data)
conn.request("GET", "/", headers={"Host": HOST, "Cookie": COOKIE})
raw = conn.getresponse().read()
card = re.search(rb'data-id="([0-9a-f-]{36})"', raw).group(1).decode()
quiet_moves = []
for index in range(100):
    seconds, status, _ = timed(conn, "POST", "/api/move", WRITE, "id=%s&to=%s" % (card, ["doing", "todo"][index % 2]))
    assert status == 200, status
    quiet_moves.append(seconds)

# The load.
stop = threading.Event()
errors = []
refetches = [0]
lock = threading.Lock()


def live_page():
    """A page: its live stream, and its parts fetched at each change."""
    try:
        stream = socket.create_connection(("127.0.0.1", PORT), timeout=DURATION + 30)
        stream.sendall(("GET /events HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n" % (HOST, COOKIE)).encode())
        parts = connection()
        buffer = b""
        while not stop.is_set():
            data = stream.recv(65536)
            if not data:
                if not stop.is_set():
                    errors.append("a live stream closed")
                return
            buffer += data
            if b"event: change" in buffer:
                buffer = b""
                _, status, _ = timed(parts, "GET", "/board", {"Host": HOST, "Cookie": COOKIE, "Accept-Encoding": "gzip"})
                if status != 200:
                    errors.append("parts: %d" % status)
                with lock:
                    refetches[0] += 1
        stream.close()
    except Exception as error:  # noqa: BLE001 - every failure is counted
        if not stop.is_set():
            errors.append("live: %r" % error)


edit_times, page_times, acknowledged_adds, last_move = [], [], [], {}


def editor(number):
    """10 edits a second: adds (number 0) or moves of the added cards (number 1)."""
    conn = connection()
    start = time.monotonic()
    count = 0
    while time.monotonic() - start < DURATION:
        due = start + count / 10
        if due > time.monotonic():
            time.sleep(due - time.monotonic())
        try:
            if number == 0:
                title = "load %d" % count
                seconds, status, data = timed(conn, "POST", "/api/add", WRITE, "title=" + title.replace(" ", "%20"))
                if status == 200:
                    with lock:
                        acknowledged_adds.append(title)
            else:
                with lock:
                    known = list(last_move) or []
                conn.request("GET", "/board?q=load", headers={"Host": HOST, "Cookie": COOKIE})
                ids = re.findall(r'data-id=\\"([0-9a-f-]{36})\\"', conn.getresponse().read().decode())
                if not ids:
                    count += 1
                    continue
                target = ids[count % len(ids)]
                to = ["doing", "done", "todo"][count % 3]
                seconds, status, data = timed(conn, "POST", "/api/move", WRITE, "id=%s&to=%s" % (target, to))
                if status == 200:
                    with lock:
                        last_move[target] = to
            if status != 200:
                errors.append("edit: %d %s" % (status, data[:200]))
            with lock:
                edit_times.append(seconds)
        except Exception as error:  # noqa: BLE001
            errors.append("edit: %r" % error)
            conn = connection()
        count += 1


def first_pages():
    conn = connection()
    while not stop.is_set():
        seconds, status, _ = page(conn)
        if status != 200:
            errors.append("page: %d" % status)
        page_times.append(seconds)
        time.sleep(0.5)


pages = [threading.Thread(target=live_page, daemon=True) for _ in range(50)]
for thread in pages:
    thread.start()
time.sleep(1)
editors = [threading.Thread(target=editor, args=(n,)) for n in (0, 1)]
reader = threading.Thread(target=first_pages, daemon=True)
samples = []
started = time.monotonic()
for thread in editors + [reader]:
    thread.start()
while any(thread.is_alive() for thread in editors):
    samples.append(rss())
    time.sleep(1)
stop.set()
elapsed = time.monotonic() - started

# Every acknowledged edit is there.
board = json.loads(pm("list", "--json"))
titles = {task["title"] for task in board}
state = {task["id"]: task["state"] for task in board}
lost = [title for title in acknowledged_adds if title not in titles]
wrong = [task for task, column in last_move.items() if state.get(task) != column]
server.terminate()
server.wait(timeout=10)

quarter = max(1, len(samples) // 4)
early = statistics.mean(samples[quarter:2 * quarter]) if len(samples) >= 4 else samples[0]
late = statistics.mean(samples[-quarter:])
flat = late <= early * 1.10 + 1024
print("## pm serve: a 10k board in a browser's place (bench/serve-run)")
print()
print("Measured %s on %d cores, loopback, release build; Python's http.client as the browser."
      % (time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), os.cpu_count()))
print()
print("| figure | value | target |")
print("|---|---|---|")
print("| first page, quiet (p50 / p99 of 30) | %.1f / %.1f ms | ≤ 100 ms |" % (pct(quiet_pages, 50), pct(quiet_pages, 99)))
print("| first page's weight, gzipped (300 cards shown) | %.1f KB | ≤ 300 KB |" % (page_bytes / 1000))
print("| a move's round trip, quiet (p50 / p99 of 100) | %.1f / %.1f ms | p50 ≤ 20 ms |" % (pct(quiet_moves, 50), pct(quiet_moves, 99)))
print("| load: 50 live pages, 20 edits/s for %d s: edits acknowledged | %d (%d adds, %d moves) | |"
      % (DURATION, len(edit_times), len(acknowledged_adds), len(edit_times) - len(acknowledged_adds)))
print("| load: an edit's round trip (p50 / p99) | %.1f / %.1f ms | |" % (pct(edit_times, 50), pct(edit_times, 99)))
print("| load: the first page (p50 / p99 of %d) | %.1f / %.1f ms | |" % (len(page_times), pct(page_times, 50), pct(page_times, 99)))
print("| load: parts fetched by the live pages | %d (%.0f a second) | |" % (refetches[0], refetches[0] / elapsed))
print("| load: errors / lost edits | %d / %d | 0 / 0 |" % (len(errors), len(lost) + len(wrong)))
print("| load: server RSS, second quarter → last quarter | %.1f → %.1f MB | flat |" % (early / 1024, late / 1024))
if errors:
    print("\nErrors: " + "; ".join(errors[:5]))
sys.exit(0 if not errors and not lost and not wrong and flat else 1)
