// The dealer's console: what the table publishes, and the dealer's buttons. Every button
// sends one event to /api/panel; the table decides, and the next published state shows it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const DEFAULT_CHIPS = [500, 1000, 2500, 5000, 10000];
  const ui = { chip: null, last: null, busy: false,
    prev: new Map() };   // prev: seat -> its wagers of the last round ("same as last round")

  // ---- sending ----------------------------------------------------------
  async function send(event) {
    if (ui.busy) return;
    ui.busy = true;
    document.body.classList.add("busy");
    try {
      const { data } = await T.post("/api/panel", { event });
      if (!data.ok) T.toast(data.error || "refused");
    } finally {
      ui.busy = false;
      document.body.classList.remove("busy");
    }
  }

  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b || b.disabled || document.body.classList.contains("offline")) return;
    if (b.dataset.send) { send(JSON.parse(b.dataset.send)); return; }
    if (b.dataset.chip) { ui.chip = Number(b.dataset.chip); render(); return; }
    if (b.dataset.same) { sameAsLast(Number(b.dataset.same)); return; }
    if (b.id === "open-amount") { openAmount(); return; }
  });

  const sendAttr = (event) => `data-send='${T.esc(JSON.stringify(event))}'`;
  const button = (text, event, cls = "", enabled = true, test = "") =>
    `<button class="act ${cls}" ${sendAttr(event)} ${enabled ? "" : "disabled"}${test ? ` data-test="${test}"` : ""}>${text}</button>`;

  // ---- what the round allows ----------------------------------------------
  // The table publishes the event types its state allows (round.allowed); a game's script
  // that knows them otherwise says (game.allowed).
  const game = T.game;   // the table's game's part (/games/<key>/dealer.js), registered before the first state
  function allows(state, type) {
    const round = state.round || {};
    if (Array.isArray(round.allowed)) return round.allowed.includes(type);
    return (game.allowed ? game.allowed(state) : []).includes(type);
  }

  // ---- rendering ----------------------------------------------------------
  function render() {
    const s = ui.last;
    if (!s) return;
    const table = s.table || {}, round = s.round || {};
    document.title = `Dealer · ${table.name || ""}`;
    $("table-name").textContent = table.name || table.id || "Table";
    $("game").textContent = T.gameName(table.game);
    $("round-id").textContent = round.id ? `Round ${round.id}` : "";
    $("state").textContent = T.label(round.state);
    $("state").dataset.state = round.state || "";
    $("state").hidden = !round.state || round.state === "none";   // no empty badge before the first round
    $("next-step").textContent = round.next_step || "";
    renderAlarms(s);
    T.renderMeter(s);
    $("progressive-banner").innerHTML = T.progressiveHTML(s);
    $("pending").hidden = !T.linked(s);
    $("pending").innerHTML = T.pendingHTML(s, table.id);
    $("panel").innerHTML = (round.buttons || []).map((b) =>
      button(T.esc(b.label || T.label(b.event)), { type: b.event }, b.event === "next_round" ? "green" : "",
        !!b.enabled, `panel-${b.event}`)).join("");
    const own = typeof game.render === "function";   // the game draws its own part of the page
    $("banked").hidden = own;
    $("step-actions").innerHTML = "";
    if (own) game.render(s); else renderBanked(s);
    $("devices").innerHTML = (s.devices || []).map((d) =>
      `<div class="device ${T.esc(d.status)}" data-device="${T.esc(d.name)}"><b>${T.esc(d.name)}</b>` +
      `<span class="status">${T.esc(d.status)}</span>${d.advice ? ` <span class="muted">${T.esc(d.advice)}</span>` : ""}</div>`
    ).join("") || `<span class="muted">No devices reported.</span>`;
    $("devices-box").dataset.allWorking = String((s.devices || []).every((d) =>
      !["disconnected", "missing", "incompatible"].includes(d.status)));
  }

  function renderAlarms(s) {
    $("alarms").innerHTML = T.alarmsHTML(s);
  }

  // ---- a banked game's seats: wagers, cards, the dealer, the settlement --------------------
  function chipsFor(table) {
    const lo = table.minimum_wager, hi = table.maximum_wager;
    if (Array.isArray(table.chips) && table.chips.length) return table.chips;   // the profile's denominations
    if (Number.isInteger(lo) && Number.isInteger(hi)) {
      const list = [lo, lo * 2, lo * 5, lo * 10, lo * 20].filter((c) => c <= hi);
      return list.length ? list : [lo];
    }
    return DEFAULT_CHIPS;
  }

  const wagerName = (w) => (game.wagerNames || {})[w] || w;
  // What a game's script is given to draw a seat's buttons and the step's own.
  const context = (s) => ({ s, allows: (type) => allows(s, type), button, chip: ui.chip, prev: ui.prev,
    same: (n, text) => `<button class="act small grey" data-same="${n}" data-test="same-${n}">${text}</button>` });

  function renderBanked(s) {
    rememberLastRound(s);
    const chips = chipsFor(s.table);
    if (!Number.isInteger(ui.chip) || !withinLimits(s.table, ui.chip)) ui.chip = chips[0];
    const taking = (game.wagerEvents || []).some((type) => allows(s, type));
    const typed = !chips.includes(ui.chip);
    $("chips").innerHTML = taking ? `<span class="label">Wager amount</span>` + chips.map((c) =>
      `<button class="act small grey ${c === ui.chip ? "selected" : ""}" data-chip="${c}">${T.money(c)}</button>`).join("") +
      `<button class="act small ${typed ? "selected" : "grey"}" id="open-amount" data-test="open-amount">` +
      `${typed ? T.money(ui.chip) : "Other amount…"}</button>` : "";
    // A seat with no wager is an empty place, whether or not the table lists it.
    // A seat with a lit acceptor (a late chip, issue 18) is shown too, even without an ante.
    const seats = (s.seats || []).filter((x) => Object.keys(x.wagers || {}).length || (x.cards || []).length ||
      (x.light && x.light !== "off"));
    const count = Math.max(s.table.seats || 7, ...seats.map((x) => x.seat));
    const bySeat = new Map(seats.map((x) => [x.seat, x]));
    const ctx = context(s);
    ctx.offered = game.offered ? game.offered(ctx, seats) : null;
    const html = [];
    for (let n = 1; n <= count; n++) html.push(seatHTML(ctx, n, bySeat.get(n)));
    $("seats").innerHTML = html.join("");
    $("step-actions").innerHTML = game.stepActions ? game.stepActions(ctx, seats) : "";
    renderDealer(s);
    renderSettlement(s.settlement);
    $("dealer-row").dataset.empty = String(!((s.dealer || {}).cards || []).length && !s.settlement);
    // Once settled, the pay list is what the dealer works from: it goes above the seats.
    $("banked").classList.toggle("settled", Array.isArray(s.settlement) && s.settlement.length > 0);
  }

  function seatHTML(ctx, n, seat) {
    const s = ctx.s, offered = ctx.offered === n;
    const cls = ["seat"];
    if (!seat) cls.push("empty");
    if (seat && seat.void) cls.push("void");
    if (offered) cls.push("offer");
    const wagers = seat ? Object.entries(seat.wagers || {}).map(([k, v]) =>
      `<div><b>${T.esc(wagerName(k))}</b> ${T.money(v)}</div>`).join("") : "";
    const light = seat && seat.light && seat.light !== "off"
      ? `<span class="light ${T.esc(seat.light)}">${seat.light === "on" ? "PROG" : T.esc(seat.light).toUpperCase()}</span>` : "";
    const decision = seat && seat.decision && seat.decision !== "offer"
      ? `<div class="decision ${T.esc(seat.decision)}">${T.esc(seat.decision)}</div>` : "";
    // No hand is named over cards the dealer has not turned over (game protection).
    const shown = seat && (seat.cards || []).length && (game.cardsShown ? game.cardsShown(s, seat) : true);
    const hand = seat && seat.void ? `<div class="hand-name">Void hand</div>`
      : seat && seat.hand && shown ? `<div class="hand-name">${T.esc(T.handName(seat.hand))}</div>` : "";
    const buttons = game.seatButtons ? game.seatButtons(ctx, n, seat) : [];
    return `<div class="${cls.join(" ")}" data-seat="${n}">` +
      `<div class="seat-no">Seat ${n}${light}</div>` +
      `<div class="wagers">${wagers || (seat ? "" : `<span class="muted">No wager</span>`)}</div>` +
      (seat && seat.cards && seat.cards.length ? seatCards(s, seat) : "") + hand + decision +
      `<div class="buttons">${buttons.join("")}</div></div>`;
  }

  // A game may keep a player's cards face down on the dealer's screen until a step needs them
  // (game.cardsShown); otherwise they are shown as dealt.
  function seatCards(s, seat) {
    const shown = game.cardsShown ? game.cardsShown(s, seat) : true;
    if (shown) return T.cards(seat.cards);
    return `<div class="cards" data-hidden-cards="${seat.cards.length}">` +
      seat.cards.map(() => `<span class="card back"></span>`).join("") + `</div>`;
  }

  function renderDealer(s) {
    const d = s.dealer;
    if (!d || !(d.cards || []).length) { $("dealer").innerHTML = `<span class="muted">No cards yet.</span>`; return; }
    let facts = "";
    if (d.hand) facts += `<div class="hand-name">${T.esc(T.handName(d.hand))}</div>`;
    if (d.qualifies === true) facts += `<div class="qual yes">Qualifies</div>`;
    if (d.qualifies === false) facts += `<div class="qual no">Does not qualify</div>`;
    $("dealer").innerHTML = T.cards(d.cards, "big", game.upCard ? game.upCard(s) : null) + `<div>${facts}</div>`;
  }

  function renderSettlement(steps) {
    if (!steps) { $("settlement").innerHTML = `<span class="muted">Not settled yet.</span>`; return; }
    if (!steps.length) { $("settlement").innerHTML = `<span class="muted">Nothing to collect or pay.</span>`; return; }
    // The progressive awards are in the list (issue 18): waiting until a supervisor validates
    // each, then paid with the rest, with the hand and where the money comes from. A returned
    // wager says so (a void hand's, 5324.37(e)(5)); a game that settles in parts (game.settlementPart)
    // heads each part with what the dealer does with it now.
    const word = { waiting: "awaits", held: "held", pay: "pay", collect: "collect", push: "push", void: "returned" };
    const item = (x) => {
      const award = x.hand ? ` · ${T.esc(T.handName(x.hand))}` : "";
      const source = x.source ? ` <span class="source" data-source="${T.esc(x.source)}">` +
        `${x.source === "fixed" ? "fixed award" : "from the meter"}</span>` : "";
      const waiting = x.step === "waiting" ? ` <span class="muted">(supervisor to validate)</span>`
        : x.step === "held" ? ` <span class="muted">(hand-pay: its tax form first, on the supervisor's screen)</span>` : "";
      const capped = x.capped ? ` <span class="capped" data-capped>capped at the payout limit</span>` : "";
      const amount = Number.isInteger(x.amount) ? T.money(x.amount) : "—";
      return `<li data-step="${T.esc(x.step)}" data-seat="${x.seat}" data-wager="${T.esc(x.wager || "")}">` +
        `<span class="step ${T.esc(x.step)}">${T.esc(word[x.step] || x.step)}</span>` +
        ` Seat ${x.seat} · ${T.esc(wagerName(x.wager || ""))}${award} · <b>${amount}</b>${capped}${source}${waiting}</li>`;
    };
    const parts = [];
    for (const x of steps) {
      const part = x.deal || "";
      if (!parts.length || parts[parts.length - 1].part !== part) parts.push({ part, steps: [] });
      parts[parts.length - 1].steps.push(x);
    }
    const heading = (part) => (part && game.settlementPart ? game.settlementPart(ui.last, part) : null);
    $("settlement").innerHTML = parts.map(({ part, steps: list }) => {
      const h = heading(part);
      return (h ? `<div class="settle-part ${T.esc(h.now ? "now" : "done")}" data-settle-part="${T.esc(part)}">${T.esc(h.text)}</div>` : "") +
        `<ol class="settlement" data-part="${T.esc(part)}">` + list.map(item).join("") + `</ol>`;
    }).join("");
  }

  // ---- wagers at table speed (issue 18) ----------------------------------------
  function withinLimits(table, cents) {
    return limitRefusal(table, cents) === null;
  }
  // The same words as the table's refusal (controller/games/limits.py): the limit it breaks.
  function limitRefusal(table, cents) {
    const lo = table.minimum_wager, hi = table.maximum_wager;
    if (!Number.isInteger(cents) || cents <= 0) return "Give an amount in dollars and cents.";
    if (Number.isInteger(lo) && cents < lo) return `${T.money(cents)} is below the table's minimum of ${T.money(lo)}`;
    if (Number.isInteger(hi) && cents > hi) return `${T.money(cents)} is above the table's maximum of ${T.money(hi)}`;
    return null;
  }

  // Each seat's wagers of the round before, as the table's journal keeps them (/api/last-round):
  // asked again when a new round opens, so a reload of the page keeps "Same as last round".
  function rememberLastRound(s) {
    const id = (s.round || {}).id || null;
    if (id === ui.roundId) return;
    ui.roundId = id;
    fetch("/api/last-round", { credentials: "same-origin", cache: "no-store" })
      .then((r) => (r.ok ? r.json() : null)).catch(() => null)
      .then((last) => {
        if (!last || ui.roundId !== id) return;
        const prev = new Map(Object.entries(last.seats || {}).map(([seat, w]) => [Number(seat), w]));
        if (JSON.stringify([...prev]) === JSON.stringify([...ui.prev])) return;
        ui.prev = prev;
        if (ui.last && typeof game.render !== "function") renderBanked(ui.last);   // the seats' "Same" buttons
      });
  }

  async function sameAsLast(seat) {
    const prev = ui.prev.get(seat), s = ui.last;
    if (!prev || !s || !game.sameAsLast) return;
    for (const event of game.sameAsLast(seat, prev)) await send(event);
  }

  // Any amount within the limits that the table's chips make, typed on the one keypad (common.js
  // T.keypad: dollars, the cents key for cents), no keyboard at the table.
  const pad = T.keypad("amount-key");
  $("amount-keys").outerHTML = pad.html();
  function showAmount() {
    $("amount-shown").textContent = pad.text();
  }
  function openAmount() {
    pad.press("clear");
    $("amount-error").textContent = "";
    showAmount();
    $("amount-dialog").showModal();
  }
  $("amount-dialog").addEventListener("click", (ev) => {
    if (!pad.touch(ev.target.closest("button"))) return;
    $("amount-error").textContent = "";
    showAmount();
  });
  $("amount-ok").addEventListener("click", () => {
    const cents = pad.value() || 0;
    const why = limitRefusal((ui.last || {}).table || {}, cents) || T.chipRefusal(cents);
    if (why) { $("amount-error").textContent = why; return; }
    ui.chip = cents;
    $("amount-dialog").close();
    render();
  });
  $("amount-cancel").addEventListener("click", () => $("amount-dialog").close());

  // The supervisor signs in on this same screen (issue 18) and comes back here when done.
  $("to-supervisor").addEventListener("click", () => { window.location.href = "/supervisor?from=dealer"; });

  // The game's own part first (its script, its section of the page), then the table's state.
  T.ready.then(() => {
    if (game.section) $("game-console").innerHTML = game.section;
    T.connect((state) => {
      ui.last = state;
      render();
    });
  });
})();
