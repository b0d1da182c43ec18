// The dealer signs in at the table (issue 30): the badge id keyed on the console, at the start and at
// each rotation ("New dealer" asks who first); a console with nobody on duty asks by itself when it opens. The table journals the sign-in (event dealer_on_duty,
// controller/runtime/dealers.py) and every panel and screen event after it names the dealer on duty.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  // `pin`: the profile asks the dealer's PIN after the badge ([dealers] pin = "required", /api/console)
  const ui = { badge: "", after: null, onDuty: null, needsPin: false, stage: "badge", pin: "" };

  const dialog = document.createElement("dialog");
  dialog.id = "dealer-signin";
  dialog.innerHTML =
    `<h3 id="dealer-signin-title">Dealer sign-in</h3>` +
    `<div class="muted" id="dealer-signin-who"></div>` +
    `<div class="amount-shown" data-test="dealer-badge-shown" id="dealer-badge-shown">Badge —</div>` +
    `<div class="keypad" id="dealer-keys">` +
    ["1", "2", "3", "4", "5", "6", "7", "8", "9", "clear", "0", "back"].map((k) =>
      `<button class="act grey" data-dealer-key="${k}" data-test="dealer-key-${k}">` +
      `${k === "clear" ? "Clear" : k === "back" ? "&larr;" : k}</button>`).join("") +
    `</div>` +
    `<div class="error-text" id="dealer-signin-error"></div>` +
    `<div class="sup-actions">` +
    `<button class="act green" id="dealer-signin-ok" data-test="dealer-signin" disabled>Sign in</button>` +
    `<button class="act grey" id="dealer-signin-cancel" data-test="dealer-signin-cancel">Later</button></div>`;
  document.body.appendChild(dialog);

  const chip = document.createElement("button");
  chip.className = "act small grey";
  chip.id = "dealer-on-duty";
  chip.dataset.test = "dealer-on-duty";
  chip.title = "The dealer on duty; touch to sign in another dealer";
  const header = document.querySelector("header.top");
  if (header) header.insertBefore(chip, $("to-supervisor"));

  function shown() {
    chip.textContent = ui.onDuty ? `Dealer ${ui.onDuty}` : "Dealer: sign in";
    $("dealer-badge-shown").textContent = ui.stage === "pin" ? `PIN ${"\u2022".repeat(ui.pin.length) || "—"}`
      : (ui.badge ? `Badge ${ui.badge}` : "Badge —");
    $("dealer-signin-ok").disabled = ui.stage === "pin" ? !ui.pin : !ui.badge;
    $("dealer-signin-ok").textContent = ui.stage === "badge" && ui.needsPin ? "Next: PIN" : "Sign in";
  }

  function ask(title, after) {
    ui.badge = "";
    ui.pin = "";
    ui.stage = "badge";
    ui.after = after;
    $("dealer-signin-title").textContent = title;
    $("dealer-signin-who").textContent = ui.onDuty ? `On duty now: ${ui.onDuty}` : "Nobody is signed in as the dealer.";
    $("dealer-signin-error").textContent = "";
    shown();
    if (!dialog.open) dialog.showModal();
  }

  async function signIn() {
    const badge = ui.badge;
    if (ui.needsPin && ui.stage === "badge") {   // the badge first, then the dealer's own PIN
      ui.stage = "pin";
      $("dealer-signin-who").textContent = `Badge ${badge}: the dealer's PIN`;
      shown();
      return;
    }
    const event = { type: "dealer_on_duty", badge };
    if (ui.needsPin) event.pin = ui.pin;
    ui.pin = "";
    const { data } = await T.post("/api/panel", { event });
    if (!data.ok) {
      $("dealer-signin-error").textContent = data.error || "refused";
      if (ui.needsPin) { ui.stage = "badge"; ui.badge = ""; shown(); }   // start again, from the badge
      return;
    }
    ui.onDuty = badge;
    chip.classList.remove("amber");
    dialog.close();
    shown();
    const after = ui.after;
    ui.after = null;
    if (after) {
      const done = await T.post("/api/panel", { event: after });
      if (!done.data.ok) T.toast(done.data.error || "refused");
    }
  }

  dialog.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b || b.disabled) return;
    const k = b.dataset.dealerKey;
    const field = ui.stage === "pin" ? "pin" : "badge";
    if (k === "clear") ui[field] = "";
    else if (k === "back") ui[field] = ui[field].slice(0, -1);
    else if (k !== undefined && ui[field].length < 16) ui[field] += k;
    else if (b.id === "dealer-signin-ok") { signIn(); return; }
    else if (b.id === "dealer-signin-cancel") { ui.after = null; dialog.close(); return; }
    shown();
  });

  // "New dealer" (a game's rotation button, by its words) asks who first: the rotation is signed for
  // by the dealer coming on, then the game's own event is sent.
  document.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-send]");
    if (!b || b.disabled || b.textContent.trim().toLowerCase() !== "new dealer") return;
    let event;
    try { event = JSON.parse(b.dataset.send); } catch (err) { return; }
    ev.stopImmediatePropagation();
    ev.preventDefault();
    ask("New dealer: who comes on?", event);
  }, true);

  chip.addEventListener("click", () => ask("Dealer sign-in", null));

  // who is on duty now (the table keeps it across a restart); nobody: the header says to sign in
  (async () => {
    try {
      const response = await fetch("/api/state", { cache: "no-store", credentials: "same-origin" });
      const state = await response.json();
      ui.onDuty = state.dealer_on_duty || null;
      const info = await (await fetch("/api/console", { cache: "no-store", credentials: "same-origin" })).json();
      ui.needsPin = Boolean(info.dealer_pin);
    } catch (err) { ui.onDuty = null; }
    chip.classList.toggle("amber", !ui.onDuty);
    shown();
    // Nobody deals yet: the console asks by itself, before the first touch (the header's chip stays
    // for a rotation or for "Later").
    if (!ui.onDuty) ask("Dealer sign-in: who deals at this table?", null);
  })();
})();
