// The supervisor's screen at a poker table: the jackpot (5324.42(r)), its amount displayed ((r)(2))
// and each qualifying hand's tracking form ((r)(4)) for the floorperson to verify; and at a
// time-charge table each hand's time charges collected, to verify ((o)(2)(iii)(e)).
// The floorperson is the signed-in supervisor: the server names him, never the page.
"use strict";

// Loaded by the supervisor's page by the game's key (static/common.js T.loadGame), with its own sections.
(() => {
  const $ = (id) => document.getElementById(id);
  $("game-sections").innerHTML = `
  <section id="poker-jackpot" class="box" style="margin-bottom:14px" hidden>
    <h2>Poker jackpot (5324.42(r)) &mdash; <span id="jackpot-amount" data-test="jackpot-amount"></span></h2>
    <div class="wins" id="jackpot-pending"></div>
    <ul id="jackpot-verified"></ul>
  </section>
  <section id="poker-deck" class="box" style="margin-bottom:14px" hidden>
    <h2>The deck is not played (5324.42(f)(6)(iv), (p)(3)) &mdash; <span id="deck-count"></span></h2>
    <button class="act amber" id="replace-deck" data-test="replace-deck">New deck in play: shuffle and count it</button>
  </section>
  <section id="poker-time" class="box" style="margin-bottom:14px" hidden>
    <h2>Time charges collected (5324.42(o)(2)(iii)) &mdash; <span id="time-rule"></span></h2>
    <div id="time-pending"></div>
  </section>`;
  let shown = "";   // the pending hands the forms were drawn for (typed entries survive other updates)

  const FIELDS = [["player", "Player's name (i)"], ["phone", "Player's phone (i)"], ["dealer", "Dealer (iv)"],
    ["dealer_license", "Dealer's license (iv)"], ["floor_license", "Your license (v)"]];

  // The form's dealer ((r)(4)(iv)) is who dealt the hand (`dealt_by`: on duty when it opened, from the
  // journal), never the dealer on duty now: a rotation between the hand and its verification changes
  // nothing on the form. The floorperson may correct it.
  const dealtBy = (q) => (q.dealt_by ? (q.dealt_by.name ? `${q.dealt_by.name} (${q.dealt_by.badge})` : q.dealt_by.badge) : "");

  function form(q) {
    const key = `${q.hand}-${q.seat}`;
    const dealer = dealtBy(q);
    return `<div class="win" data-jackpot="${T.esc(key)}"><div class="seat-no">Seat ${q.seat}</div>` +
      `<div class="facts"><div class="hand-name">${T.esc(q.kind === "bad-beat" ? "Bad beat" : "High hand")}: ` +
      `${T.esc(T.handName(q.hand_name))}</div>${T.cards(q.cards.match(/../g) || [])}` +
      `<div class="muted">Hand ${T.esc(q.hand)} · table ${T.esc(($("table-name") || {}).textContent || "")}</div>` +
      FIELDS.map(([name, label]) => `<label>${label}<input class="big" data-field="${name}" data-test="jp-${name}-${q.seat}" ` +
        `autocomplete="off"${name === "dealer" && dealer ? ` value="${T.esc(dealer)}"` : ""}></label>`).join("") +
      `</div><div class="buttons"><button class="act green" data-verify="${T.esc(key)}" data-hand="${T.esc(q.hand)}" ` +
      `data-seat="${q.seat}" data-test="verify-jackpot-${q.seat}">Verify</button></div></div>`;
  }

  function render(s) {
    const jp = s.jackpot;
    const box = $("poker-jackpot");
    if (!box) return;
    box.hidden = !jp;
    if (!jp) return;
    $("jackpot-amount").textContent = jp.amount === null ? "the room's pool" : T.money(jp.amount);
    const key = JSON.stringify(jp.pending);
    if (key !== shown) {
      shown = key;
      $("jackpot-pending").innerHTML = jp.pending.length ? jp.pending.map(form).join("")
        : `<span class="muted">No qualifying hand waiting.</span>`;
    }
    $("jackpot-verified").innerHTML = jp.verified.map((v) =>
      `<li data-verified="${T.esc(v.hand)}-${v.seat}">Hand ${T.esc(v.hand)} seat ${v.seat}: ${T.esc(T.handName(v.hand_name))} · ` +
      `${T.esc(v.player)} · verified by ${T.esc(v.floorperson)}</li>`).join("");
  }

  // (f)(6)(iv): a deck that did not count 52 is replaced by the supervisor before the hand is dealt.
  function renderDeck(s) {
    const box = $("poker-deck");
    if (!box) return;
    const p = s.poker;
    const bad = !!(p && p.deck && !p.deck.ok && !(p.actions || []).length);
    box.hidden = !bad;
    // (p)(3): the last hand's deck called dead (cards missing or extra) is replaced the same way
    if (bad && p.deck.dead) $("deck-count").textContent = p.deck.anomalies.join(", ");
    else if (bad) $("deck-count").textContent = `counted ${p.deck.total}${(p.deck.anomalies || []).length ? ` (${p.deck.anomalies.join(", ")})` : ""}`;
  }

  function renderTime(s) {
    const tc = s.time_charges;
    const box = $("poker-time");
    if (!box) return;
    box.hidden = !tc;
    if (!tc) return;
    $("time-rule").textContent = `${T.money(tc.hourly)} an hour per ${tc.per}, by ${tc.increment_minutes} minutes`;
    $("time-pending").innerHTML = tc.pending.length ? tc.pending.map((t) =>
      `<div class="line" data-time="${T.esc(t.hand)}">Hand ${T.esc(t.hand)}: ` +
      Object.entries(t.charges).map(([seat, c]) => `seat ${T.esc(seat)} ${T.money(c)}`).join(", ") +
      ` · <b>${T.money(t.total)}</b> <button class="act green small" data-verify-time="${T.esc(t.hand)}" ` +
      `data-test="verify-time-${T.esc(t.hand)}">Verified: to the drop box</button></div>`).join("")
      : `<span class="muted">No time charges waiting.</span>`;
  }

  document.addEventListener("click", async (ev) => {
    if (ev.target.closest("#replace-deck")) {
      const { data } = await T.post("/api/supervisor/action", { event: { type: "replace_deck" } });
      if (!data.ok) T.toast(data.error || "refused");
      return;
    }
    const t = ev.target.closest("button[data-verify-time]");
    if (t && !t.disabled) {
      const { data } = await T.post("/api/supervisor/action", { event: { type: "verify_time_charges", hand: t.dataset.verifyTime } });
      if (!data.ok) T.toast(data.error || "refused");
      return;
    }
    const b = ev.target.closest("button[data-verify]");
    if (!b || b.disabled) return;
    const card = b.closest("[data-jackpot]");
    const event = { type: "verify_jackpot", hand: b.dataset.hand, seat: Number(b.dataset.seat) };
    for (const input of card.querySelectorAll("input[data-field]")) event[input.dataset.field] = input.value;
    const { data } = await T.post("/api/supervisor/action", { event });
    if (!data.ok) T.toast(data.error || "refused");
  });

  T.connect((s) => { render(s); renderTime(s); renderDeck(s); });
})();
