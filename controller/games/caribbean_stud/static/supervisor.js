// The supervisor's screen at a Caribbean stud table: the progressive's meters as 9 NYCRR 5320.8 lists
// them (current, overflow, hits, wins, the last hits with both signers, base, limit, contributions),
// and a changed rate, reset, limit or award table waiting for the meter's next reset (issue 29).
// The figures are the journal's (/api/supervisor/meters, as `tablectl meters --json`).
"use strict";

// Loaded by the supervisor's page by the game's key (static/common.js T.loadGame), with its own section.
(() => {
  const $ = (id) => document.getElementById(id);
  $("game-sections").insertAdjacentHTML("beforeend", `
  <section id="stud-meters" class="box" style="margin-bottom:14px" data-test="meters" hidden>
    <h2>Progressive meters (5320.8)</h2>
    <div id="stud-meters-body"></div>
  </section>`);
  let asked = "";   // the table state the figures were last read for

  const cents = (c) => (c === null || c === undefined ? "none" : T.money(c));

  function hitLine(h) {
    const who = T.esc(h.validated_by || "?") + (h.second_signer ? ` and ${T.esc(h.second_signer)}` : "");
    const what = h.refused ? `REFUSED by ${who}: ${T.esc(h.refused)} (not paid, not a hit)` : `validated by ${who}`;
    return `<li data-hit="${T.esc(h.round)}-${h.seat}" data-refused="${h.refused ? "true" : "false"}">` +
      `${T.esc(h.at || "")} round ${T.esc(h.round)} seat ${h.seat} ${T.esc(T.handName(h.hand))} ` +
      `${T.money(h.amount)}: ${what}</li>`;
  }

  function meterHTML(m) {
    const long = new Set(m.exceeds_ten_digits || []);
    const fig = (key, label, value) => `<div data-meter-${key}="${value === null || value === undefined ? "" : value}">` +
      `${label} <b>${cents(value)}</b>${long.has(key) ? ` <span class="warn" data-ten-digits="${key}">more than 10 digits</span>` : ""}</div>`;
    if (m.pool) {
      return `<div class="meter-figures" data-meter="${T.esc(m.name)}">` + fig("current", `Pool ${T.esc(m.pool)}, as last confirmed:`, m.current) +
        `<div class="muted">Its overflow, limit and hits are the pool's.</div></div>`;
    }
    const change = m.pending_change;
    return `<div class="meter-figures" data-meter="${T.esc(m.name)}">` +
      fig("current", "Current", m.current) + fig("overflow", "Overflow", m.overflow) + fig("base", "Base (reset)", m.base) +
      fig("limit", "Limit", m.limit) + `<div data-meter-hits="${m.hits}">Hits <b>${m.hits}</b></div>` +
      fig("wins", "Wins paid from the meter", m.wins) + fig("contributions", "Contributions", m.contributions) +
      (change ? `<div class="pending-change" data-pending-change>Pending change, ${T.esc(change.applies)}: rate ` +
        `${change.contribution_bp} bp, reset ${cents(change.reset)}, limit ${cents(change.limit)}</div>` : "") +
      `<ol class="last-hits" data-last-hits>${(m.last_hits || []).slice().reverse().map(hitLine).join("")}</ol></div>`;
  }

  async function load(s) {
    const r = s.round || {}, m = s.meter || {};
    const key = JSON.stringify([r.id, r.state, m.amount, m.overflow, (m.pending || []).length]);
    if (key === asked) return;
    asked = key;
    let data = null;
    try {
      const response = await fetch("/api/supervisor/meters", { credentials: "same-origin", cache: "no-store" });
      data = response.ok ? await response.json() : null;
    } catch (err) { data = null; }
    const box = $("stud-meters");
    if (!data || !data.ok) { box.hidden = true; asked = ""; return; }
    box.hidden = false;
    $("stud-meters-body").innerHTML = data.meters.map(meterHTML).join("");
  }

  let last = null;
  T.connect((s) => { last = s; load(s); });
  // Signed in after the last state came (the figures are a supervisor's): read them again.
  setInterval(() => { if (last && $("stud-meters").hidden) load(last); }, 2000);
})();

