// The dealer's console: what the table publishes, and the dealer's buttons. Every button
// sends one event to /api/panel; the table decides, and the next published state shows it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const DEFAULT_CHIPS = [500, 1000, 2500, 5000, 10000];
  const ui = { chip: null, last: null, busy: false };

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
    if (poker) PokerConsole.render(s); else renderBanked(s);   // poker: static/poker.js
    $("devices").innerHTML = (s.devices || []).map((d) =>
      `<div class="device ${T.esc(d.status)}" data-device="${T.esc(d.name)}"><b>${T.esc(d.name)}</b>` +
      `<span class="status">${T.esc(d.status)}</span>${d.detail ? ` <span class="muted">${T.esc(d.detail)}</span>` : ""}</div>`
    ).join("") || `<span class="muted">No devices reported.</span>`;
  }

  function renderAlarms(s) {
    $("alarms").innerHTML = T.alarmsHTML(s);
  }

  // ---- Caribbean stud and casino war ------------------------------------------
  function chipsFor(table) {
    const lo = table.minimum_wager, hi = table.maximum_wager;
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
    const chips = chipsFor(s.table);
    if (!chips.includes(ui.chip)) ui.chip = chips[0];
    const taking = allows(s, "ante") || allows(s, "wager");
    $("chips").innerHTML = taking ? `<span class="label">Wager amount</span>` + chips.map((c) =>
      `<button class="act small grey ${c === ui.chip ? "selected" : ""}" data-chip="${c}">${T.money(c)}</button>`).join("") : "";
    // A seat with no wager is an empty place, whether or not the table lists it.
    const seats = (s.seats || []).filter((x) => Object.keys(x.wagers || {}).length || (x.cards || []).length);
    const count = Math.max(s.table.seats || 7, ...seats.map((x) => x.seat));
    const bySeat = new Map(seats.map((x) => [x.seat, x]));
    const offered = game === "casino-war" ? warOffer(s, seats) : null;
    const html = [];
    for (let n = 1; n <= count; n++) html.push(seatHTML(s, game, n, bySeat.get(n), offered === n));
    $("seats").innerHTML = html.join("");
    renderDealer(s, game);
    renderSettlement(s.settlement);
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
    const hand = seat && seat.void ? `<div class="hand-name">Void hand</div>`
      : seat && seat.hand ? `<div class="hand-name">${T.esc(T.handName(seat.hand))}</div>` : "";
    const buttons = [];
    if (game === "caribbean-stud") {
      if (allows(s, "ante")) {
        buttons.push(button(seat ? `Ante ${T.money(ui.chip)}` : "Ante", { type: "ante", seat: n, amount: ui.chip },
          "small", true, `ante-${n}`));
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
      (seat && seat.cards && seat.cards.length ? T.cards(seat.cards) : "") + hand + decision +
      `<div class="buttons">${buttons.join("")}</div></div>`;
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
    $("settlement").innerHTML = `<ol class="settlement">` + steps.map((x) =>
      `<li data-step="${T.esc(x.step)}" data-seat="${x.seat}"><span class="step ${T.esc(x.step)}">${T.esc(x.step)}</span>` +
      ` Seat ${x.seat} · ${T.esc(WAGER_NAMES[x.wager] || x.wager || "")} · <b>${T.money(x.amount)}</b></li>`).join("") + `</ol>`;
  }

  T.connect((state) => {
    ui.last = state;
    render();
  });
})();
