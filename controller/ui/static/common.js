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
  const GAMES = { "caribbean-stud": "Caribbean stud poker", "casino-war": "Casino war", "poker": "Poker" };

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
  function gameName(g) { return GAMES[g] || g || ""; }
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

  // The live state: server-sent events. A lost connection shows at once (banner, controls
  // dimmed and inert) and the page keeps trying to reconnect every second.
  const WATCHDOG_MS = 25000;  // the server sends at least a heartbeat every 10 s
  function connect(onState) {
    let source = null, watchdog = null, retry = null, seen = false;
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
        seen = true;
        online(true);
        onState(state);
      });
      source.addEventListener("heartbeat", alive);
      source.onerror = lost;
    }
    online(false);
    open();
    return { get seen() { return seen; } };
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
      if ((d.status === "disconnected" || d.status === "missing") &&
          !out.some((a) => a.kind === "device" && String(a.message || "").includes(d.name))) {
        out.push({ kind: "device", message: `${d.name} ${d.status}${d.detail ? `: ${d.detail}` : ""}` });
      }
    }
    if (state.fault && !has("fault")) out.push({ kind: "fault", message: `Fault: ${state.fault.reason}` });
    const order = ["fault", "device", "deck_count", "late_wager", "wager_removed"];
    const rank = (a) => (order.includes(a.kind) ? order.indexOf(a.kind) : order.length);
    return out.sort((a, b) => rank(a) - rank(b));
  }

  function alarmsHTML(state) {
    return alarms(state).map((a) =>
      `<div class="alarm kind-${esc(a.kind)}" data-alarm="${esc(a.kind)}"${a.seat ? ` data-seat="${esc(a.seat)}"` : ""}>` +
      `<span class="kind">${esc(label(a.kind))}</span>${esc(a.message)}</div>`).join("");
  }

  return { esc, money, alarms, alarmsHTML, parseMoney, card, cards, handName, gameName, label, toast, post, connect };
})();