// Caribbean stud's part of the supervisor's screen, beside its meters: the progressive wins waiting for
// validation (5324.37(f)(2)), each validated or refused with the seat, cards, hand, amount and source
// confirmed (a second supervisor above the profile's amount, issue 18), and the meter's correction, which
// takes two different supervisors: the first's waits, as the table publishes it (`meter.correction`), for
// a second to correct the meter to the same amount (issue 28). The shared screen (static/supervisor.js)
// gives the action, the reason dialog and the keypad's keys (T.supervisor).
(() => {
  const $ = (id) => document.getElementById(id);
  const S = T.supervisor;
  if (!S) return;
  const my = { confirm: null, confirmKind: "validate", secondPin: "", secondTarget: "id" };
  const REFUSE_REASONS = ["Acceptor light was not lit", "Hand misread", "Cards exposed", "Wager not recognized", "Dealer error"];
  const METER_REASONS = ["Meter restored from the journal", "Reset after a fault", "Audit correction"];
  $("wins-box").hidden = false;
  $("correct-meter").hidden = false;
  $("correct-meter").parentElement.insertAdjacentHTML("afterend",
    `<div id="meter-correction" class="second-note" data-test="meter-correction" hidden></div>`);

  $("wins").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const seat = Number(b.dataset.seat);
    if (b.dataset.do === "validate") openConfirm(seat);
    if (b.dataset.do === "refuse") openConfirm(seat, "refuse");
  });
  // Each validation is confirmed with the seat, cards, hand, amount and where it is paid from;
  // an award above the profile's amount also takes a second supervisor's id and PIN. A refusal is
  // confirmed the same way, with its reason: refusing a large award takes the same two people
  // (issue 26; the server and the table check it, this dialog only asks).
  $("second-keypad").innerHTML = S.keys.map((k) =>
    `<button class="act grey" data-key="${k}" data-test="second-key-${k === "\u232b" ? "back" : k.toLowerCase()}">${k}</button>`).join("");
  function showSecond() {
    $("second-dots").textContent = "\u2022".repeat(my.secondPin.length);
    $("second-id").classList.toggle("target", my.secondTarget === "id");
    $("second-dots").classList.toggle("target", my.secondTarget === "pin");
  }
  $("second-id").addEventListener("pointerdown", () => { my.secondTarget = "id"; showSecond(); });
  $("second-id").addEventListener("input", () => { my.secondTarget = "pin"; showSecond(); });
  $("second-dots").addEventListener("pointerdown", () => { my.secondTarget = "pin"; showSecond(); });
  $("second-keypad").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const k = b.dataset.key;
    if (my.secondTarget === "id") {
      const id = $("second-id").value;
      $("second-id").value = k === "Clear" ? "" : k === "\u232b" ? id.slice(0, -1) : id.length < 16 ? id + k : id;
    } else if (k === "Clear") my.secondPin = "";
    else if (k === "\u232b") my.secondPin = my.secondPin.slice(0, -1);
    else if (my.secondPin.length < 12) my.secondPin += k;
    showSecond();
  });
  function winFacts(w) {
    const from = w.source === "fixed" ? "a fixed award (not from the meter)"
      : `the ${w.pool ? `pool ${T.esc(w.pool)}'s ` : ""}progressive meter, ${T.money(w.meter)} before it`;
    return `<div class="seat-no" data-confirm-seat="${w.seat}">Seat ${w.seat}</div>` + T.cards(w.cards, "big") +
      `<div class="facts"><div class="hand-name" data-confirm-hand>${T.esc(T.handName(w.hand))}</div>` +
      `<div>Pay <span class="award" data-confirm-amount>${T.money(w.award)}</span></div>` +
      `<div data-confirm-source="${T.esc(w.source || "meter")}">From ${from}</div></div>`;
  }
  function openConfirm(seat, kind = "validate") {
    const w = ((S.state() && S.state().validations) || []).find((x) => x.seat === seat);
    if (!w) return;
    const refusing = kind === "refuse";
    my.confirm = w;
    my.confirmKind = kind;
    my.secondPin = "";
    my.secondTarget = "id";
    $("second-id").value = "";
    showSecond();
    $("confirm-title").textContent = `${refusing ? "Refuse" : "Validate"} seat ${seat}'s ${T.handName(w.hand)}`;
    // What refusing does to the meter, said before Refuse is pressed (issue 29): the table's words.
    $("confirm-win").innerHTML = winFacts(w) + (refusing && w.on_refusal
      ? `<div class="on-refusal" data-confirm-refusal>${T.esc(w.on_refusal)}</div>` : "");
    $("refuse-row").hidden = !refusing;
    $("refuse-reason").value = "";
    $("refuse-presets").innerHTML = refusing ? REFUSE_REASONS.map((p) =>
      `<button class="act small grey" data-preset="${T.esc(p)}">${T.esc(p)}</button>`).join("") : "";
    $("second-note").textContent = refusing
      ? "Refusing an award this large is signed by a second supervisor too, with their own PIN."
      : "An award this large is signed by a second supervisor too, with their own PIN.";
    $("second-row").hidden = !w.second_signer;
    $("confirm-ok").hidden = refusing;
    $("confirm-refuse").hidden = !refusing;
    $("confirm-error").textContent = "";
    $("confirm-dialog").showModal();
  }
  $("refuse-presets").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (b) $("refuse-reason").value = b.dataset.preset;
  });
  $("confirm-cancel").addEventListener("click", () => { $("confirm-dialog").close(); my.confirm = null; });
  async function decide() {
    const w = my.confirm, kind = my.confirmKind;
    if (!w) return;
    const body = { event: { type: kind, seat: w.seat } };
    if (kind === "refuse") {
      const reason = $("refuse-reason").value.trim();
      if (!reason) { $("confirm-error").textContent = "Give a reason: it goes into the journal."; return; }
      body.event.reason = reason;
    }
    if (w.second_signer) {
      const id = $("second-id").value.trim();
      if (!id || !my.secondPin) { $("confirm-error").textContent = "The second supervisor gives an id and PIN."; return; }
      body.second = { id, pin: my.secondPin };
    }
    const { status, data } = await T.post("/api/supervisor/action", body);
    my.secondPin = "";
    showSecond();
    if (status === 401) { $("confirm-dialog").close(); T.toast("Signed out (session ended): sign in again"); S.signedOut(); return; }
    if (!data.ok) { $("confirm-error").textContent = data.error || "refused"; return; }
    $("confirm-dialog").close();
    my.confirm = null;
    const done = kind === "refuse" ? "Refused" : "Validated";
    T.toast(w.second_signer ? `${done}: journaled with both ids` : `${done}: journaled with your id`, "ok");
  }
  $("confirm-ok").addEventListener("click", decide);
  $("confirm-refuse").addEventListener("click", decide);

  $("correct-meter").addEventListener("click", () => {
    const m = S.state() && S.state().meter;
    const c = m && m.correction;
    const detail = (m ? `The meter now shows ${T.money(m.amount)}.` : "") +
      (c ? ` ${c.by} asked for ${T.money(c.amount)}: the same amount from you carries it out.` : "");
    S.ask("correct_meter", "Correct the progressive meter", detail, {}, { amount: true, presets: METER_REASONS });
  });

  // The first supervisor's correction, as the table holds it (it is the table's word, so a reload shows it).
  function correctionText(c) {
    return `Meter correction to ${T.money(c.amount)} asked by ${c.by} (${c.reason}): it waits for a second, ` +
      `different supervisor to correct the meter to the same amount.`;
  }

  S.onRender((s) => {
    const meter = s.meter;
    // A linked table shows the pool's meter, which no table corrects (the pool's admin does, tablectl link).
    $("correct-meter").disabled = !meter || !!T.linked(s);
    $("correct-meter").title = T.linked(s) ? "The meter is the pool's: corrected by the pool's admin (tablectl link)" : "";
    const wins = s.validations || [];
    $("wins").innerHTML = wins.length ? wins.map((w) => {
      const from = typeof w.meter === "number" ? T.money(w.meter) : T.esc(w.meter ?? "");
      // A linked table's award is the pool's: until the pool answers the claim there is no amount
      // to validate (the table names what it waits for in w.waiting).
      const waiting = w.award === null || w.award === undefined;
      const award = waiting ? `<span class="waiting" data-award-waiting>${T.esc(w.waiting || "waiting for the pool's award")}</span>`
        : `<span class="award" data-award>${T.money(w.award)}</span>`;
      const detail = `${T.handName(w.hand)}, award ${waiting ? "not yet known" : T.money(w.award)}`;
      return `<div class="win" data-win="${w.seat}"><div class="seat-no">Seat ${w.seat}</div>` +
        T.cards(w.cards, "big") +
        `<div class="facts"><div class="hand-name">${T.esc(T.handName(w.hand))}</div>` +
        `<div>Award ${award}</div>` +
        (waiting && typeof w.meter !== "number" ? "" :
          (w.source === "fixed" ? `<div data-fixed-award>Fixed award, not from the meter</div>` :
          `<div>From ${w.pool ? `pool ${T.esc(w.pool)}'s ` : ""}meter <b data-from-meter>${from}</b></div>`)) +
        (w.second_signer ? `<div class="second-note" data-second-signer>Needs a second supervisor</div>` : "") + `</div>` +
        `<div class="buttons"><button class="act green" data-do="validate" data-seat="${w.seat}" data-test="validate-${w.seat}"${waiting ? " disabled" : ""}>Validate</button>` +
        `<button class="act red" data-do="refuse" data-seat="${w.seat}" data-detail="${T.esc(detail)}" data-test="refuse-${w.seat}">Refuse</button></div></div>`;
    }).join("") : `<span class="muted" style="font-size:1.3rem">None waiting.</span>`;
    const c = meter && meter.correction;
    $("meter-correction").hidden = !c;
    $("meter-correction").textContent = c ? correctionText(c) : "";
    if (c) $("meter-correction").dataset.by = c.by; else delete $("meter-correction").dataset.by;
  });
})();
