// The supervisor's screen. Signing in gets a session cookie the page cannot read; every
// action goes to /api/supervisor/action, where the server checks the session and submits
// it to the table with source "supervisor" and the signed-in id. Hiding a button here is a
// convenience, never the control.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const ui = { me: null, pin: "", last: null, pending: null, target: "id", idle: 300, lastTouch: Date.now() };
  const parts = [];   // the game's part of the rendering (T.supervisor.onRender, below)
  // Opened from the dealer's console on the same kiosk (issue 18): it goes back there when done.
  const FROM_DEALER = new URLSearchParams(window.location.search).get("from") === "dealer";
  $("back-to-dealer").hidden = !FROM_DEALER;
  $("back-to-dealer").addEventListener("click", () => backToDealer());
  // Leaving the supervisor's view ends the session (issue 26): the dealer's page never inherits it.
  // The server ends it too when the dealer's page loads; this is the page saying so first.
  async function backToDealer() {
    if (ui.me) {
      ui.me = null;
      await T.post("/api/supervisor/signout", {});
    }
    window.location.href = "/";
  }
  window.addEventListener("pagehide", () => {
    if (!ui.me) return;
    ui.me = null;
    fetch("/api/supervisor/signout", { method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Tablectl": "1" }, body: "{}" }).catch(() => null);
  });

  // ---- sign-in ----------------------------------------------------------
  const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "\u232b"];
  $("keypad").innerHTML = KEYS.map((k) =>
    `<button class="act grey" data-key="${k}" data-test="key-${k === "\u232b" ? "back" : k.toLowerCase()}">${k}</button>`).join("");
  function showPin() {
    $("pin-dots").textContent = "\u2022".repeat(ui.pin.length);
    $("sup-id").classList.toggle("target", ui.target === "id");
    $("pin-dots").classList.toggle("target", ui.target === "pin");
  }
  // The touch screen has no keyboard: the keypad types the id (numeric), then the PIN.
  function aim(target) { ui.target = target; showPin(); }
  $("sup-id").addEventListener("pointerdown", () => aim("id"));
  $("sup-id").addEventListener("input", () => aim("pin"));   // typed on a keyboard: the keypad is for the PIN
  $("pin-dots").addEventListener("pointerdown", () => aim("pin"));
  $("to-pin").addEventListener("click", () => aim("pin"));
  $("keypad").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const k = b.dataset.key;
    if (ui.target === "id") {
      const id = $("sup-id").value;
      $("sup-id").value = k === "Clear" ? "" : k === "\u232b" ? id.slice(0, -1) : id.length < 16 ? id + k : id;
    } else if (k === "Clear") ui.pin = "";
    else if (k === "\u232b") ui.pin = ui.pin.slice(0, -1);
    else if (ui.pin.length < 12) ui.pin += k;
    showPin();
  });
  document.addEventListener("keydown", (ev) => {
    if (!$("signin").hidden && document.activeElement !== $("sup-id")) {
      if (/^\d$/.test(ev.key) && ui.pin.length < 12) { ui.pin += ev.key; showPin(); }
      else if (ev.key === "Backspace") { ui.pin = ui.pin.slice(0, -1); showPin(); }
      else if (ev.key === "Enter") signIn();
    }
  });
  $("signin-go").addEventListener("click", signIn);

  async function signIn() {
    $("signin-error").textContent = "";
    const { data } = await T.post("/api/supervisor/signin", { id: $("sup-id").value.trim(), pin: ui.pin });
    ui.pin = "";
    showPin();
    if (!data.ok) { $("signin-error").textContent = data.error || "refused"; return; }
    if (data.idle_seconds) ui.idle = data.idle_seconds;
    signedIn({ id: data.id, name: data.name });
  }

  async function signOut() {
    await T.post("/api/supervisor/signout", {});
    $("sup-id").value = "";
    signedIn(null);
    if (FROM_DEALER) backToDealer();
  }
  $("sign-out").addEventListener("click", signOut);

  // A kiosk left alone signs out and goes back to the dealer's view after the session's idle
  // time (the server ends the session then too; auth.py).
  for (const kind of ["pointerdown", "keydown"]) {
    document.addEventListener(kind, () => { ui.lastTouch = Date.now(); }, true);
  }
  setInterval(() => {
    if (Date.now() - ui.lastTouch < ui.idle * 1000) return;
    ui.lastTouch = Date.now();
    if (ui.me) signOut();
    else if (FROM_DEALER) backToDealer();
  }, 500);

  function signedIn(me) {
    ui.me = me;
    $("signin").hidden = !!me;
    $("desk").hidden = !me;
    $("who").hidden = !me;
    $("sign-out").hidden = !me;
    $("who").textContent = me ? `Signed in: ${me.name} (${me.id})` : "";
    if (!me) aim("id");
    render();
  }

  // ---- actions ----------------------------------------------------------
  async function act(event) {
    const { status, data } = await T.post("/api/supervisor/action", { event });
    if (status === 401) {
      T.toast("Signed out (session ended): sign in again");
      signedIn(null);
      return false;
    }
    if (!data.ok) { T.toast(data.error || "refused"); return false; }
    T.toast("Done: journaled with your id", "ok");
    return true;
  }

  // The reasons offered by touch; a game's part of the screen offers its own (T.supervisor.ask's `presets`).
  const PRESETS = {
    void_round: ["Misdeal", "Device fault", "Dealer error", "Deck count wrong"],
    clear_fault: ["Device reconnected", "Deck recounted: 52", "Checked and cleared"],
  };

  // The meter's new amount on the one keypad of every screen (common.js T.keypad).
  const meterPad = T.keypad("meter-key");
  $("meter-keys").innerHTML = meterPad.html();
  $("meter-keys").addEventListener("click", (ev) => {
    if (meterPad.touch(ev.target.closest("button"))) $("amount").textContent = meterPad.text();
  });

  // One dialog for every action that needs a reason (and an amount, when `how.amount`: a meter's new figure).
  function ask(kind, title, detail, base, how = {}) {
    ui.pending = { kind, base, amount: !!how.amount };
    $("reason-title").textContent = title;
    $("reason-detail").textContent = detail || "";
    $("reason").value = "";
    meterPad.press("clear");
    $("amount").textContent = meterPad.text();
    $("amount-row").hidden = !how.amount;
    $("reason-error").textContent = "";
    // An integrity problem (one that takes two supervisors, or that nobody may accept) gets no preset
    // reason: each supervisor writes what they checked (issue 30).
    const integrity = kind === "clear_fault" && ((ui.last && ui.last.fault && ui.last.fault.problems) || [])
      .some((p) => p.supervisors !== 1);
    $("presets").innerHTML = (integrity ? [] : how.presets || PRESETS[kind] || []).map((p) =>
      `<button class="act small grey" data-preset="${T.esc(p)}">${T.esc(p)}</button>`).join("");
    $("reason-dialog").showModal();
  }
  $("presets").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (b) $("reason").value = b.dataset.preset;
  });
  $("reason-cancel").addEventListener("click", () => { $("reason-dialog").close(); ui.pending = null; });
  $("reason-ok").addEventListener("click", async () => {
    const p = ui.pending;
    if (!p) return;
    const reason = $("reason").value.trim();
    if (!reason) { $("reason-error").textContent = "Give a reason: it goes into the journal."; return; }
    const event = { ...p.base, type: p.kind, reason };
    if (p.amount) {
      const cents = meterPad.value();
      if (cents === null) { $("reason-error").textContent = "Type the amount on the keypad: dollars, then the cents key for cents."; return; }
      event.amount = cents;
    }
    if (await act(event)) { $("reason-dialog").close(); ui.pending = null; }
  });


  $("void-round").addEventListener("click", () => {
    const r = (ui.last && ui.last.round) || {};
    ask("void_round", `Void round ${r.id || ""}`, "Every wager of the round is returned as if never made.", {});
  });
  $("confirm-void").addEventListener("click", async () => {
    const a = ui.voidAsked;
    if (!a) return;
    await act({ type: "void_round", reason: a.reason || "misdeal called by the dealer, confirmed" });
  });
  // Clearing a fault accepts the problems behind it, listed worst first as the table found them; the
  // table decides how many supervisors that takes (controller/journal/severity.py): one, two different ones
  // each signed in with their own PIN (the first clears, then the second), or nobody (a technician
  // restores an authentic copy of the journal). This page only says so.
  function signersText(f) {
    if (f.supervisors === null) return "Nobody may accept this: a technician must restore an authentic copy of the journal (or its key).";
    if (f.supervisors === 2) {
      return f.approved_by ? `Accepted by ${f.approved_by}; a second, different supervisor signs in and clears it too.`
        : "Two different supervisors must accept this, each signed in with their own PIN.";
    }
    return "One supervisor accepts this.";
  }
  function renderFault(f) {
    const problems = (f && f.problems) || [];
    $("fault-accept").hidden = !f;
    if (!f) return;
    $("fault-problems").innerHTML = problems.map((p) =>
      `<li data-code="${T.esc(p.code)}" data-supervisors="${p.supervisors === null ? "none" : p.supervisors}">` +
      `<b>${T.esc(p.where ? `${p.where}: ` : "")}${T.esc(p.detail)}</b> &mdash; ${T.esc(p.says)}</li>`).join("");
    $("fault-signers").textContent = f.supervisors === undefined ? "" : signersText(f);
  }
  $("clear-fault").addEventListener("click", () => {
    const f = ui.last && ui.last.fault;
    ask("clear_fault", "Clear the fault", f ? `Fault: ${f.reason}. ${f.supervisors === undefined ? "" : signersText(f)}` : "", {});
  });

  // ---- rendering ----------------------------------------------------------
  function render() {
    const s = ui.last;
    if (!s) return;
    const table = s.table || {}, round = s.round || {};
    $("table-name").textContent = table.name || table.id || "Table";
    $("round-id").textContent = round.id ? `Round ${round.id}` : "";
    $("state").textContent = T.label(round.state);
    T.renderMeter(s);
    $("alarms").innerHTML = T.alarmsHTML(s);
    $("progressive-banner").innerHTML = T.progressiveHTML(s);
    if (!ui.me) return;
    $("pending").hidden = !T.linked(s);
    $("pending").innerHTML = T.pendingHTML(s, table.id);
    $("next-step").textContent = round.next_step || "";
    // The worst problem heads the fault (the table lists them worst first, controller/journal/severity.py).
    const worst = ((s.fault && s.fault.problems) || [])[0];
    const headline = worst ? `${worst.where ? `${worst.where}: ` : ""}${worst.detail}` : (s.fault || {}).reason;
    $("fault").textContent = s.fault ? `Fault since ${s.fault.since || "?"}: ${headline}` +
      (s.fault.approved_by ? ` (cleared by ${s.fault.approved_by}; a second supervisor clears it too)` : "") : "No fault.";
    $("clear-fault").disabled = !s.fault;
    renderFault(s.fault);
    // The dealer's misdeal with cards out waits here for a supervisor (issue 15).
    const asked = (s.alarms || []).find((a) => a.kind === "void_pending");
    $("void-asked").hidden = !asked;
    $("void-asked-text").textContent = asked ? asked.message : "";
    ui.voidAsked = asked || null;
    for (const part of parts) part(s);   // the game's own part of the screen (its static/supervisor.js)
  }

  // What a game's part of this screen (controller/games/<game>/static/supervisor.js, loaded by the game's
  // key) uses: the signed-in supervisor's action, the reason dialog, the keypad's keys, the state, and a
  // part of the rendering, called with the table's state while a supervisor is signed in.
  T.supervisor = {
    act, ask, keys: KEYS,
    state: () => ui.last,
    signedOut: () => signedIn(null),
    onRender(part) { parts.push(part); render(); },
  };

  T.connect((state) => { ui.last = state; render(); });
  fetch("/api/supervisor/me", { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null)).catch(() => null)
    .then((me) => {
      if (me && me.ok && me.idle_seconds) ui.idle = me.idle_seconds;
      signedIn(me && me.ok ? { id: me.id, name: me.name } : null);
    });
})();

