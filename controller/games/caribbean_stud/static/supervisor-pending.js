// The supervisor's screen at a Caribbean stud table: a changed rate, reset, limit or award table waiting
// for the meter's next reset put into effect now (issue 29), between rounds, the meter's value carried
// over. Two different supervisors: the first signed in asks, the second signed in carries it out
// (controller/games/caribbean_stud/changes.py apply_at_once); each press is the table's `apply_pending`.
// Loaded beside supervisor.js (static/common.js T.loadGame loads every supervisor-*.js of the game).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  $("game-sections").insertAdjacentHTML("beforeend", `
  <section id="stud-pending" class="box" style="margin-bottom:14px" data-test="apply-pending" hidden>
    <h2>Pending change of the progressive</h2>
    <p id="stud-pending-what" class="muted"></p>
    <button id="stud-pending-apply" type="button" class="primary">Apply the change now</button>
  </section>`);

  let asked = null;   // who asked first, as the journal's meters say (/api/supervisor/meters)

  function say() {
    $("stud-pending-what").textContent =
      "Between rounds: the change applies now instead of after the meter's next reset; the meter's value is " +
      "carried over. Two different supervisors sign, each signed in with their own PIN" +
      (asked ? `: asked by ${asked}; a second, different supervisor applies it.` : ".");
  }

  async function pending() {
    try {
      const response = await fetch("/api/supervisor/meters", { credentials: "same-origin", cache: "no-store" });
      const data = response.ok ? await response.json() : null;
      const m = ((data && data.meters) || []).find((x) => !x.pool);
      return m ? m.pending_change : null;
    } catch (err) { return null; }
  }

  function show(s) {
    const can = ((s.round || {}).allowed || []).includes("apply_pending");
    $("stud-pending").hidden = !can;
    if (can) say();
  }

  $("stud-pending-apply").addEventListener("click", async () => {
    const { data } = await T.post("/api/supervisor/action", { event: { type: "apply_pending" } });
    if (!data.ok) { T.toast(data.error || "refused"); return; }
    const change = await pending();
    asked = change ? change.approved_by || null : null;
    say();
    $("stud-pending").dataset.applied = change ? "asked" : "applied";
    T.toast(change ? `Asked by ${asked}: a second, different supervisor applies it` :
      "Applied now: the meter's value carried over", "info");
  });

  T.connect(show);
})();
