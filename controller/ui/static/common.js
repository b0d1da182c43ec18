// Shared by the dealer's console and the supervisor's screen: the live connection to the
// table, money and card display, and requests. No build step; plain browser JavaScript.
"use strict";

const T = (() => {
  const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  const RANKS = { T: "10" };
  const HANDS = {
    "royal-flush": "Royal flush", "straight-flush": "Straight flush", "four-of-a-kind": "Four of a kind",
    "full-house": "Full house", "flush": "Flush", "straight": "Straight", "three-of-a-kind": "Three of a kind",
    "two-pair": "Two pair", "pair": "Pair", "high-card": "High card",
  };
  // The table's game's part of the screens (/api/console): its key, its names for people, its files.
  const console_ = { key: null, labels: {}, files: [] };
  const game = {};   // what the game's script registered (T.register): the dealer's page asks it

  function esc(value) {
    return String(value ?? "").replace(/[&<>"']/g, (c) => (
      { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }

  // Integer cents to "$1,234.56"; money never passes through a float here.
  function money(cents) {
    if (cents === null || cents === undefined) return "";
    const negative = cents < 0;
    const text = String(Math.abs(cents)).padStart(3, "0");
    const dollars = text.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${negative ? "-" : ""}$${dollars}.${text.slice(-2)}`;
  }

  // "1234.5" or "1,234.50" to cents, or null when it is not an amount.
  function parseMoney(text) {
    const m = /^\s*\$?\s*(\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?\s*$/.exec(text || "");
    if (!m) return null;
    const cents = Number(m[1].replace(/,/g, "")) * 100 + Number((m[2] || "0").padEnd(2, "0"));
    return Number.isSafeInteger(cents) ? cents : null;
  }

  function card(text, extra = "") {
    if (!text || text === "??") return `<span class="card back ${extra}" title="face down"></span>`;
    const r = text[0], s = text[1];
    const red = s === "h" || s === "d" ? " red" : "";
    return `<span class="card${red} ${extra}" data-card="${esc(text)}"><span class="r">${esc(RANKS[r] || r)}</span>` +
      `<span class="s">${SUITS[s] || esc(s)}</span></span>`;
  }

  function cards(list, extra = "", up = null) {
    return `<div class="cards">${(list || []).map((c) => card(c, extra + (up && c === up ? " up" : ""))).join("")}</div>`;
  }

  function handName(h) { return h ? (HANDS[h] || h) : ""; }
  function gameName(g) { return console_.labels[g] || g || ""; }
  function label(word) { return String(word || "").replace(/_/g, " "); }

  let toastTimer = null;
  function toast(message, kind = "error") {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = message;
    el.className = `show ${kind}`;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.className = ""; }, kind === "error" ? 6000 : 2500);
  }

  // POST JSON with the header the server requires of its own pages.
  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-Tablectl": "1" },
        body: JSON.stringify(body),
      });
    } catch (err) {
      return { status: 0, data: { ok: false, error: "the table did not answer; check the connection" } };
    }
    let data;
    try { data = await response.json(); } catch (err) { data = { ok: false, error: `HTTP ${response.status}` }; }
    return { status: response.status, data };
  }

  // Test mode is never play (controller/testmode.py): a banner on every page while the table says so.
  function testMode(state) {
    let banner = document.getElementById("test-mode");
    if (state && state.test_mode) {
      if (!banner) {
        banner = document.createElement("div");
        banner.id = "test-mode";
        banner.setAttribute("role", "status");
        banner.textContent = "TEST MODE — emulated devices: not for play";
        document.body.prepend(banner);
      }
    } else if (banner) {
      banner.remove();
    }
    document.body.classList.toggle("test-mode", Boolean(state && state.test_mode));
  }

  // The live state: server-sent events. A lost connection shows at once (banner, controls
  // dimmed and inert) and the page keeps trying to reconnect every second. One stream per page:
  // every part of the page (the shared screen's, the game's, the logbook's, ...) listens on it, so a
  // page holds one of the table's few places (controller/ui/app.py MAX_STREAMS) and one connection.
  const WATCHDOG_MS = 25000;  // the server sends at least a heartbeat every 10 s
  const listeners = [];
  let stream = null;
  function connect(onState) {
    listeners.push(onState);
    if (stream) {
      if (stream.last !== undefined) onState(stream.last);   // a part that joins late sees the state now
      return stream.handle;
    }
    let source = null, watchdog = null, retry = null;
    stream = { last: undefined, seen: false, handle: { get seen() { return stream.seen; } } };
    const online = (yes) => {
      document.body.classList.toggle("offline", !yes);
      document.body.dataset.connection = yes ? "online" : "offline";
    };
    const lost = () => {
      online(false);
      if (source) { source.close(); source = null; }
      clearTimeout(watchdog);
      clearTimeout(retry);
      retry = setTimeout(open, 1000);
    };
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(lost, WATCHDOG_MS);
    };
    function open() {
      source = new EventSource("/api/events");
      source.onopen = alive;
      source.addEventListener("state", (ev) => {
        alive();
        let state;
        try { state = JSON.parse(ev.data); } catch (err) { return; }
        stream.seen = true;
        stream.last = state;
        online(true);
        testMode(state);
        for (const listen of listeners) {
          try { listen(state); } catch (err) { console.error(err); }   // one part's bug leaves the others drawn
        }
      });
      source.addEventListener("heartbeat", alive);
      source.onerror = lost;
    }
    online(false);
    open();
    return stream.handle;
  }

  // Every alarm the state calls for: the table's own, and those the state implies when the
  // table does not list them (a late or removed progressive wager by its acceptor light,
  // 5324.37(a)(3)(ii); a device not connected; a fault).
  function alarms(state) {
    const out = [...(state.alarms || [])];
    const has = (kind, seat) => out.some((a) => a.kind === kind && (seat === undefined || a.seat === undefined || a.seat === seat));
    for (const seat of state.seats || []) {
      if (seat.light === "late" && !has("late_wager", seat.seat)) {
        out.push({ kind: "late_wager", seat: seat.seat,
          message: `Seat ${seat.seat}: progressive wager after the lock-out, not recognized` });
      }
      if (seat.light === "removed" && !has("wager_removed", seat.seat)) {
        out.push({ kind: "wager_removed", seat: seat.seat, message: `Seat ${seat.seat}: progressive wager removed` });
      }
    }
    for (const d of state.devices || []) {
      // The dealer reads the table's advice (plain words), never the driver's error text (issue 18).
      if ((d.status === "disconnected" || d.status === "missing" || d.status === "incompatible") &&
          !out.some((a) => a.kind === "device" && (a.device === d.name || (!a.device && String(a.message || "").includes(d.name))))) {
        out.push({ kind: "device", device: d.name, message: d.advice || `The ${d.name} is ${d.status}: call a technician.` });
      }
    }
    if (state.fault && !has("fault")) out.push({ kind: "fault", message: `Fault: ${state.fault.reason}` });
    // A linked progressive out of reach has its own banner (progressiveHTML), which says more.
    if (linked(state) && !linked(state).available) {
      const i = out.findIndex((a) => a.kind === "progressive_unavailable" || a.kind === "jackpot_unavailable");
      if (i >= 0) out.splice(i, 1);
    }
    const order = ["fault", "device", "deck_count", "late_wager", "wager_removed"];
    const rank = (a) => (order.includes(a.kind) ? order.indexOf(a.kind) : order.length);
    return out.sort((a, b) => rank(a) - rank(b));
  }

  function alarmsHTML(state) {
    return alarms(state).map((a) =>
      `<div class="alarm kind-${esc(a.kind)}" data-alarm="${esc(a.kind)}"${a.seat ? ` data-seat="${esc(a.seat)}"` : ""}>` +
      `<span class="kind">${esc(label(a.kind))}</span>${esc(a.message)}</div>`).join("");
  }

  // ---- a linked progressive (issue 10) ----------------------------------------
  // The table's progressive is a pool's, shared with other tables through the database:
  // the meter is the pool's, and while the table cannot reach the pool the progressive wager
  // is not played (9 NYCRR 5321.18(c)), so no amount is shown that the pool may have left behind.
  function linked(state) {
    const p = state && state.progressive;
    return p && p.linked ? p : null;
  }

  // The header's meter: the pool's name beside it; "Unavailable" while the link is down.
  function renderMeter(state) {
    const box = document.getElementById("meter-box"), amount = document.getElementById("meter");
    const pool = document.getElementById("meter-pool");
    const link = linked(state), meter = state.meter;
    box.hidden = !meter && !link;
    const down = !!link && (!link.available || link.meter === null || link.meter === undefined);
    box.classList.toggle("unavailable", down);
    box.dataset.available = down ? "false" : "true";
    amount.textContent = down ? "Unavailable" : money(link ? link.meter : (meter || {}).amount);
    const name = document.getElementById("meter-name");
    if (name) name.textContent = link && link.kind === "jackpot" ? "Jackpot pool" : "Progressive meter";
    if (pool) {
      pool.hidden = !link;
      pool.textContent = link ? `Pool ${link.pool}` : "";
    }
  }

  // The banner while the pool cannot be reached: play goes on without the progressive.
  function progressiveHTML(state) {
    const link = linked(state);
    if (!link || link.available) return "";
    if (link.kind === "jackpot") {   // a pooled jackpot (a card room's): no wager to refuse, hands go on
      return `<div class="progressive-down" data-alarm="progressive_unavailable" role="alert">` +
        `<div class="headline">Jackpot pool out of reach — link down (5321.18(c)); hands go on</div>` +
        `<div class="detail">Pool ${esc(link.pool)}${link.reason ? ` · reason: <span data-reason>${esc(link.reason)}</span>` : ""}` +
        ` · each hand's jackpot drop and qualifying hands wait at the table and are sent when the link is back` +
        `</div></div>`;
    }
    return `<div class="progressive-down" data-alarm="progressive_unavailable" role="alert">` +
      `<div class="headline">Progressive unavailable \u2014 link to the pool down (5321.18(c)); the base game goes on</div>` +
      `<div class="detail">Pool ${esc(link.pool)}${link.reason ? ` \u00b7 reason: <span data-reason>${esc(link.reason)}</span>` : ""}` +
      ` \u00b7 no progressive wager is recognized until the link is back</div></div>`;
  }

  // Every award of the pool waiting for its table's supervisor, whichever table hit it: a
  // hit anywhere is pending on every linked table's screen until it is validated.
  function pendingHTML(state, own) {
    const link = linked(state);
    if (!link) return "";
    if (link.kind === "jackpot") {   // the period's leading hand of every table (5324.42(r)(4))
      const lead = link.leading;
      const stale = link.available ? "" : ` <span class="muted">(as last heard from the pool; the link is down)</span>`;
      const head = `<h2>Jackpot pool ${esc(link.pool)}${link.period ? ` — period ${esc(link.period)}` : ""}${stale}</h2>`;
      const last = link.last_period;   // the last period closed, as announced (5324.42(r)(5)-(7))
      const announced = !last ? "" : `<div class="announced" data-announced-period="${esc(last.number)}">` +
        (last.status === "paid"
          ? `Period ${esc(last.number)} closed: ${money(last.total_cents)} paid \u2014 ` + (last.winners || []).map((w) =>
              `table ${esc(w.table)}, seat ${esc(w.seat)} (${esc(handName(w.hand))}) ${money(w.amount_cents)}`).join("; ")
          : `Period ${esc(last.number)} closed: no qualifying hand, ${money(last.total_cents)} rolled over ` +
            `to period ${esc(last.number + 1)}`) + `</div>`;
      if (!lead) return head + announced + `<div class="muted" data-leading-none>No qualifying hand yet this period.</div>`;
      return head + announced + `<div class="leading" data-leading-table="${esc(lead.table)}">Leading: ` +
        [handName(lead.hand), ((lead.cards || "").match(/../g) || []).join(" ")].filter(Boolean).map(esc).join(" ") +
        ` · table ${esc(lead.table)}, seat ${esc(lead.seat)}</div>`;
    }
    const list = link.pending || [];
    const stale = link.available ? "" : ` <span class="muted">(as last heard from the pool; the link is down)</span>`;
    const head = `<h2>Progressive pool ${esc(link.pool)} \u2014 awards pending validation${stale}</h2>`;
    if (!list.length) return head + `<div class="muted" data-pending-none>No award pending.</div>`;
    const rows = list.map((a) => {
      const mine = a.table === own || (link.table && a.table === link.table);
      return `<tr class="pending-award${mine ? " mine" : ""}" data-pending-table="${esc(a.table)}" ` +
        `data-pending-round="${esc(a.round)}" data-pending-seat="${esc(a.seat)}">` +
        `<td>${esc(a.seq ?? "")}</td><td>${esc(a.table)}${mine ? " <b>(this table)</b>" : ""}</td>` +
        `<td>${esc(a.round)}</td><td>${esc(a.seat)}</td><td>${esc(handName(a.hand))}</td>` +
        `<td class="amount" data-amount>${money(a.amount_cents)}</td><td class="status">pending validation</td></tr>`;
    }).join("");
    return head + `<table class="pending-awards"><thead><tr><th title="the order the pool committed it (5321.18(b)(3)(iii))">Order</th><th>Table</th><th>Round</th><th>Seat</th>` +
      `<th>Hand</th><th>Amount</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>`;
  }

  // ---- the one keypad (issue 30) ---------------------------------------------------
  // Every amount at the table is typed the same way, on every console and the supervisor's screen:
  // dollars, and the cents key before any cents ("1 5" is $15, "1 5 . 5 0" is $15.50), shown as
  // typed, so a dealer moving from table to table never keys a hundred times the amount.
  const PAD_KEYS = ["1", "2", "3", "back", "4", "5", "6", "clear", "7", "8", "9", "cents", "0"];
  const PAD_LABELS = { back: "\u232b", clear: "Clear", cents: ".\u00a2" };
  function keypad(test = "key") {
    const pad = { dollars: "", cents: null };
    const empty = () => !pad.dollars && pad.cents === null;
    pad.press = (k) => {
      if (k === "clear") { pad.dollars = ""; pad.cents = null; }
      else if (k === "back") {
        if (pad.cents) pad.cents = pad.cents.slice(0, -1);
        else if (pad.cents !== null) pad.cents = null;
        else pad.dollars = pad.dollars.slice(0, -1);
      } else if (k === "cents") { if (pad.cents === null) pad.cents = ""; }
      else if (/^\d$/.test(k)) {
        if (pad.cents !== null) { if (pad.cents.length < 2) pad.cents += k; }
        else if (pad.dollars.length < 7) pad.dollars = (pad.dollars + k).replace(/^0+(?=\d)/, "");
      }
    };
    // The amount in integer cents, or null when nothing is typed.
    pad.value = () => (empty() ? null : Number(pad.dollars || "0") * 100 + Number((pad.cents || "").padEnd(2, "0")));
    pad.text = () => (empty() ? "$0" : `$${(pad.dollars || "0").replace(/\B(?=(\d{3})+(?!\d))/g, ",")}` +
      (pad.cents === null ? "" : `.${pad.cents}`));
    pad.set = (cents) => {
      if (!Number.isInteger(cents) || cents < 0) { pad.press("clear"); return; }
      pad.dollars = String(Math.floor(cents / 100));
      pad.cents = cents % 100 ? String(cents % 100).padStart(2, "0") : null;
    };
    pad.html = (cls = "") => `<div class="keypad amount-pad ${cls}" data-keypad="${esc(test)}">` + PAD_KEYS.map((k) =>
      `<button class="act grey key-${k}" data-pad-key="${k}" data-test="${esc(test)}-${k}"` +
      `${k === "cents" ? ' aria-label="cents"' : ""}>${PAD_LABELS[k] || k}</button>`).join("") + `</div>`;
    // A touch on one of this keypad's keys (from a click handler): true when it was one.
    pad.touch = (button) => {
      const box = button && button.closest("[data-keypad]");
      if (!box || box.dataset.keypad !== test || button.dataset.padKey === undefined) return false;
      pad.press(button.dataset.padKey);
      return true;
    };
    return pad;
  }
  // The table's smallest chip (or the smallest amount its chips make), from /api/console.
  function unit() { return Number.isInteger(console_.unit) && console_.unit > 0 ? console_.unit : 1; }
  // Why no chip at the table makes `cents`, or null when they can.
  function chipRefusal(cents) {
    const u = unit();
    if (!Number.isInteger(cents) || cents % u === 0) return null;
    return `${money(cents)} cannot be made with the table's chips: amounts go in steps of ${money(u)}`;
  }

  // ---- the game's own part of the screens ------------------------------------------
  // Each game's package serves its scripts under its key (/games/<key>/dealer.js, supervisor.js,
  // and their styles); the page loads the ones for its screen, and the game's script registers
  // what the shared page asks of it. Until the table answers, the page waits a second and asks again.
  function register(parts) { Object.assign(game, parts); }

  function loadFile(src, css) {
    return new Promise((resolve) => {
      const el = document.createElement(css ? "link" : "script");
      if (css) { el.rel = "stylesheet"; el.href = src; } else { el.src = src; el.async = false; }
      el.onload = () => resolve();
      el.onerror = () => resolve();   // shown without the game's part; the page still works the rest
      document.head.appendChild(el);
    });
  }

  async function loadGame(screen) {
    for (;;) {
      try {
        const response = await fetch("/api/console", { credentials: "same-origin", cache: "no-store" });
        if (response.ok) { Object.assign(console_, await response.json()); break; }
      } catch (err) { /* not answering yet: again in a second */ }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const base = `/games/${encodeURIComponent(console_.key)}/`;
    const files = console_.files || [];
    // the screen's own file, then its parts beside it (supervisor-*.js: a form of the game's own)
    const parts = files.filter((f) => f.startsWith(`${screen}-`) && f.endsWith(".js")).map((f) => [f, false]);
    const wanted = [[`${screen}.css`, true], [`${screen}.js`, false], ...parts].filter(([f]) => files.includes(f));
    await Promise.all(wanted.map(([f, css]) => loadFile(base + f, css)));
  }

  return { esc, money, alarms, alarmsHTML, parseMoney, card, cards, handName, gameName, label, toast, post, connect,
    linked, renderMeter, progressiveHTML, pendingHTML, register, game, loadGame, keypad, unit, chipRefusal };
})();
T.ready = T.loadGame(document.body.dataset.screen || "");