// Hand-pays (issue 29), at any banked game whose round publishes them (`hand_pays`): a seat whose win on a
// wager is past the tax form's threshold (the profile's [hand_pay]) is held until a supervisor fills in its
// form here: the player's identification (into the journal; the screen shows only its last four
// characters once it is entered), the form's number, and who pays it (the signed-in supervisor, named by
// the table).
(() => {
  const $ = (id) => document.getElementById(id);
  const S = T.supervisor;
  if (!S) return;
  $("wins-box").insertAdjacentHTML("afterend", `
  <div class="box" id="hand-pays-box" data-test="hand-pays" style="margin-bottom:14px" hidden>
    <h2>Hand-pays: tax forms (W-2G)</h2>
    <div class="wins" id="hand-pays"></div>
  </div>`);
  document.body.insertAdjacentHTML("beforeend", `
  <dialog id="hand-pay-dialog" data-test="hand-pay-dialog">
    <h3 id="hand-pay-title">Hand-pay</h3>
    <div id="hand-pay-facts" style="font-size:1.3rem;margin-bottom:10px"></div>
    <label for="hand-pay-player">Player's identification number (journaled; shown only as its last four)</label>
    <input id="hand-pay-player" class="big" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" data-test="hand-pay-player">
    <label for="hand-pay-form">Form number (W-2G)</label>
    <input id="hand-pay-form" class="big" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" data-test="hand-pay-form">
    <div class="muted" id="hand-pay-who"></div>
    <div class="error-text" id="hand-pay-error"></div>
    <div class="sup-actions">
      <button class="act green" id="hand-pay-ok" data-test="hand-pay-ok">Form done: pay by hand</button>
      <button class="act grey" id="hand-pay-cancel" data-test="hand-pay-cancel">Cancel</button>
    </div>
  </dialog>`);
  let open = null;   // the hand-pay whose form is being filled in
  const wagers = (h) => h.wagers.map((w) => `${T.esc(w.wager.replace(/_/g, " "))} ${T.money(w.win)} on ${T.money(w.stake)}`).join(", ");

  function forget() {   // the identification leaves the page once it is submitted or the form is closed
    $("hand-pay-player").value = "";
    $("hand-pay-form").value = "";
    open = null;
  }
  $("hand-pays").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-hand-pay]");
    if (!b) return;
    const seat = Number(b.dataset.handPay);
    const h = ((S.state() && S.state().hand_pays) || []).find((x) => x.seat === seat && !x.done);
    if (!h) return;
    forget();
    open = h;
    $("hand-pay-title").textContent = `Hand-pay: seat ${seat}, ${T.money(h.amount)}`;
    $("hand-pay-facts").textContent = `Won ${wagers(h)}: past the reporting threshold. Fill in the form, ` +
      `then pay the seat by hand.`;
    $("hand-pay-who").textContent = `Paid by you; journaled with your id.`;
    $("hand-pay-error").textContent = "";
    $("hand-pay-dialog").showModal();
  });
  $("hand-pay-cancel").addEventListener("click", () => { $("hand-pay-dialog").close(); forget(); });
  $("hand-pay-ok").addEventListener("click", async () => {
    const h = open;
    if (!h) return;
    const player = $("hand-pay-player").value.trim(), form = $("hand-pay-form").value.trim();
    if (!player || !form) { $("hand-pay-error").textContent = "Give the player's identification and the form's number."; return; }
    const { status, data } = await T.post("/api/supervisor/action",
      { event: { type: "hand_pay", seat: h.seat, player_id: player, form } });
    if (status === 401) { $("hand-pay-dialog").close(); forget(); T.toast("Signed out (session ended): sign in again"); S.signedOut(); return; }
    if (!data.ok) { $("hand-pay-error").textContent = data.error || "refused"; return; }
    $("hand-pay-dialog").close();
    forget();
    T.toast(`Hand-pay form ${form} journaled with your id: pay seat ${h.seat} by hand`, "ok");
  });

  S.onRender((s) => {
    const list = s.hand_pays || [];
    $("hand-pays-box").hidden = !list.length;
    $("hand-pays").innerHTML = list.map((h) => `<div class="win" data-hand-pay-seat="${h.seat}" data-done="${h.done}">` +
      `<div class="seat-no">Seat ${h.seat}</div><div class="facts">` +
      `<div>Hand-pay <span class="award" data-hand-pay-amount>${T.money(h.amount)}</span></div>` +
      `<div class="muted">${wagers(h)}</div>` +
      (h.done ? `<div data-hand-pay-done>Form ${T.esc(h.form)}, player id ${T.esc(h.player)}, paid by ${T.esc(h.paid_by)}</div>`
        : `<div class="second-note">Held: the dealer pays it once its form is done</div>`) + `</div>` +
      (h.done ? "" : `<div class="buttons"><button class="act green" data-hand-pay="${h.seat}" data-test="hand-pay-${h.seat}">Tax form</button></div>`) +
      `</div>`).join("");
  });
})();
