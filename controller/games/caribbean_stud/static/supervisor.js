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
