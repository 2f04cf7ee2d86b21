"""pm serve in a real browser (Debian's chromium, driven by chromium-driver
through Selenium), as a person uses it (issue 46).

Usage: serve_browser.py PM HOME LANG WIDTH HEIGHT SHOTS AXE_WHEEL [HERE]

In the reader's language (the browser's Accept-Language and time zone), at
WIDTH×HEIGHT (390×844 emulates a phone with touch), a person: sees the
columns in their language, adds a card, drags it to DOING (mouse, or a
finger on a phone), edits its deadline with the date field, undoes, sees a
colleague's change arrive live from the command line, resolves a conflict,
filters, and deletes with the question (saying no first). Titles that are
XSS payloads never run. axe-core finds no accessibility violation. A
screenshot of each step's end is written to SHOTS. Prints one line per
check and `ALL OK`; exits 1 at the first failure.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time
import zipfile

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By

PM, HOME, LANG, WIDTH, HEIGHT, SHOTS, AXE = sys.argv[1:8]
# Run as `python3 -c`, the script has no file: the test names its folder.
HERE = sys.argv[8] if len(sys.argv) > 8 else os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = int(WIDTH), int(HEIGHT)
PHONE = WIDTH < 600
TAG = LANG.split("_")[0]
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
ZONES = {"en": "America/New_York", "fr": "Europe/Paris", "ko": "Asia/Seoul"}
BOARD = os.path.join(HOME, "board.json")
SHARE = os.path.join(HOME, "share")
COLLEAGUE = ["--board", os.path.join(HOME, "colleague", "board.json")]
ENV = {"HOME": HOME, "PM_BOARD": BOARD, "PATH": "/usr/bin:/bin", "LANG": "en_US.UTF-8", "TZ": "UTC", "PM_USER": "ji-woo"}
THEM = dict(ENV, PM_USER="camille")
NAME = "%s-%dx%d" % (TAG, WIDTH, HEIGHT)


def fail(message):
    print("FAIL [%s]: %s" % (NAME, message))
    try:
        driver.save_screenshot(os.path.join(SHOTS, NAME + "-failed.png"))
        print(driver.find_element(By.TAG_NAME, "body").get_attribute("outerHTML")[:4000])
    except Exception:
        pass
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok [%s]: %s" % (NAME, message))


def pm(arguments, env=ENV):
    out = subprocess.run([PM] + arguments, env=env, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        fail("pm %s: %s" % (" ".join(arguments), out.stderr))
    return out.stdout.strip()


def table(key):
    """A key's text in this language's table (what the page must say)."""
    path = os.path.join(ROOT, "Localization", TAG + ".lproj", "Localizable.strings")
    for line in open(path, encoding="utf-8"):
        match = re.match(r'^"%s" = "(.*)";$' % re.escape(key), line)
        if match:
            return match.group(1).replace('\\"', '"')
    fail("no %s in the %s table" % (key, TAG))


def wait(predicate, what, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if predicate():
                return
        except Exception:
            pass
        time.sleep(0.1)
    fail("waited %d s for: %s" % (seconds, what))


def card(title):
    for element in driver.find_elements(By.CSS_SELECTOR, ".card"):
        if element.get_attribute("data-title") == title:
            return element
    return None


def column_of(title):
    found = card(title)
    return found.find_element(By.XPATH, "./ancestor::section").get_attribute("data-state") if found else None


def click(find, what):
    """Clicks what `find` finds, again if a live update replaced it meanwhile."""
    for _ in range(5):
        try:
            element = find()
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return
        except StaleElementReferenceException:
            time.sleep(0.2)
    fail("could not click " + what)


def shot(step):
    driver.save_screenshot(os.path.join(SHOTS, "%s-%s.png" % (NAME, step)))


# The board: a shared folder with a colleague, and titles that are attacks.
os.makedirs(SHOTS, exist_ok=True)
pm(["remote", "add", SHARE])
pm(["remote", "add", SHARE] + COLLEAGUE, THEM)
pm(["add", "--", "<script>document.title='PWNED'</script>"])
pm(["add", "--", "<img src=x onerror=\"document.body.dataset.pwned=1\">"])
budget = pm(["add", "Budget"])
pm(["sync"])
pm(["sync"] + COLLEAGUE, THEM)
pm(["news"])  # the reader has looked once: from now on, others' changes are marked new

server = subprocess.Popen([PM, "serve", "--port", "0"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
url = re.search(r"http://\S+token=[0-9a-f]{64}", server.stdout.readline())
if not url:
    server.kill()
    print("FAIL: no URL: " + server.stderr.read())
    sys.exit(1)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=" + TAG,
                 "--user-data-dir=" + os.path.join(HOME, "chromium")]:
    options.add_argument(argument)
options.add_experimental_option("prefs", {"intl.accept_languages": TAG + "," + ("en" if TAG != "en" else "fr")})
if PHONE:
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": WIDTH, "height": HEIGHT, "pixelRatio": 2, "touch": True}})
else:
    options.add_argument("--window-size=%d,%d" % (WIDTH, HEIGHT))
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ZONES[TAG]})
    driver.get(url.group(0))
    wait(lambda: driver.find_element(By.ID, "board"), "the board")
    check(driver.current_url.endswith("/") and "token" not in driver.current_url, "the token left the address bar")
    check(driver.execute_script("return document.documentElement.lang") == TAG, "the page is in " + TAG)
    wait(lambda: (driver.get_cookie("pm_zone") or {}).get("value", "").replace("%2F", "/") == ZONES[TAG], "the browser's zone sent")
    headings = [h.text.split(" ")[0] for h in driver.find_elements(By.CSS_SELECTOR, ".column h2")]
    names = [table("column." + state).split(" ")[0] for state in ("todo", "doing", "done")]
    check(headings == names, "the columns are named in %s: %s" % (TAG, headings))
    check(driver.title != "PWNED" and driver.execute_script("return document.body.dataset.pwned") is None,
          "titles that are scripts never run")

    # Add.
    title = {"en": "Write the report", "fr": "Écrire le rapport", "ko": "보고서 쓰기"}[TAG]
    field = driver.find_element(By.CSS_SELECTOR, "#add input[name=title]")
    field.send_keys(title)
    driver.find_element(By.CSS_SELECTOR, "#add button[type=submit]").click()
    wait(lambda: column_of(title) == "todo", "the new card in TODO")
    check(title in driver.find_element(By.ID, "status").text, "the status line says what was added")
    shot("added")

    # Drag to DOING: a mouse on a desk, a finger on a phone.
    grip = card(title).find_element(By.CLASS_NAME, "grip")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", grip)
    doing = driver.find_element(By.CSS_SELECTOR, "section[data-state=doing]")
    if PHONE:
        # A finger: W3C touch actions (chromium-driver turns them into touch events).
        start = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]", grip)
        end = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.x + r.width / 2, Math.min(r.y + 40, innerHeight - 60)]", doing)
        check(end[1] > start[1] + 20, "DOING is on screen below the card")
        finger = PointerInput(interaction.POINTER_TOUCH, "finger")
        touch = ActionBuilder(driver, mouse=finger)
        touch.pointer_action.move_to_location(int(start[0]), int(start[1])).pointer_down()
        for step in range(1, 11):
            touch.pointer_action.move_to_location(int(start[0] + (end[0] - start[0]) * step / 10), int(start[1] + (end[1] - start[1]) * step / 10))
        touch.pointer_action.pointer_up()
        touch.perform()
    else:
        ActionChains(driver).click_and_hold(grip).move_by_offset(8, 8).move_to_element(doing).release().perform()
    wait(lambda: column_of(title) == "doing", "the card dragged to DOING")
    shot("dragged")

    # The deadline, with the date field, then undone.
    click(lambda: card(title).find_element(By.CSS_SELECTOR, "button[data-action=edit]"), "Edit")
    wait(lambda: driver.find_element(By.ID, "edit").get_attribute("open") is not None, "the edit form")
    due = driver.find_element(By.CSS_SELECTOR, "#edit input[name=due]")
    check(due.get_attribute("type") == "date", "the deadline is the browser's date picker")
    driver.execute_script("arguments[0].value = '2026-12-24'; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", due)
    driver.find_element(By.CSS_SELECTOR, "#edit button[value=save]").click()
    wait(lambda: card(title).get_attribute("data-due") == "2026-12-24", "the deadline saved")
    check(card(title).find_element(By.CSS_SELECTOR, ".due time").get_attribute("datetime") == "2026-12-24", "and shown")
    shot("deadline")
    click(lambda: driver.find_element(By.ID, "undo"), "Undo")
    wait(lambda: card(title).get_attribute("data-due") == "", "the deadline undone")
    check(driver.find_element(By.ID, "redo").is_enabled(), "redo is offered after an undo")

    # A colleague's change, from the command line, arrives without a reload.
    marker = driver.execute_script("window.pmMarker = 1; return 1")
    pm(["add", "From the terminal"], THEM)
    wait(lambda: card("From the terminal") is not None, "a card added by pm add, live", 5)
    check(driver.execute_script("return window.pmMarker") == 1, "without a reload")
    check(card("From the terminal").find_elements(By.CSS_SELECTOR, ".new"), "a colleague's card is marked new")
    check(driver.find_elements(By.ID, "seen"), "and the bar offers to mark it seen")
    click(lambda: driver.find_element(By.ID, "seen"), "Seen")
    wait(lambda: not driver.find_elements(By.CSS_SELECTOR, ".card .new"), "the marks gone once seen")

    # The history, as pm history says it.
    driver.find_element(By.CSS_SELECTOR, "#history-panel summary").click()
    lines = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#history-panel li")]
    check(any(title in line for line in lines), "the history names the card added: %s" % lines[:3])

    # Sync from the page: it says it started, and the link ends online.
    click(lambda: driver.find_element(By.ID, "sync"), "Sync")
    wait(lambda: driver.find_element(By.ID, "status").text == table("web.syncing"), "the page says the sync started")
    wait(lambda: driver.find_element(By.CSS_SELECTOR, ".sync.online"), "the sync done, online", 20)

    # A conflict: two people renamed Budget at once; the reader keeps one.
    pm(["edit", budget, "--title", "Budget 2027"])
    pm(["edit", budget, "--title", "Budget draft"] + COLLEAGUE, THEM)
    pm(["sync"] + COLLEAGUE, THEM)
    pm(["sync"])
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, ".card.conflict button[data-action=resolve]"), "the conflict shown", 5)
    choices = driver.find_elements(By.CSS_SELECTOR, ".card.conflict button[data-action=resolve]")
    check(len(choices) == 2, "both values offered (%d: %s)" % (len(choices), [c.text for c in choices]))
    click(lambda: driver.find_elements(By.CSS_SELECTOR, ".card.conflict button[data-action=resolve]")[1], "Keep")
    wait(lambda: not driver.find_elements(By.CSS_SELECTOR, ".card.conflict"), "the conflict resolved")
    shot("resolved")

    # Filter.
    search = driver.find_element(By.CSS_SELECTOR, "#filters input[name=q]")
    search.send_keys(title[:5])
    wait(lambda: [c.get_attribute("data-title") for c in driver.find_elements(By.CSS_SELECTOR, ".card")] == [title], "the filter keeps one card")
    search.clear()
    search.send_keys(" ")
    search.clear()
    driver.execute_script("arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", search)
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".card")) > 1, "the filter cleared")

    # Delete, with the question: no keeps it, yes deletes it.
    def ask():
        click(lambda: card(title).find_element(By.CSS_SELECTOR, "button[data-action=delete]"), "Delete")
        wait(lambda: driver.find_element(By.ID, "confirm").get_attribute("open") is not None, "the question")
    ask()
    check(title in driver.find_element(By.CSS_SELECTOR, "#confirm .question").text, "the question names the card")
    shot("question")
    driver.find_element(By.CSS_SELECTOR, "#confirm button[value=no]").click()
    time.sleep(0.5)
    check(card(title) is not None, "no keeps the card")
    ask()
    driver.find_element(By.CSS_SELECTOR, "#confirm button[value=yes]").click()
    wait(lambda: card(title) is None, "yes deletes it")
    shot("final")

    # The language switch: the page again in another language, remembered.
    other = {"en": "fr", "fr": "ko", "ko": "en"}[TAG]
    switch = driver.find_element(By.ID, "language")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch)
    from selenium.webdriver.support.ui import Select
    Select(switch).select_by_value(other)
    wait(lambda: driver.execute_script("return document.documentElement.lang") == other, "the page in " + other)
    driver.get(driver.current_url)
    wait(lambda: driver.execute_script("return document.documentElement.lang") == other, "remembered after a reload")
    shot("switched")

    # Accessibility: axe-core, run in the page.
    with zipfile.ZipFile(AXE) as wheel:
        source = wheel.read("axe_playwright_python/axe.min.js").decode()
    driver.execute_script(source)
    result = driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run(document).then(r => done(r.violations)).catch(e => done([{id: 'axe failed', help: String(e), nodes: []}]))")
    check(result == [], "axe-core finds no violation: " + json.dumps([(v["id"], v["help"], [n.get("html") for n in v["nodes"]][:3]) for v in result], ensure_ascii=False))
    try:
        driver.switch_to.alert
        fail("an alert opened")
    except NoAlertPresentException:
        pass
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(errors == [], "no error in the console: %s" % errors)
    check(driver.title != "PWNED" and driver.execute_script("return document.body.dataset.pwned") is None, "nothing injected ran")
finally:
    try:
        driver.quit()
    except Exception:
        pass
    server.send_signal(signal.SIGTERM)
    try:
        server.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
print("ALL OK")
