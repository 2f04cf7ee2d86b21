"""pm serve, attacked through a real HTTP client (DESIGN.md §16, issue 46).

Usage: serve_security.py PM HOME BOARD. Starts `pm serve --port 0`, reads the
URL it prints, and tries what a hostile page, a hostile local program and a
careless client would. Every refusal must leave the board as it was. Prints
one line per check and `ALL OK` at the end; exits 1 at the first failure.
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

PM, HOME, BOARD = sys.argv[1:4]
ENV = {"HOME": HOME, "PM_BOARD": BOARD, "PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8", "TZ": "UTC", "PM_USER": "ji-woo"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def tasks():
    out = subprocess.run([PM, "list", "--json"], env=ENV, capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        fail("pm list --json: " + out.stderr)
    return json.loads(out.stdout)


server = subprocess.Popen([PM, "serve", "--port", "0"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = server.stdout.readline()
match = re.search(r"http://(127\.0\.0\.1):(\d+)/\?token=([0-9a-f]{64})", line)
if not match:
    server.kill()
    fail("pm serve printed no URL with a token: %r %r" % (line, server.stderr.read()))
HOST, PORT, TOKEN = match.group(1), int(match.group(2)), match.group(3)
HOSTPORT = "%s:%d" % (HOST, PORT)
ORIGIN = "http://" + HOSTPORT


def request(method, path, headers=None, body=None):
    connection = http.client.HTTPConnection(HOST, PORT, timeout=20)
    all_headers = {"Host": HOSTPORT}
    all_headers.update(headers or {})
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


try:
    before = len(tasks())
    status, _, body = request("GET", "/")
    check(status == 403, "no token: 403 (%d)" % status)
    check(b"pm serve" in body, "no token: the page says where the link comes from")
    status, _, _ = request("GET", "/?token=" + "0" * 64)
    check(status == 403, "a wrong token: 403 (%d)" % status)
    status, _, _ = request("GET", "/?token=" + TOKEN, {"Host": "evil.example:%d" % PORT})
    check(status == 403, "a wrong Host (DNS rebinding): 403 (%d)" % status)
    status, _, _ = request("GET", "/?token=" + TOKEN, {"Host": "127.0.0.1"})
    check(status == 403, "a Host without the port: 403 (%d)" % status)
    status, _, _ = request("GET", "/?token=" + TOKEN, {"Sec-Fetch-Site": "cross-site"})
    check(status == 403, "the link opened by another site's page: 403 (%d)" % status)
    sock = socket.create_connection((HOST, PORT), timeout=10)
    sock.sendall(("GET / HTTP/1.1\r\nHost: %s\r\nHost: evil.example\r\n\r\n" % HOSTPORT).encode())
    check(sock.recv(100).startswith(b"HTTP/1.1 400"), "two Host headers: 400")
    sock.close()
    status, headers, _ = request("GET", "/?token=" + TOKEN)
    check(status == 303 and headers.get("location") == "/", "the token is exchanged, and leaves the address bar (%d)" % status)
    cookie = headers.get("set-cookie", "")
    check("HttpOnly" in cookie and "SameSite=Strict" in cookie, "the cookie is HttpOnly and SameSite=Strict: " + cookie)
    session = cookie.split(";")[0]
    status, _, _ = request("GET", "/?token=" + TOKEN)
    check(status == 403, "the token works once (%d)" % status)
    status, headers, page = request("GET", "/", {"Cookie": session})
    check(status == 200, "the cookie opens the board (%d)" % status)
    for language in ["abcdefghijkl", "xxxxxxxxxxxx_US", "x" * 35, "ko-KR;q=0.5, aaaaaaaaaaaaa"]:
        status, _, _ = request("GET", "/board", {"Cookie": session, "Accept-Language": language})
        check(status == 200, "Accept-Language %r: answered (%d)" % (language[:20], status))
    check(server.poll() is None, "and the server lives")
    csp = headers.get("content-security-policy", "")
    check("script-src 'self'" in csp and "unsafe-inline" not in csp and "default-src 'none'" in csp, "a strict CSP: " + csp)
    check("access-control-allow-origin" not in headers, "no CORS header")
    check(b"<script>" not in page and b"onclick" not in page, "no inline script in the page")
    status, headers, packed = request("GET", "/", {"Cookie": session, "Accept-Encoding": "gzip, deflate, br"})
    import gzip
    check(headers.get("content-encoding") == "gzip" and gzip.decompress(packed) == page,
          "gzipped for a browser that takes it, the same page (%d bytes for %d)" % (len(packed), len(page)))
    status, headers, _ = request("GET", "/", {"Cookie": session, "Accept-Encoding": "gzip;q=0, identity"})
    check("content-encoding" not in headers, "and not for one that refuses it")
    csrf = re.search(rb'name="pm-csrf" content="([0-9a-f]{64})"', page)
    check(csrf is not None, "the page carries its CSRF token")
    csrf = csrf.group(1).decode()
    form = "title=Hello"
    good = {"Cookie": session, "Origin": ORIGIN, "X-PM-CSRF": csrf, "Content-Type": "application/x-www-form-urlencoded"}
    for name, headers in [
        ("no Origin", {k: v for k, v in good.items() if k != "Origin"}),
        ("a cross-origin POST", dict(good, Origin="http://evil.example")),
        ("an Origin on another port", dict(good, Origin="http://127.0.0.1:1")),
        ("a missing CSRF token", {k: v for k, v in good.items() if k != "X-PM-CSRF"}),
        ("a wrong CSRF token", dict(good, **{"X-PM-CSRF": "0" * 64})),
        ("no cookie", {k: v for k, v in good.items() if k != "Cookie"}),
        ("Sec-Fetch-Site cross-site", dict(good, **{"Sec-Fetch-Site": "cross-site"})),
    ]:
        status, _, _ = request("POST", "/api/add", headers, form)
        check(status == 403, "%s: 403 (%d)" % (name, status))
    check(len(tasks()) == before, "nothing refused changed the board")
    status, headers, _ = request("OPTIONS", "/api/add", {"Cookie": session, "Origin": "http://evil.example"})
    check(status in (403, 404, 405) and "access-control-allow-origin" not in headers, "a CORS preflight gets no permission (%d)" % status)

    payloads = [
        "<script>document.title='PWNED'</script>",
        "<img src=x onerror=alert(1)>",
        "\"><svg onload=alert(1)>",
        "';alert(1);//",
        "</textarea><script>alert(1)</script>",
    ]
    for payload in payloads:
        body = "title=" + "".join("%%%02X" % b for b in payload.encode())
        status, _, answer = request("POST", "/api/add", good, body)
        check(status == 200, "an XSS title is stored as text (%d)" % status)
        parts = json.loads(answer)
        check(payload not in parts["board"] and payload not in parts["bar"], "the board's HTML holds it only escaped")
    status, _, page = request("GET", "/", {"Cookie": session})
    for payload in payloads:
        check(payload.encode() not in page, "the page never holds %r raw" % payload)
    check(b"&lt;script&gt;" in page, "the page shows it as text")
    check(len(tasks()) == before + len(payloads), "each accepted add is on the board")

    # Another page hears of a change made through the server, and of one made by a command.
    watcher = socket.create_connection((HOST, PORT), timeout=5)
    watcher.sendall(("GET /events HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n" % (HOSTPORT, session)).encode())

    def heard():
        seen = b""
        try:
            while b"event: change" not in seen:
                data = watcher.recv(4096)
                if not data:
                    return False
                seen += data
            return True
        except socket.timeout:
            return False
    watcher.recv(4096)
    request("POST", "/api/add", good, "title=Heard")
    check(heard(), "an open page is told of a change made through the server")
    subprocess.run([PM, "add", "From a command"], env=ENV, capture_output=True, check=True, timeout=30)
    check(heard(), "and of one made by a command")
    watcher.close()

    # An edit that lost a race: the title changed elsewhere since the form opened.
    status, _, answer = request("POST", "/api/add", good, "title=Race%20card")
    check('data-title="Race card"' in json.loads(answer)["board"], "the answer to a change shows the board after it")
    race_id = [task["id"] for task in tasks() if task["title"] == "Race card"][0]
    subprocess.run([PM, "edit", race_id, "--title", "Theirs"], env=ENV, capture_output=True, check=True, timeout=30)
    form = "id=%s&title=Mine&was.title=Race%%20card" % race_id
    status, _, answer = request("POST", "/api/edit", good, form)
    parts = json.loads(answer)
    check(status == 409 and "Theirs" in parts.get("race", "") and "Mine" in parts.get("race", ""),
          "an edit that lost a race shows both values (%d: %s)" % (status, parts.get("race")))
    check([t["title"] for t in tasks() if t["id"] == race_id] == ["Theirs"], "and changed nothing")
    status, _, _ = request("POST", "/api/edit", good, "id=%s&title=Mine" % race_id)
    check(status == 200 and [t["title"] for t in tasks() if t["id"] == race_id] == ["Mine"], "keeping mine saves it")
    status, _, _ = request("POST", "/api/edit", good, "id=%s&body=Notes&was.body=" % race_id)
    check(status == 200, "a field nobody else changed is no race (%d)" % status)

    count = len(tasks())
    # A 100 MB body: refused without reading it all.
    sock = socket.create_connection((HOST, PORT), timeout=20)
    head = "POST /api/add HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nOrigin: %s\r\nX-PM-CSRF: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % (
        HOSTPORT, session, ORIGIN, csrf, 100 * 1024 * 1024)
    sock.sendall(head.encode())
    answer = b""
    try:
        chunk = b"title=" + b"x" * (1024 * 1024)
        for _ in range(100):
            sock.sendall(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    except (ConnectionResetError, socket.timeout):
        pass
    sock.close()
    check(answer.startswith(b"HTTP/1.1 413"), "a 100 MB body: 413 (%r)" % answer[:40])
    check(len(tasks()) == count, "the 100 MB body changed nothing")

    sock = socket.create_connection((HOST, PORT), timeout=20)
    lines = "".join("X-H%d: v\r\n" % i for i in range(10000))
    try:
        sock.sendall(("GET / HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n%s\r\n" % (HOSTPORT, session, lines)).encode())
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        answer = sock.recv(65536)
    except ConnectionResetError:
        answer = b""
    sock.close()
    check(answer.startswith(b"HTTP/1.1 4") or answer == b"", "10,000 headers: refused (%r)" % answer[:40])
    status, _, _ = request("GET", "/", {"Cookie": session})
    check(status == 200, "the server still answers after them")

    for path in ["/static/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc%2fpasswd",
                 "/..\\..\\etc\\passwd", "/static/%252e%252e/app.js", "//etc/passwd", "/static/app.js/../../../etc/passwd"]:
        status, _, body = request("GET", path, {"Cookie": session})
        check(status == 404 and b"root:" not in body, "%s: 404 (%d)" % (path, status))

    # Thousands of pipelined requests whose answers are never read: the
    # server answers as fast as they are taken, not into its memory.
    def rss():
        with open("/proc/%d/status" % server.pid) as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))
    before_rss = rss()
    sock = socket.create_connection((HOST, PORT), timeout=10)
    sock.sendall(("GET /static/app.js HTTP/1.1\r\nHost: %s\r\n\r\n" % HOSTPORT).encode() * 20000)
    time.sleep(3)
    grown = rss() - before_rss
    sock.close()
    check(grown < 64 * 1024, "20,000 pipelined requests never read: the server grew by %d KB" % grown)

    # A slow client: a request begun and never finished is cut off.
    sock = socket.create_connection((HOST, PORT), timeout=30)
    sock.sendall(("GET / HTTP/1.1\r\nHost: %s\r\n" % HOSTPORT).encode())
    started = time.monotonic()
    closed = False
    try:
        while time.monotonic() - started < 25:
            sock.sendall(b"X-Slow: 1\r\n")
            time.sleep(1)
            sock.settimeout(0.01)
            try:
                if sock.recv(65536) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
            except ConnectionResetError:
                closed = True
                break
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    sock.close()
    check(closed, "a slow client is cut off (after %.0f s)" % (time.monotonic() - started))
    status, _, _ = request("GET", "/", {"Cookie": session})
    check(status == 200, "and the server still answers")
    check(len(tasks()) == count, "nothing of all that changed the board")

    # Personal links: each acts as its person, until revoked.
    out = subprocess.run([PM, "serve", "invite", "camille", "--listen", HOST, "--port", str(PORT)], env=ENV,
                         capture_output=True, text=True, timeout=30)
    link = re.search(r"/\?invite=([0-9a-f]{64})", out.stdout)
    check(out.returncode == 0 and link is not None, "pm serve invite prints a link: " + out.stdout.strip())
    status, _, _ = request("GET", "/?invite=" + "1" * 64)
    check(status == 403, "a wrong personal link: 403 (%d)" % status)
    status, headers, _ = request("GET", "/?invite=" + link.group(1))
    check(status == 303, "the personal link lets its person in (%d)" % status)
    theirs = headers.get("set-cookie", "").split(";")[0]
    status, _, page = request("GET", "/", {"Cookie": theirs})
    their_csrf = re.search(rb'name="pm-csrf" content="([0-9a-f]{64})"', page).group(1).decode()
    headers = dict(good, Cookie=theirs, **{"X-PM-CSRF": their_csrf})
    status, _, _ = request("POST", "/api/add", headers, "title=From%20Camille")
    check(status == 200, "their change is accepted (%d)" % status)
    history = subprocess.run([PM, "history", "--limit", "1"], env=ENV, capture_output=True, text=True, timeout=30).stdout
    check("camille" in history and "From Camille" in history, "and authored as them: " + history.strip())
    sock = socket.create_connection((HOST, PORT), timeout=20)
    sock.sendall(("GET /events HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n\r\n" % (HOSTPORT, theirs)).encode())
    check(sock.recv(4096).startswith(b"HTTP/1.1 200"), "their live stream opens")
    out = subprocess.run([PM, "serve", "revoke", "camille"], env=ENV, capture_output=True, text=True, timeout=30)
    check(out.returncode == 0, "pm serve revoke: " + out.stdout.strip())
    closed = False
    sock.settimeout(5)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                closed = True
                break
    except (socket.timeout, ConnectionResetError):
        pass
    sock.close()
    check(closed, "a revoked link's live stream is closed at once")
    before = len(tasks())
    status, _, _ = request("POST", "/api/add", headers, "title=After%20revoke")
    check(status == 403, "a revoked link writes nothing: 403 (%d)" % status)
    status, _, _ = request("GET", "/?invite=" + link.group(1))
    check(status == 403, "and does not open again (%d)" % status)
    check(len(tasks()) == before, "the board is as it was")
finally:
    server.send_signal(signal.SIGTERM)
    try:
        out, err = server.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        fail("pm serve did not stop on SIGTERM")
check(server.returncode == 0, "SIGTERM stops it cleanly (exit %s; %s)" % (server.returncode, err.strip()))
check("Stopped" in out, "and it says so: " + out.strip())
# Beyond this machine, only with personal links: none here now.
home_lan = os.path.join(HOME, "lan")
os.makedirs(home_lan, exist_ok=True)
lan = dict(ENV, HOME=home_lan, PM_BOARD=os.path.join(home_lan, "board.json"))
for address in ["192.0.2.123", "10.1.2.3", "2001:db8::1"]:
    out = subprocess.run([PM, "serve", "--listen", address, "--port", "0"], env=lan, capture_output=True, text=True, timeout=30)
    check(out.returncode == 64 and "pm serve invite" in out.stderr, "--listen %s without invites: refused (%d)" % (address, out.returncode))
for address in ["0.0.0.0", "::"]:
    out = subprocess.run([PM, "serve", "--listen", address, "--port", "0"], env=lan, capture_output=True, text=True, timeout=30)
    check(out.returncode == 64 and "every address" in out.stderr, "--listen %s (every address): refused (%d)" % (address, out.returncode))
out = subprocess.run([PM, "serve", "invite", "ji-woo", "--listen", "192.0.2.123", "--port", "8080"], env=lan,
                     capture_output=True, text=True, timeout=30)
check(out.returncode == 64, "a personal link for the one who serves: refused (%d)" % out.returncode)
check(not os.path.exists(lan["PM_BOARD"]), "and nothing was made")

# --read-only: the page offers no change, and the server takes none.
reading = subprocess.Popen([PM, "serve", "--port", "0", "--read-only"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
try:
    found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})", reading.stdout.readline())
    port = int(found.group(1))
    host = "127.0.0.1:%d" % port
    viewer = http.client.HTTPConnection(HOST, port, timeout=20)
    viewer.request("GET", "/?token=" + found.group(2), headers={"Host": host})
    answer = viewer.getresponse()
    answer.read()
    cookie = answer.getheader("Set-Cookie").split(";")[0]
    viewer.request("GET", "/", headers={"Host": host, "Cookie": cookie})
    page = viewer.getresponse().read()
    check(b'id="add"' not in page and b'data-action="delete"' not in page and b"Read only" in page,
          "--read-only: no form, no delete, and the page says so")
    token = re.search(rb'name="pm-csrf" content="([0-9a-f]{64})"', page).group(1).decode()
    before = len(tasks())
    for action, body in [("add", "title=Nope"), ("undo", ""), ("move", "id=%s&to=done" % race_id)]:
        viewer.request("POST", "/api/" + action, body=body, headers={
            "Host": host, "Cookie": cookie, "Origin": "http://" + host, "X-PM-CSRF": token,
            "Content-Type": "application/x-www-form-urlencoded"})
        answer = viewer.getresponse()
        answer.read()
        check(answer.status == 403, "--read-only refuses %s (%d)" % (action, answer.status))
    check(len(tasks()) == before and [t["state"] for t in tasks() if t["id"] == race_id] != ["done"], "and nothing changed")
finally:
    reading.send_signal(signal.SIGTERM)
    reading.communicate(timeout=10)

# HTTPS with a certificate given: the link is https, the cookie Secure, plain HTTP gets nothing.
import ssl
cert, key = os.path.join(HOME, "cert.pem"), os.path.join(HOME, "key.pem")
made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                       "-subj", "/CN=127.0.0.1"], capture_output=True, text=True, timeout=60)
check(made.returncode == 0, "a self-signed certificate: " + made.stderr[-200:])
out = subprocess.run([PM, "serve", "--tls-cert", cert], env=lan, capture_output=True, text=True, timeout=30)
check(out.returncode == 64, "--tls-cert without --tls-key: refused (%d)" % out.returncode)
out = subprocess.run([PM, "serve", "--tls-cert", cert, "--tls-key", cert], env=lan, capture_output=True, text=True, timeout=30)
check(out.returncode == 74 and cert in out.stderr, "a key that is not one: said (%d: %s)" % (out.returncode, out.stderr.strip()))
secure = subprocess.Popen([PM, "serve", "--port", "0", "--tls-cert", cert, "--tls-key", key], env=lan,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    found = re.search(r"https://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})", secure.stdout.readline())
    check(found is not None, "the printed link is https")
    port = int(found.group(1))
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    connection = http.client.HTTPSConnection(HOST, port, timeout=20, context=context)
    connection.request("GET", "/?token=" + found.group(2), headers={"Host": "127.0.0.1:%d" % port})
    response = connection.getresponse()
    cookie = response.getheader("Set-Cookie") or ""
    check(response.status == 303 and "Secure" in cookie, "over HTTPS the cookie is Secure: " + cookie)
    connection.close()
    plain = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        plain.request("GET", "/", headers={"Host": "127.0.0.1:%d" % port})
        answered = plain.getresponse().status
    except (http.client.HTTPException, ConnectionError, OSError):
        answered = None
    check(answered is None, "plain HTTP gets no page (%s)" % answered)
finally:
    secure.send_signal(signal.SIGTERM)
    secure.communicate(timeout=10)
check(secure.returncode == 0, "and stops cleanly")
print("ALL OK")
