/// The page's one script (`/static/app.js`): served from here, never from
/// a file, so that no path from a request reaches the file system. It makes
/// no text: every word comes in the server's HTML, already in the reader's
/// language and escaped.
enum PageScript {
    static let source = #"""
        // pm serve's page: everything it shows comes from the server, already in
        // the reader's language and escaped; this script only sends what the
        // reader does and swaps in the parts the server sends back.
        "use strict";
        (function () {
          const csrf = document.querySelector('meta[name="pm-csrf"]').content;
          const board = document.getElementById("board");
          const bar = document.getElementById("bar");
          const status = document.getElementById("status");
          const filters = document.getElementById("filters");
          const confirmDialog = document.getElementById("confirm");
          const editDialog = document.getElementById("edit");
          let busy = false;
          // The board's version the page shows: a change it already shows (its own) is not fetched again.
          let version = 0;
          let editing = null;

          function filterQuery() {
            const params = new URLSearchParams();
            if (!filters) return params;
            const text = filters.elements.q.value.trim();
            if (text) params.set("q", text);
            if (filters.elements.mine.checked) params.set("mine", "1");
            if (filters.elements.overdue.checked) params.set("overdue", "1");
            return params;
          }

          function say(text, isError) {
            status.textContent = text || "";
            status.classList.toggle("error", !!isError);
          }

          // What has the focus, said so that it can be found again in new parts:
          // its id, or its card and what it does there.
          function focusKey() {
            const active = document.activeElement;
            if (!active || active === document.body) return null;
            if (active.id) return { id: active.id };
            const card = active.closest(".card");
            if (!card) return null;
            return { card: card.dataset.id, action: active.dataset.action || (active.matches("select") ? "move" : null) };
          }

          function refocus(key) {
            if (!key) return;
            let again = null;
            if (key.id) again = document.getElementById(key.id);
            else {
              const card = board.querySelector('.card[data-id="' + key.card + '"]');
              if (card) again = key.action === "move" ? card.querySelector("select") : card.querySelector('[data-action="' + key.action + '"]');
            }
            if (again && again !== document.activeElement) again.focus();
          }

          // Swaps in new parts, keeping the focus on the same control when it is still there.
          function swap(parts) {
            const keep = focusKey();
            if (parts.version !== undefined) version = Math.max(version, Number(parts.version));
            if (parts.board !== undefined) board.innerHTML = parts.board;
            if (parts.bar !== undefined) bar.innerHTML = parts.bar;
            if (parts.history !== undefined) {
              // The panel stays open or closed as the reader left it.
              const open = document.getElementById("history-panel").open;
              document.getElementById("history").innerHTML = parts.history;
              document.getElementById("history-panel").open = open;
            }
            refocus(keep);
          }

          async function refresh() {
            const response = await fetch("/board?" + filterQuery().toString(), { credentials: "same-origin" });
            if (response.ok) swap(await response.json());
          }

          async function post(action, fields) {
            if (busy) return null;
            busy = true;
            document.body.classList.add("busy");
            try {
              const body = new URLSearchParams(fields || {});
              for (const [name, value] of filterQuery()) body.set("view." + name, value);
              const response = await fetch("/api/" + action, {
                method: "POST",
                credentials: "same-origin",
                headers: { "X-PM-CSRF": csrf, "Content-Type": "application/x-www-form-urlencoded" },
                body: body.toString(),
              });
              const parts = await response.json();
              swap(parts);
              say(parts.message, !response.ok);
              if (parts.race !== undefined) settle(parts.race, fields);
              return response.ok ? parts : null;
            } catch (error) {
              say(document.body.dataset.offline, true);
              return null;
            } finally {
              busy = false;
              document.body.classList.remove("busy");
            }
          }

          // The browser's time zone, for dates and "today" (a cookie the server
          // reads; the page itself never echoes it, beside its CSRF token).
          const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
          const sent = document.cookie.split("; ").find((part) => part.startsWith("pm_zone="));
          if (zone && sent !== "pm_zone=" + encodeURIComponent(zone)) {
            document.cookie = "pm_zone=" + encodeURIComponent(zone) + "; Path=/; SameSite=Strict";
            refresh();
          }

          document.addEventListener("click", async (event) => {
            const button = event.target.closest("button[data-action]");
            if (!button || button.disabled) return;
            const action = button.dataset.action;
            const card = button.closest(".card");
            const id = card ? card.dataset.id : null;
            if (action === "delete") {
              confirmDialog.querySelector(".question").textContent = button.dataset.question;
              confirmDialog.dataset.id = id;
              confirmDialog.returnValue = "";
              confirmDialog.showModal();
            } else if (action === "edit") {
              openEdit(card);
            } else if (action === "resolve") {
              post("resolve", { id: id, field: button.dataset.field, choice: button.dataset.choice });
            } else {
              post(action, id ? { id: id } : {});
            }
          });

          confirmDialog.addEventListener("close", () => {
            if (confirmDialog.returnValue === "yes") post("delete", { id: confirmDialog.dataset.id });
          });

          // An edit that lost a race: both values, and the reader keeps one.
          const raceDialog = document.getElementById("race");
          let racing = null;
          function settle(values, fields) {
            raceDialog.querySelector(".values").innerHTML = values;
            racing = {};
            for (const name in fields) if (!name.startsWith("was.") && !name.startsWith("view.")) racing[name] = fields[name];
            raceDialog.returnValue = "";
            raceDialog.showModal();
          }
          raceDialog.addEventListener("close", () => {
            if (raceDialog.returnValue === "mine" && racing) post("edit", racing);
            racing = null;
          });

          function openEdit(card) {
            const form = editDialog.querySelector("form");
            form.elements.id.value = card.dataset.id;
            form.elements.title.value = card.dataset.title;
            const body = card.querySelector(".body p");
            form.elements.body.value = body ? body.textContent : "";
            form.elements.due.value = card.dataset.due || "";
            form.elements.assignees.value = card.dataset.assignees || "";
            editing = { title: form.elements.title.value, body: form.elements.body.value, due: form.elements.due.value,
              assignees: form.elements.assignees.value };
            editDialog.returnValue = "";
            editDialog.showModal();
            form.elements.title.focus();
          }

          editDialog.addEventListener("close", () => {
            if (editDialog.returnValue !== "save") return;
            const form = editDialog.querySelector("form");
            // Only what the reader changed, with what it was when the form opened:
            // a colleague's change to another field meanwhile stays, one to the
            // same field comes back as a race to settle.
            const changed = { id: form.elements.id.value };
            for (const name of ["title", "body", "due", "assignees"]) {
              if (form.elements[name].value !== editing[name]) {
                changed[name] = form.elements[name].value;
                changed["was." + name] = editing[name];
              }
            }
            if (Object.keys(changed).length > 1) post("edit", changed);
          });

          document.addEventListener("change", (event) => {
            const menu = event.target.closest("select[data-move]");
            if (menu && menu.value) post("move", { id: menu.closest(".card").dataset.id, to: menu.value });
            if (event.target.id === "language") post("language", { language: event.target.value }).then(() => location.reload());
          });

          const add = document.getElementById("add");
          if (add) {
            add.addEventListener("submit", async (event) => {
              event.preventDefault();
              const done = await post("add", Object.fromEntries(new FormData(add)));
              if (done) add.reset();
            });
          }

          if (filters) {
            let timer = null;
            filters.addEventListener("submit", (event) => event.preventDefault());
            filters.addEventListener("input", () => {
              clearTimeout(timer);
              timer = setTimeout(refresh, 150);
            });
          }

          // Drag and drop, with a mouse, a pen or a finger (pointer events): a card
          // dropped on another column moves there. The move menu does the same
          // from a keyboard.
          let drag = null;
          board.addEventListener("pointerdown", (event) => {
            const card = event.target.closest(".card");
            if (!card || card.dataset.readOnly || event.button !== 0) return;
            const onGrip = event.target.closest(".grip");
            if (!onGrip && (event.pointerType !== "mouse" || event.target.closest("button, select, a, input, textarea"))) return;
            drag = { card: card, id: card.dataset.id, from: card.closest("[data-state]").dataset.state,
              x: event.clientX, y: event.clientY, moving: false, pointer: event.pointerId };
          });
          document.addEventListener("pointermove", (event) => {
            if (!drag || event.pointerId !== drag.pointer) return;
            const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
            if (!drag.moving && Math.hypot(dx, dy) < 6) return;
            if (!drag.moving) {
              drag.moving = true;
              drag.ghost = ghostOf(drag.card);
              drag.card.classList.add("dragging");
              requestAnimationFrame(autoScroll);
            }
            event.preventDefault();
            drag.lastX = event.clientX;
            drag.lastY = event.clientY;
            place();
          });
          // A copy of the card follows the pointer (the card itself stays where the
          // finger touched it, or the browser takes the touch for a scroll); the
          // column under it is lit.
          function ghostOf(card) {
            const rect = card.getBoundingClientRect();
            const ghost = card.cloneNode(true);
            for (const element of [ghost, ...ghost.querySelectorAll("[id]")]) element.removeAttribute("id");
            ghost.setAttribute("aria-hidden", "true");
            ghost.classList.add("ghost");
            ghost.style.left = rect.left + "px";
            ghost.style.top = rect.top + "px";
            ghost.style.width = rect.width + "px";
            document.body.appendChild(ghost);
            return ghost;
          }
          function place() {
            const dx = drag.lastX - drag.x, dy = drag.lastY - drag.y;
            drag.ghost.style.transform = "translate(" + dx + "px," + dy + "px)";
            for (const column of board.querySelectorAll(".column")) column.classList.remove("over");
            const under = columnAt(drag.lastX, drag.lastY);
            if (under) under.classList.add("over");
          }
          // On a phone the other columns are below: near the screen's edge, the page scrolls.
          function autoScroll() {
            if (!drag || !drag.moving) return;
            const edge = 48;
            const step = drag.lastY < edge ? -12 : drag.lastY > window.innerHeight - edge ? 12 : 0;
            if (step) {
              window.scrollBy(0, step);
              place();
            }
            requestAnimationFrame(autoScroll);
          }
          function endDrag(event) {
            if (!drag || event.pointerId !== drag.pointer) return;
            const ended = drag;
            drag = null;
            if (!ended.moving) return;
            ended.card.classList.remove("dragging");
            ended.ghost.remove();
            for (const column of board.querySelectorAll(".column")) column.classList.remove("over");
            // Where the pointer last moved: a lifted finger's pointerup may carry no position.
            const under = event.type === "pointerup" ? columnAt(ended.lastX, ended.lastY) : null;
            if (under && under.dataset.state !== ended.from) post("move", { id: ended.id, to: under.dataset.state });
          }
          // A finger on the grip drags the card, never the page (where touch-action
          // is not honoured, the touch's own default is what scrolls).
          board.addEventListener("touchstart", (event) => {
            if (event.target.closest(".grip")) event.preventDefault();
          }, { passive: false });
          board.addEventListener("touchmove", (event) => {
            if (drag) event.preventDefault();
          }, { passive: false });
          document.addEventListener("pointerup", endDrag);
          document.addEventListener("pointercancel", endDrag);
          function columnAt(x, y) {
            const element = document.elementFromPoint(x, y);
            return element ? element.closest(".column") : null;
          }

          // Live: the server says when the board changed, anywhere.
          function listen() {
            const events = new EventSource("/events");
            events.addEventListener("change", (event) => {
              if (!drag && !(Number(event.data) <= version)) refresh();
            });
            events.addEventListener("error", () => {
              document.body.classList.add("disconnected");
            });
            events.addEventListener("open", () => document.body.classList.remove("disconnected"));
          }
          listen();
        })();
        """#
}
