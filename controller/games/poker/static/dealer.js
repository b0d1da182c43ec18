// The poker console (the dealer's page at a poker table): written to the contract of controller/games/poker/contract.py (the published
// `poker` and `seating`, and the events declared there). The dealer sees one next step at a time
// and does it with one touch; the table decides, and the next published state shows it.
// Loaded by the dealer's page by the game's key (static/common.js T.loadGame); it brings its own
// part of the page and registers how the table's state is drawn on it (static/dealer.js).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const BOARD_GAMES = /holdem|omaha|pineapple/;   // the profiles' games dealt with a board (5324.42(g)(2), (3), (6))
  // The engine's refusals name players as the hand history does (p1..pn, "cbr 450"): the dealer reads seats and amounts.
  function inWords(text) {
    const players = (((ui.last || {}).poker || {}).players || []);
    const seatOf = (n) => (players.find((x) => x.player === Number(n)) || {}).seat;
    return String(text)
      .replace(/\bcbr (\d+)\b/g, (m, c) => `bet or raise to ${T.money(Number(c))}`)
      .replace(/\bcc\b/g, "check or call")
      .replace(/\bsm\b/g, "show or muck")
      .replace(/\bsd\b/g, "draw")
      .replace(/\bp(\d+)\b/g, (m, n) => (seatOf(n) ? `Seat ${seatOf(n)}` : m));
  }
  const SECTION = `<section id="poker">
    <div class="actions" id="poker-actions"></div>
    <div id="poker-hand">
      <div class="poker-top">
        <div class="box" id="board-box"><h2>Board</h2><div class="board" id="board"></div></div>
        <div class="box"><h2>Pots</h2><div class="pots" id="pots"></div></div>
      </div>
      <div class="box" id="showdown-box" hidden><h2>Showdown</h2><div id="showdown"></div></div>
      <div class="players" id="players"></div>
    </div>
    <div class="box" id="seating-box" hidden><h2>Seats &mdash; between hands</h2><div id="seating"></div></div>
  </section>`;
  // picked: cards touched on the picker; up: seat -> up cards entered; pad: the one keypad (static/common.js
  // T.keypad: dollars, the cents key for cents, "1 5" is $15 as at every table).
  const ui = { picked: [], up: {}, pad: T.keypad("key"), last: null, busy: false, hand: null, irregular: false, seatPad: false,
    turned: new Set() };   // turned: seats whose hole cards the dealer turned up on the console

  async function send(event) {
    if (ui.busy) { T.toast("One moment: the last touch is still on its way to the table."); return; }
    ui.busy = true;
    document.body.classList.add("busy");
    try {
      const { data } = await T.post("/api/panel", { event });
      if (!data.ok) T.toast(inWords(data.error || "refused"));
      else { ui.picked = []; ui.up = {}; ui.pad.press("clear"); ui.other = false; rerender(); }   // the next state may be drawn already
    } finally {
      ui.busy = false;
      document.body.classList.remove("busy");
    }
  }

  const keyedCents = () => ui.pad.value();
  const sendAttr = (event) => `data-psend='${T.esc(JSON.stringify(event))}'`;
  const button = (text, event, cls = "", enabled = true, test = "") =>
    `<button class="act ${cls}" ${sendAttr(event)} ${enabled ? "" : "disabled"}${test ? ` data-test="${test}"` : ""}>${text}</button>`;

  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b || b.disabled || document.body.classList.contains("offline")) return;
    if (b.dataset.psend) { send(JSON.parse(b.dataset.psend)); return; }
    if (b.dataset.ppick) {
      const c = b.dataset.ppick;
      ui.picked = ui.picked.includes(c) ? ui.picked.filter((x) => x !== c) : [...ui.picked, c];
      rerender();
      return;
    }
    if (ui.pad.touch(b)) { rerender(); return; }
    if (b.dataset.preset !== undefined) { ui.pad.set(Number(b.dataset.preset)); rerender(); return; }
    if (b.dataset.pturn) {
      const seat = Number(b.dataset.pturn);
      if (!ui.turned.delete(seat)) ui.turned.add(seat);
      rerender();
      return;
    }
    if (b.dataset.pirr) { ui.irregular = !ui.irregular; rerender(); }
    if (b.dataset.pdraw) { ui.drawing = !ui.drawing; rerender(); }
    if (b.dataset.pother) { ui.other = true; rerender(); }
    if (b.dataset.pseatpad) { ui.seatPad = !ui.seatPad; rerender(); }
  });

  const s0 = () => ((ui.last || {}).table || null);
  function rerender() { if (ui.last) render(ui.last); }

  // ---- the page -----------------------------------------------------------
  function render(s) {
    const roundId = (s.round || {}).id || null;
    if (roundId !== ui.hand) { ui.hand = roundId; ui.picked = []; ui.up = {}; ui.pad.press("clear"); ui.irregular = false; ui.turned.clear(); ui.seatPad = false; }
    ui.last = s;
    const p = s.poker;
    const between = !p || (s.round || {}).state === "closed";   // as between() below
    $("seating").innerHTML = seatingHTML(s, between);
    $("seating-box").hidden = !between;
    $("poker").dataset.between = String(between);   // a kiosk shows the pots to push and the seats, not the hand
    $("poker").dataset.pad = ui.seatPad ? "open" : "folded";   // see seatingHTML: the keypad or the showdown
    $("poker-hand").hidden = !p;
    if (!p) { $("poker-actions").innerHTML = ""; return; }
    // Only the games dealt with a board have a board box (not the stud or draw games).
    $("board-box").hidden = !(BOARD_GAMES.test((s.table || {}).game || "") || (p.board || []).length || (p.owed || {}).board);
    $("board").innerHTML = (p.board || []).length ? T.cards(p.board, "big") : `<span class="muted">No board cards.</span>`;
    $("pots").innerHTML = potsHTML(p);
    $("players").innerHTML = (p.players || []).map((x) => playerHTML(p, x)).join("");
    $("poker-actions").innerHTML = actionsHTML(p, s);
    const sd = p.showdown;
    $("showdown-box").hidden = !sd;
    if (sd) {
      $("showdown").innerHTML = (sd.pots || []).map((pot, i) =>
        `<div class="pots" data-award="${i}">${i === 0 ? "Main pot" : `Side pot ${i}`} ${T.money(pot.amount)}: ` +
        awardsHTML(pot) + `</div>`).join("") +
        `<div class="pots" data-taken${sd.rake || sd.jackpot_drop ? "" : " data-nothing-taken"}>Rake <b>${T.money(sd.rake)}</b> · Jackpot drop <b>${T.money(sd.jackpot_drop)}</b></div>` +
        (between ? jackpotHTML() : "");
    }
  }

  // Who wins what of a pot: "Seat 3 wins $20.00 with ..."; seats splitting it alike (the same amount
  // with the same hand, as when the board plays) on one line, "Seat 1, Seat 2 and Seat 4 win $2.00 each with ...",
  // so a pot chopped among many seats is a line for the dealer to push, not a line a seat.
  function awardsHTML(pot) {
    const groups = [];
    for (const [seat, amt] of Object.entries(pot.awards || {})) {
      const what = withWhat(pot, Number(seat));
      const same = groups.find((g) => g.amt === amt && g.what === what);
      if (same) same.seats.push(seat); else groups.push({ amt, what, seats: [seat] });
    }
    return groups.map(({ amt, what, seats }) => {
      if (seats.length === 1) {
        return `<div class="winner" data-winner="${T.esc(seats[0])}">Seat ${T.esc(seats[0])} wins <b>${T.money(amt)}</b>${what}</div>`;
      }
      const named = seats.map((x) => `Seat ${T.esc(x)}`);
      const names = named.slice(0, -1).join(", ") + ` and ${named[named.length - 1]}`;
      return `<div class="winner" data-winners="${T.esc(seats.join(" "))}">${names} win <b>${T.money(amt)}</b> each${what}</div>`;
    }).join("");
  }

  // What won it, as the table's engine read the hands (poker `showdown.pots[].winners`): "with a flush,
  // ace high"; at a split game each half it won ("the high with ..., the low with ...").
  function withWhat(pot, seat) {
    const won = (pot.winners || []).filter((w) => w.seat === seat);
    if (!won.length) return "";
    return " " + won.map((w) => `${w.half ? `the ${T.esc(w.half)} ` : ""}with <span class="hand-won">${T.esc(w.hand)}</span>`).join(" and ");
  }

  function potsHTML(p) {
    const side = (p.side_pots || []).map((x, i) =>
      `<div data-side-pot="${i + 1}">Side pot ${i + 1}: <b>${T.money(x.amount)}</b> <span class="muted">seats ${(x.eligible || []).join(", ")}</span></div>`).join("");
    // (o)(2)(i)(b): the rake is taken after each betting round as play progresses; this is what is taken so far
    const taken = `<div data-taken>Rake <b>${T.money(p.raked || 0)}</b> taken · Jackpot drop <b>${T.money(p.dropped || 0)}</b></div>`;
    return `<div class="main" data-pot>Pot ${T.money(p.pot)}</div>` +
      (side ? `<div data-main-pot>Main pot: <b>${T.money(p.main_pot)}</b></div>` : "") + side + taken +
      (between(ui.last) ? "" : jackpotHTML());
  }

  // The room's jackpot, and a qualifying hand's call for the floorperson: with the pots in a hand,
  // with the showdown between hands (where a kiosk shows what to push).
  function jackpotHTML() {
    const jp = (ui.last || {}).jackpot;
    return !jp ? "" : `<div data-test="jackpot">Jackpot <b>${jp.amount === null ? "(room pool)" : T.money(jp.amount)}</b>` +
      (jp.pending.length ? ` · <span class="marker kill">QUALIFYING HAND: CALL THE FLOORPERSON</span>` : "") + `</div>`;
  }
  const between = (s) => !(s && s.poker) || ((s && s.round) || {}).state === "closed";

  function playerHTML(p, x) {
    const b = p.blinds || {};
    const marks = [];
    if (x.seat === p.button) marks.push(`<span class="marker">D</span>`);
    if (x.seat === b.small_seat) marks.push(`<span class="marker sb">SB <span class="amt">${T.money(b.small)}</span></span>`);
    if (x.seat === b.big_seat) marks.push(`<span class="marker bb">BB <span class="amt">${T.money(b.big)}</span></span>`);
    if (x.seat === b.straddle_seat) marks.push(`<span class="marker bb straddle">STRADDLE <span class="amt">${T.money(b.straddle)}</span></span>`);
    if (p.kill && x.seat === p.kill.seat) marks.push(`<span class="marker kill" data-test="kill-${x.seat}">${p.kill.kind === "kill" ? "KILL" : "HALF-KILL"}</span>`);
    if (x.all_in) marks.push(`<span class="marker allin">ALL-IN</span>`);
    if (x.ended) marks.push(`<span class="marker allin" data-test="ended-${x.seat}">OBLIGATION ENDED</span>`);
    const cls = ["player"];
    if (x.seat === p.to_act) cls.push("to-act");
    if (x.folded) cls.push("folded");
    return `<div class="${cls.join(" ")}" data-player="${x.seat}"><div class="name">Seat ${x.seat} ${marks.join("")}</div>` +
      `<div class="stack">Stack <b>${T.money(x.stack)}</b></div>` +
      `<div class="stack">Bet <b>${T.money(x.bet || 0)}</b></div>` +
      (x.folded ? `<div class="decision fold">Folded</div>` : "") + T.cards(shown(p, x)) + turnButton(p, x) + `</div>`;
  }

  // Game protection: a player's hole cards are face down on the console (as on the felt) unless the
  // dealer turns them; up cards, and every card once the hand is over, are shown.
  function shown(p, x) {
    const open = ui.turned.has(x.seat) || p.phase === "complete";
    return (x.cards || []).map((c, k) => (open || (x.up || [])[k] ? c : "??"));
  }
  function turnButton(p, x) {
    const hidden = (x.cards || []).some((c, k) => c !== "??" && !(x.up || [])[k]);
    if (!hidden || p.phase === "complete") return "";
    return `<button class="act small grey" data-pturn="${x.seat}" data-test="turn-${x.seat}">` +
      `${ui.turned.has(x.seat) ? "Turn down" : "Turn up"}</button>`;
  }

  // ---- between hands: who sits where ----------------------------------------
  function seatingHTML(s, between) {
    const st = s.seating;
    if (!st || !between) return "";
    const n = (s.table || {}).seats || 10;
    const bySeat = Object.fromEntries((st.seats || []).map((x) => [x.seat, x]));
    const amount = keyedCents();
    const max = st.buy_in_max;
    const whole = amount !== null && T.chipRefusal(amount) === null;   // only what the table's chips make
    const okBuyIn = whole && amount >= st.buy_in_min && (max === null || amount <= max);
    const presets = [["min", "Min buy-in", st.buy_in_min]].concat(max === null ? [] : [["max", "Max buy-in", max]]);
    // folded, the draw for the button is one more button beside the buy-in's presets, not a row of its own
    const draw = buttonDrawHTML(st);
    const head = `<div class="line"><span class="keyed" data-test="keyed">Amount <b>${amount === null ? "—" : T.esc(ui.pad.text())}</b></span>` +
      presets.map(([k, l, v]) => `<button class="act small grey" data-preset="${v}" data-test="buyin-${k}">${l} ${T.money(v)}</button>`).join("") +
      (draw.folded ? draw.html : "") + padToggle() +
      `<span class="muted">Buy-in ${T.money(st.buy_in_min)}${max === null ? " or more" : ` to ${T.money(max)}`}; ` +
      `to be dealt in: ${T.money(st.minimum_to_play)}</span></div>` + keypad();
    const tiles = [];
    for (let seat = 1; seat <= n; seat++) {
      const x = bySeat[seat];
      if (!x) {
        tiles.push(`<div class="seat-tile empty" data-seat-tile="${seat}"><b>Seat ${seat}</b> <span class="muted">empty</span>` +
          button(`Sit ${okBuyIn ? T.money(amount) : ""}`, { type: "sit", seat, stack: amount || 0 }, "green small", okBuyIn, `sit-${seat}`) + `</div>`);
        continue;
      }
      const after = amount === null ? null : x.stack + amount;
      const okTop = whole && amount > 0 && (max === null || after <= max);
      tiles.push(`<div class="seat-tile${x.away ? " away" : ""}${x.short ? " short" : ""}" data-seat-tile="${seat}">` +
        `<b>Seat ${seat}</b> <span data-test="stack-${seat}">${T.money(x.stack)}</span>` +
        (x.away ? ` <span class="marker">SITTING OUT</span>` : "") +
        (x.short ? ` <span class="marker allin">SHORT: not dealt in</span>` : "") + `<div class="line">` +
        button(`Top up ${okTop ? T.money(amount) : ""}`, { type: "top_up", seat, amount: amount || 0 }, "small", okTop, `top_up-${seat}`) +
        (x.away ? button("Back", { type: "sit_in", seat }, "green small", true, `sit_in-${seat}`)
          : button("Sit out", { type: "sit_out", seat }, "grey small", true, `sit_out-${seat}`)) +
        button("Leave", { type: "leave", seat }, "red small", true, `leave-${seat}`) + `</div></div>`);
    }
    const why = amount === null ? null : T.chipRefusal(amount);
    return head + (why ? `<div class="error-text" data-test="keyed-refusal">${T.esc(why)}</div>` : "") +
      `<div class="seat-tiles">${tiles.join("")}</div>` + (draw.folded ? "" : draw.html);
  }

  // Before the first hand the dealer may deal one card face up to each player: the highest takes
  // the button (5324.42(i)(3)(ii)); otherwise it goes to the first player to the dealer's right.
  // {html, folded}: folded, only the button that opens the draw (and the button drawn, if it was).
  function buttonDrawHTML(st) {
    if (!st.button_draw) return { html: "", folded: false };
    const players = (st.seats || []).filter((x) => !x.away && !x.short).map((x) => x.seat);
    if (players.length < 2) return { html: "", folded: false };
    const cards = {};
    players.forEach((seat, i) => { if (ui.picked[i]) cards[seat] = ui.picked[i]; });
    const ready = ui.picked.length === players.length;
    const drawn = st.first_button ? ` <span class="marker" data-test="first-button">Button: seat ${st.first_button}</span>` : "";
    // Folded away until the dealer draws (a kiosk's screen holds the seats and the keypad, not the picker too).
    const head = `<button class="act small grey" data-pdraw="1" data-test="button-draw-open">` +
      `${ui.drawing ? "Hide the draw for the button" : "Draw for the button (5324.42(i)(3)(ii))"}</button>`;
    if (!ui.drawing) return { html: head + drawn, folded: true };
    return { folded: false, html: `<div class="line">${head}<b>Draw for the button</b>${drawn} <span class="muted">touch one card per seat, ` +
      `seats ${players.join(", ")} in order (without a draw: the first player to your right)</span></div>` +
      `<div class="line">${players.map((seat) => `Seat ${seat}: <b>${T.esc(cards[seat] || "—")}</b>`).join(" · ")}` +
      button("Button by the cards", { type: "button_card", cards }, "green small", ready, "button-draw") + `</div>` + picker({}) };
  }

  function keypad() { return ui.pad.html("poker-keypad"); }
  // The smallest kiosk (800x480) cannot hold an eleven-seat table's tiles, the keypad and the showdown at
  // once: there (dealer.css) the keypad waits behind this button while the showdown is up, and the
  // showdown behind it while the keypad is (the pots pushed, the dealer keys a buy-in); elsewhere it is not shown.
  function padToggle() {
    return ui.seatPad
      ? `<button class="act small grey seat-pad-toggle" data-pseatpad="1" data-test="showdown-open">Showdown</button>`
      : `<button class="act small grey seat-pad-toggle" data-pseatpad="1" data-test="other-amount">Keypad…</button>`;
  }

  // ---- the hand: the next step -------------------------------------------------
  function actionsHTML(p, s) {
    const step = "";   // the next step is the step bar's, above (static/dealer.html): said once
    if (p.phase === "complete" || !p.deck || !p.deck.ok) return step;
    const owed = p.owed || { hole: {}, board: 0 };
    if (p.rake_due) {
      // the round's rake into the rake area (then the jackpot drop) before the next card, one touch
      const due = p.rake_due;
      return step + `<div class="line"><span data-test="rake-due">Rake ${T.money(due.rake)} into the rake area` +
        (due.jackpot ? `, jackpot drop ${T.money(due.jackpot)}` : "") + `</span>` +
        button("Rake taken", { type: "rake_taken" }, "green", true, "rake-taken") + `</div>` + irregularHTML(p, false);
    }
    if (p.turn === "discard") {
      return step + `<div class="line">` + button(`Seat ${p.to_act} discards ${p.discard}`,
        { type: "discard", seat: p.to_act, count: p.discard }, "green", true, "discard") + `</div>`;
    }
    if (p.turn === "contend") {
      // (p)(6)(i)-(ii): the player whose third hole card was turned up chooses, one touch each
      const me = (p.players || []).find((x) => x.seat === p.to_act) || { player: 0 };
      return step + `<div class="line">` +
        button("End obligation", { type: "action", action: `p${me.player} contend part` }, "amber", true, "contend-part") +
        button("Contend for the pot", { type: "action", action: `p${me.player} contend all` }, "green", true, "contend-all") +
        `</div>` + (Object.keys(owed.hole || {}).length ? holeHTML(p, owed.hole) : "");
    }
    if (p.turn === "draw") {
      const me = (p.players || []).find((x) => x.seat === p.to_act) || { cards: [] };
      const most = Math.min(5, (me.cards || []).length);
      const line = [button("Stand pat", { type: "draw", seat: p.to_act, count: 0 }, "green", true, "draw-0")];
      for (let k = 1; k <= most; k++) line.push(button(`Draw ${k}`, { type: "draw", seat: p.to_act, count: k }, "", true, `draw-${k}`));
      return step + `<div class="line">${line.join("")}</div>`;
    }
    if (Object.keys(owed.hole || {}).length) {
      const straddle = p.straddle ? `<div class="line">` + button(`Seat ${p.straddle.seat} straddles ${T.money(p.straddle.amount)}`,
        { type: "straddle", seat: p.straddle.seat }, "amber", true, "straddle") + `</div>` : "";
      const upPicker = Object.values(owed.hole).some((f) => f.some(Boolean));
      return step + straddle + holeHTML(p, owed.hole) + irregularHTML(p, !upPicker);
    }
    if (owed.board) {
      const n = owed.board;
      return step + picker(p) + `<div class="line">` +
        button(`Deal ${ui.picked.map(T.esc).join(" ") || "board"}`, { type: "deal_board", cards: ui.picked }, "green",
          ui.picked.length === n, "deal-board") + `</div>` + irregularHTML(p, false);
    }
    if (p.turn === "show") {
      const me = (p.players || []).find((x) => x.seat === p.to_act) || { cards: [] };
      const unseen = (me.cards || []).filter((c) => c === "??").length;
      const picks = [...ui.picked];
      const cards = (me.cards || []).map((c) => (c === "??" ? picks.shift() : c));
      const ready = ui.picked.length === unseen;
      return step + (unseen ? picker(p) : "") + `<div class="line">` +
        button(`Show ${ready ? cards.map(T.esc).join(" ") : ""}`, { type: "show", seat: p.to_act, cards }, "green", ready, "show") +
        button("Muck", { type: "muck", seat: p.to_act }, "red", true, "muck") + `</div>`;
    }
    if (p.turn === "bet") return step + betHTML(p) + irregularHTML(p);
    return step + irregularHTML(p, false);
  }

  // The irregularities of 5324.42(p), each one touch (the cards concerned touched on the picker
  // first); the engine applies what the regulation says and refuses what does not apply now.
  function irregularHTML(p, withPicker = true) {
    if (p.phase === "complete") return "";
    const picked = ui.picked.join("");
    const act = (text, label, test, enabled = true) => button(label, { type: "action", action: text }, "small grey", enabled, test);
    const lines = [
      act("d misdeal shuffle", "Misdeal: not shuffled (p)(1)(i)", "misdeal-shuffle"),
      act("d misdeal position", "Misdeal: wrong position (p)(1)(ii)", "misdeal-position"),
      act("d misdeal faceup", "Misdeal: cards face up (p)(1)(iii)", "misdeal-faceup"),
      act("d misdeal skipped", "Misdeal: seat skipped (p)(1)(iv)", "misdeal-skipped"),
      act("d dead missing", "Cards missing (p)(3)", "dead-missing"),
      act("d dead extra", "Extra cards (p)(3)", "dead-extra"),
      act(`d ineligible ${picked}`, "Dealt to an ineligible player (p)(2)", "ineligible", !!picked),
      act(`d faceup ${picked}`, "Face up in the deck (p)(4)", "faceup", !!picked),
      act(`d offtable ${picked}`, "Dealt off the table (p)(8)", "offtable", !!picked),
    ];
    const seats = (p.players || []).filter((x) => !x.folded).map((x) =>
      `<span class="muted">Seat ${x.seat}:</span>` +
      // (p)(5)(i): stud hole cards are protected: a fouled stud hand is dead by the player's own part in it
      // (a victim's refund, (p)(5)(iii), is the supervisor's); elsewhere an unprotected hand has no redress
      act(`p${x.player} foul ${BOARD_GAMES.test((s0() || {}).game || "") || /draw/.test((s0() || {}).game || "") ? "unprotected" : "contributor"}`,
        "Fouled (p)(5)", `foul-${x.seat}`) +
      act(`p${x.player} left`, "Left (p)(5)(iv)", `left-${x.seat}`) +
      button("Card exposed (p)(6)-(9)", { type: "expose", seat: x.seat, card: ui.picked[0] || "" }, "small grey",
        ui.picked.length === 1, `expose-${x.seat}`));
    const head = `<button class="act small grey" data-pirr="1" data-test="irregularities">` +
      `${ui.irregular ? "Hide irregularities" : "Irregularities (5324.42(p))"}</button>`;
    if (!ui.irregular) return `<div class="irregular">${head}</div>`;
    return `<div class="irregular">${head}<div class="line">${lines.join("")}</div><div class="line">${seats.join("")}</div>` +
      `<div class="muted">Touch the cards concerned first, then the irregularity.</div>` + (withPicker ? picker(p) : "") + `</div>`;
  }

  // Hole cards: down cards are dealt unseen; up cards are touched, seat by seat, in dealing order.
  function holeHTML(p, hole) {
    const seats = Object.keys(hole).map(Number).sort((a, b) => a - b);
    const needs = seats.filter((seat) => hole[seat].some(Boolean));
    const picks = [...ui.picked];
    const up = {};
    const rows = needs.map((seat) => {
      const n = hole[seat].filter(Boolean).length;
      up[seat] = picks.splice(0, n);
      return `<div data-up-seat="${seat}">Seat ${seat}: up card${n > 1 ? "s" : ""} ${up[seat].length ? up[seat].map(T.esc).join(" ") : "<span class='muted'>touch it</span>"}</div>`;
    });
    const ready = needs.every((seat) => up[seat].length === hole[seat].filter(Boolean).length) && !picks.length;
    return (needs.length ? rows.join("") + picker(p) : "") + `<div class="line">` +
      button("Hole cards dealt", { type: "deal_hole", up }, "green", ready, "deal-hole") + `</div>`;
  }

  // One touch per action; a bet or raise by a preset or any legal amount on the keypad.
  function betHTML(p) {
    const seat = p.to_act;
    const line = [];
    let raise = null;
    for (const o of p.options || []) {
      if (o.action === "fold") line.push(button("Fold", { type: "fold", seat }, "red", true, "fold"));
      else if (o.action === "check") line.push(button("Check", { type: "check_call", seat }, "green", true, "check"));
      else if (o.action === "call") line.push(button(`Call ${T.money(o.min)}`, { type: "check_call", seat }, "green", true, "call"));
      else if (o.action === "bring_in") line.push(button(`Bring-in ${T.money(o.min)}`, { type: "bring_in", seat }, "", true, "bring-in"));
      else raise = o;
    }
    const out = [`<div class="line">${line.join("")}</div>`];
    if (raise) {
      const word = { bet: "Bet", raise: "Raise to", complete: "Complete to" }[raise.action] || raise.action;
      const me = (p.players || []).find((x) => x.seat === seat) || { stack: 0, bet: 0 };
      const all = (me.stack || 0) + (me.bet || 0);   // a raise to this puts the whole stack in
      const presets = (p.presets || raisePresets(p, raise)).map((x) =>   // the table's, in whole chips
        button(`${x.amount === all ? "All-in" : x.label} ${T.money(x.amount)}`, { type: "bet_raise", seat, amount: x.amount }, "amber", true, `preset-${x.key}`));
      out.push(`<div class="line"><span class="muted">${word}:</span>${presets.join("")}</div>`);
      if (raise.max > raise.min && !ui.other) {
        // any other legal amount on the keypad, folded away until wanted (a kiosk's screen holds the seats)
        out[out.length - 1] = out[out.length - 1].replace(/<\/div>$/, "") +
          `<button class="act small grey" data-pother="1" data-test="other-amount">Other amount…</button></div>`;
      }
      if (raise.max > raise.min && ui.other) {
        const amount = keyedCents();
        const why = amount === null ? null : T.chipRefusal(amount);
        const ok = amount !== null && !why && amount >= raise.min && amount <= raise.max;
        out.push(`<div class="line"><span class="keyed" data-test="keyed">${word} <b>${amount === null ? "—" : T.esc(ui.pad.text())}</b></span>` +
          (why ? `<span class="error-text" data-test="keyed-refusal">${T.esc(why)}</span>` : "") +
          `<span class="muted" data-test="legal-range">legal ${T.money(raise.min)} to ${T.money(raise.max)}</span>` +
          button(`${word} ${ok ? T.money(amount) : ""}`, { type: "bet_raise", seat, amount: amount || 0 }, "amber", ok, "raise") +
          `</div>` + keypad());
      }
    }
    return out.join("");
  }

  // The least, half the pot, the pot, and all in (pot-sized: the call, then the pot after it).
  function raisePresets(p, o) {
    const facing = Math.max(0, ...(p.players || []).map((x) => x.bet || 0));
    const me = (p.players || []).find((x) => x.seat === p.to_act) || { bet: 0 };
    const call = facing - (me.bet || 0);
    const list = [{ key: "min", label: "Min", amount: o.min }];
    if (o.max === o.min) return list;
    const after = (p.pot || 0) + call;
    for (const [key, label, size] of [["half", "½ pot", Math.floor(after / 2)], ["pot", "Pot", after]]) {
      const to = facing + size;
      if (to > o.min && to < o.max) list.push({ key, label, amount: to });
    }
    list.push({ key: "max", label: "All-in", amount: o.max });
    return list;
  }

  function picker(p) {
    const used = new Set([...(p.board || []), ...(p.players || []).flatMap((x) => x.cards || [])]);
    const ranks = "AKQJT98765432", suits = "shdc";
    const buttons = [];
    for (const s of suits) {
      for (const r of ranks) {
        const c = r + s;
        const red = s === "h" || s === "d" ? "red" : "";
        const chosen = ui.picked.includes(c) ? "chosen" : "";
        buttons.push(`<button class="${red} ${chosen}" data-ppick="${c}" ${used.has(c) ? "disabled" : ""}>` +
          `${r === "T" ? "10" : r}${{ c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" }[s]}</button>`);
      }
    }
    return `<div class="picker">${buttons.join("")}</div>`;
  }

  T.register({ section: SECTION, render });
})();
