// The dealer's console: what the table publishes, and the dealer's buttons. Every button
// sends one event to /api/panel; the table decides, and the next published state shows it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const DEFAULT_CHIPS = [500, 1000, 2500, 5000, 10000];
  const ui = { chip: null, last: null, busy: false,
    prev: new Map(), typed: "" };   // prev: seat -> its wagers of the last round ("same as last round")

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
  // The table may publish the event types its state allows (round.allowed); if it does not,
  // the round's state says it.
  const FALLBACK = {
    "caribbean-stud": { open: ["ante", "remove"], decisions: ["decision"] },
    "casino-war": { wagers: ["wager"], decisions: ["decision"] },
  };
  function allows(state, type) {
    const round = state.round || {};
    if (Array.isArray(round.allowed)) return round.allowed.includes(type);
    const game = (state.table || {}).game;
    return ((FALLBACK[game] || {})[round.state] || []).includes(type);
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
    $("next-step").textContent = round.next_step || "";
    renderAlarms(s);
    T.renderMeter(s);
    $("progressive-banner").innerHTML = T.progressiveHTML(s);
    $("pending").hidden = !T.linked(s);
    $("pending").innerHTML = T.pendingHTML(s, table.id);
    $("panel").innerHTML = (round.buttons || []).map((b) =>
      button(T.esc(b.label || T.label(b.event)), { type: b.event }, b.event === "next_round" ? "green" : "",
        !!b.enabled, `panel-${b.event}`)).join("");
    const poker = table.game === "poker" || !!s.poker || !!s.seating;
    $("banked").hidden = poker;
    $("poker").hidden = !poker;
    $("step-actions").innerHTML = "";
    if (poker) PokerConsole.render(s); else renderBanked(s);   // poker: static/poker.js
    $("devices").innerHTML = (s.devices || []).map((d) =>
      `<div class="device ${T.esc(d.status)}" data-device="${T.esc(d.name)}"><b>${T.esc(d.name)}</b>` +
      `<span class="status">${T.esc(d.status)}</span>${d.advice ? ` <span class="muted">${T.esc(d.advice)}</span>` : ""}</div>`
    ).join("") || `<span class="muted">No devices reported.</span>`;
  }

  function renderAlarms(s) {
    $("alarms").innerHTML = T.alarmsHTML(s);
  }

  // ---- Caribbean stud and casino war ------------------------------------------
  function chipsFor(table) {
    const lo = table.minimum_wager, hi = table.maximum_wager;
    if (Array.isArray(table.chips) && table.chips.length) return table.chips;   // the profile's denominations
    if (Number.isInteger(lo) && Number.isInteger(hi)) {
      const list = [lo, lo * 2, lo * 5, lo * 10, lo * 20].filter((c) => c <= hi);
      return list.length ? list : [lo];
    }
    return DEFAULT_CHIPS;
  }

  const WAGER_NAMES = { ante: "Ante", bet: "Bet", progressive: "Progressive", initial: "Initial",
    tie: "Tie", war: "War", war_tie: "War tie" };

  function renderBanked(s) {
    const game = s.table.game;
    rememberLastRound(s);
    const chips = chipsFor(s.table);
    if (!Number.isInteger(ui.chip) || !withinLimits(s.table, ui.chip)) ui.chip = chips[0];
    const taking = allows(s, "ante") || allows(s, "wager");
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
    const offered = game === "casino-war" ? warOffer(s, seats) : null;
    const html = [];
    for (let n = 1; n <= count; n++) html.push(seatHTML(s, game, n, bySeat.get(n), offered === n));
    $("seats").innerHTML = html.join("");
    $("step-actions").innerHTML = stepActions(s, game, seats, offered);
    renderDealer(s, game);
    renderSettlement(s.settlement);
    // Once settled, the pay list is what the dealer works from: it goes above the seats.
    $("banked").classList.toggle("settled", Array.isArray(s.settlement) && s.settlement.length > 0);
  }

  // Casino war: the tie hand the dealer offers surrender or war now, the first undecided one
  // from the dealer's left (5324.22(i)(3)); the table may name it with decision "offer".
  function warOffer(s, seats) {
    const named = seats.find((x) => x.decision === "offer");
    if (named) return named.seat;
    if (!allows(s, "decision")) return null;
    const dealer = ((s.dealer || {}).cards || [])[0];
    if (!dealer) return null;
    const tie = seats.find((x) => !x.decision && !x.void && (x.cards || []).length === 1 && x.cards[0][0] === dealer[0]);
    return tie ? tie.seat : null;
  }

  function seatHTML(s, game, n, seat, offered) {
    const cls = ["seat"];
    if (!seat) cls.push("empty");
    if (seat && seat.void) cls.push("void");
    if (offered) cls.push("offer");
    const wagers = seat ? Object.entries(seat.wagers || {}).map(([k, v]) =>
      `<div><b>${T.esc(WAGER_NAMES[k] || k)}</b> ${T.money(v)}</div>`).join("") : "";
    const light = seat && seat.light && seat.light !== "off"
      ? `<span class="light ${T.esc(seat.light)}">${seat.light === "on" ? "PROG" : T.esc(seat.light).toUpperCase()}</span>` : "";
    const decision = seat && seat.decision && seat.decision !== "offer"
      ? `<div class="decision ${T.esc(seat.decision)}">${T.esc(seat.decision)}</div>` : "";
    const prev = ui.prev.get(n);
    const hand = seat && seat.void ? `<div class="hand-name">Void hand</div>`
      : seat && seat.hand ? `<div class="hand-name">${T.esc(T.handName(seat.hand))}</div>` : "";
    const buttons = [];
    if (game === "caribbean-stud") {
      if (allows(s, "ante")) {
        buttons.push(button(seat ? `Ante ${T.money(ui.chip)}` : "Ante", { type: "ante", seat: n, amount: ui.chip },
          "small", true, `ante-${n}`));
        if (prev && prev.ante && !(seat && seat.wagers && seat.wagers.ante === prev.ante)) {
          buttons.push(`<button class="act small grey" data-same="${n}" data-test="same-${n}">Same ${T.money(prev.ante)}</button>`);
        }
        if (seat && seat.wagers && seat.wagers.ante) {
          buttons.push(button("Remove", { type: "remove", seat: n, wager: "ante" }, "small grey", true, `remove-${n}`));
        }
      }
      if (seat && allows(s, "decision") && !seat.decision && !seat.void) {
        buttons.push(button("Bet", { type: "decision", seat: n, decision: "bet" }, "green", true, `bet-${n}`));
        buttons.push(button("Fold", { type: "decision", seat: n, decision: "fold" }, "red", true, `fold-${n}`));
      }
    } else if (game === "casino-war") {
      const w = (seat && seat.wagers) || {};
      if (allows(s, "wager")) {
        if (!w.initial) buttons.push(button("Initial", { type: "wager", seat: n, wager: "initial", stake: ui.chip }, "small", true, `initial-${n}`));
        if (!w.tie) buttons.push(button("Tie", { type: "wager", seat: n, wager: "tie", stake: ui.chip }, "small grey", true, `tie-${n}`));
        if (prev && prev.initial && !w.initial) {
          buttons.push(`<button class="act small grey" data-same="${n}" data-test="same-${n}">Same as last</button>`);
        }
      }
      if (seat && offered) {
        buttons.push(button("War", { type: "decision", seat: n, decision: "war" }, "green", true, `war-${n}`));
        buttons.push(button(`War + tie ${T.money(ui.chip)}`, { type: "decision", seat: n, decision: "war", war_tie: ui.chip },
          "green small", true, `wartie-${n}`));
        buttons.push(button("Surrender", { type: "decision", seat: n, decision: "surrender" }, "red", true, `surrender-${n}`));
      }
    }
    return `<div class="${cls.join(" ")}" data-seat="${n}">` +
      `<div class="seat-no">Seat ${n}${light}</div>` +
      `<div class="wagers">${wagers || (seat ? "" : `<span class="muted">No wager</span>`)}</div>` +
      (seat && seat.cards && seat.cards.length ? seatCards(s, game, seat) : "") + hand + decision +
      `<div class="buttons">${buttons.join("")}</div></div>`;
  }

  // Game protection: a player's cards stay face down on the dealer's screen until a step needs
  // them, at Caribbean stud the settlement after the dealer's hand is revealed (5324.37(e)(4)-(5)).
  // Casino war's cards are dealt face up (5324.22(h)(2)), so they are shown as dealt.
  const STUD_CARDS_SHOWN = ["revealed", "validation", "closed", "void"];
  function seatCards(s, game, seat) {
    // After the reveal, only the hands the dealer turns over (5324.37(e)(4), (e)(5)(i)): the table names them.
    const turned = Array.isArray(s.turn_over) ? s.turn_over.includes(seat.seat) : true;
    const shown = game !== "caribbean-stud" || (STUD_CARDS_SHOWN.includes((s.round || {}).state) && turned);
    if (shown) return T.cards(seat.cards);
    return `<div class="cards" data-hidden-cards="${seat.cards.length}">` +
      seat.cards.map(() => `<span class="card back"></span>`).join("") + `</div>`;
  }

  function renderDealer(s, game) {
    const d = s.dealer;
    if (!d || !(d.cards || []).length) { $("dealer").innerHTML = `<span class="muted">No cards yet.</span>`; return; }
    let facts = "";
    if (d.hand) facts += `<div class="hand-name">${T.esc(T.handName(d.hand))}</div>`;
    if (d.qualifies === true) facts += `<div class="qual yes">Qualifies</div>`;
    if (d.qualifies === false) facts += `<div class="qual no">Does not qualify</div>`;
    $("dealer").innerHTML = T.cards(d.cards, "big", game === "caribbean-stud" ? d.up_card : null) + `<div>${facts}</div>`;
  }

  function renderSettlement(steps) {
    if (!steps) { $("settlement").innerHTML = `<span class="muted">Not settled yet.</span>`; return; }
    if (!steps.length) { $("settlement").innerHTML = `<span class="muted">Nothing to collect or pay.</span>`; return; }
    // The progressive awards are in the list (issue 18): waiting until a supervisor validates
    // each, then paid with the rest, with the hand and where the money comes from.
    const word = { waiting: "awaits", pay: "pay", collect: "collect", push: "push", void: "void" };
    $("settlement").innerHTML = `<ol class="settlement">` + steps.map((x) => {
      const award = x.hand ? ` · ${T.esc(T.handName(x.hand))}` : "";
      const source = x.source ? ` <span class="source" data-source="${T.esc(x.source)}">` +
        `${x.source === "fixed" ? "fixed award" : "from the meter"}</span>` : "";
      const waiting = x.step === "waiting" ? ` <span class="muted">(supervisor to validate)</span>` : "";
      const amount = Number.isInteger(x.amount) ? T.money(x.amount) : "—";
      return `<li data-step="${T.esc(x.step)}" data-seat="${x.seat}" data-wager="${T.esc(x.wager || "")}">` +
        `<span class="step ${T.esc(x.step)}">${T.esc(word[x.step] || x.step)}</span>` +
        ` Seat ${x.seat} · ${T.esc(WAGER_NAMES[x.wager] || x.wager || "")}${award} · <b>${amount}</b>${source}${waiting}</li>`;
    }).join("") + `</ol>`;
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

  // Each seat's wagers of the round before, kept when a new round opens.
  function rememberLastRound(s) {
    const id = (s.round || {}).id;
    if (ui.roundId && id && id !== ui.roundId && ui.seatsBefore) {
      ui.prev = new Map(ui.seatsBefore.filter((x) => Object.keys(x.wagers || {}).length)
        .map((x) => [x.seat, { ...x.wagers }]));
    }
    if (id) { ui.roundId = id; ui.seatsBefore = s.seats || []; }
  }

  async function sameAsLast(seat) {
    const prev = ui.prev.get(seat), s = ui.last;
    if (!prev || !s) return;
    if (s.table.game === "caribbean-stud") { await send({ type: "ante", seat, amount: prev.ante }); return; }
    await send({ type: "wager", seat, wager: "initial", stake: prev.initial });
    if (prev.tie) await send({ type: "wager", seat, wager: "tie", stake: prev.tie });
  }

  // Any amount within the limits, typed in dollars on an on-screen keypad (no keyboard at the table).
  const AMOUNT_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "⌫"];
  $("amount-keys").innerHTML = AMOUNT_KEYS.map((k) =>
    `<button class="act grey" data-amount-key="${k}" data-test="amount-key-${k === "⌫" ? "back" : k.toLowerCase()}">${k}</button>`).join("");
  function showAmount() {
    $("amount-shown").textContent = ui.typed ? T.money(Number(ui.typed) * 100) : "$0";
  }
  function openAmount() {
    ui.typed = "";
    $("amount-error").textContent = "";
    showAmount();
    $("amount-dialog").showModal();
  }
  $("amount-keys").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const k = b.dataset.amountKey;
    if (k === "Clear") ui.typed = "";
    else if (k === "⌫") ui.typed = ui.typed.slice(0, -1);
    else if (ui.typed.length < 7) ui.typed = (ui.typed + k).replace(/^0+/, "");
    $("amount-error").textContent = "";
    showAmount();
  });
  $("amount-ok").addEventListener("click", () => {
    const cents = Number(ui.typed || "0") * 100;
    const why = limitRefusal((ui.last || {}).table || {}, cents);
    if (why) { $("amount-error").textContent = why; return; }
    ui.chip = cents;
    $("amount-dialog").close();
    render();
  });
  $("amount-cancel").addEventListener("click", () => $("amount-dialog").close());

  // The next step's own buttons, beside it where every screen size shows them: the seat that
  // decides now (5324.37(e)(3), from the dealer's left), or the tie hand offered war or surrender.
  function stepActions(s, game, seats, offered) {
    if (game === "caribbean-stud" && allows(s, "decision")) {
      const next = seats.filter((x) => x.wagers && x.wagers.ante && !x.decision && !x.void).map((x) => x.seat).sort((a, b) => a - b)[0];
      if (!next) return "";
      return button(`Seat ${next}: Bet`, { type: "decision", seat: next, decision: "bet" }, "green", true, "step-bet") +
        button(`Seat ${next}: Fold`, { type: "decision", seat: next, decision: "fold" }, "red", true, "step-fold");
    }
    if (game === "casino-war" && (s.round || {}).touch_in) return touchIn();
    if (game === "casino-war" && offered) {
      return button(`Seat ${offered}: War`, { type: "decision", seat: offered, decision: "war" }, "green", true, "step-war") +
        button(`Seat ${offered}: Surrender`, { type: "decision", seat: offered, decision: "surrender" }, "red", true, "step-surrender");
    }
    return "";
  }

  // Casino war from a shoe without a card reader, or a card the reader could not read: the dealer
  // touches in the card just drawn, the one the next step names (5324.22(h)(2)); six or more decks,
  // so every card can come again.
  function touchIn() {
    const ranks = "AKQJT98765432", suits = "shdc", sym = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
    const out = [];
    for (const s of suits) {
      for (const r of ranks) {
        out.push(button(`${r === "T" ? "10" : r}${sym[s]}`, { type: "card", card: r + s },
          s === "h" || s === "d" ? "suit-red" : "", true, `touch-${r}${s}`));
      }
    }
    return `<div class="picker touch-in">${out.join("")}</div>`;
  }

  // The supervisor signs in on this same screen (issue 18) and comes back here when done.
  $("to-supervisor").addEventListener("click", () => { window.location.href = "/supervisor?from=dealer"; });

  T.connect((state) => {
    ui.last = state;
    render();
  });
})();
