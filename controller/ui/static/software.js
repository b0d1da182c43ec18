// The supervisor's screen: new software waiting to be accepted (controller/runtime/software.py).
// Shows the versions and digests before and after; an upgrade is accepted by one supervisor,
// an integrity change by two different ones, each signed in with their own PIN. The table
// decides, whatever this page shows: the button only sends accept_software with a reason.
"use strict";

(() => {
  const desk = document.getElementById("desk");
  const box = document.createElement("div");
  box.className = "box";
  box.id = "software";
  box.style.marginBottom = "14px";
  box.hidden = true;
  desk.prepend(box);
  let shown = null;

  function versions(v) {
    return Object.keys(v || {}).sort().map((k) => `${k} ${v[k]}`).join(", ");
  }

  function render(change) {
    box.hidden = !change;
    const key = JSON.stringify(change);
    if (!change || key === shown) return;
    shown = key;
    const from = change.from || {};
    const to = change.to || {};
    const was = from.versions || {}, now = to.versions || {};
    const moved = Object.keys({ ...was, ...now }).sort().filter((k) => was[k] !== now[k])
      .map((k) => `<li data-moved="${T.esc(k)}">${T.esc(k)}: ${T.esc(was[k] || "none")} &rarr; ${T.esc(now[k] || "none")}</li>`).join("");
    const two = change.supervisors === 2;
    box.innerHTML =
      `<h2>New software waiting for acceptance</h2>` +
      `<div data-software-kind="${T.esc(change.kind)}" style="font-size:1.3rem">` +
      (two ? "Integrity change (files differ under the same versions): two different supervisors must accept it."
           : "Upgrade: a supervisor accepts it.") + `</div>` +
      (moved ? `<ul>${moved}</ul>` : "") +
      `<div class="muted">Accepted digest <code data-digest-from>${T.esc(from.digest || "none")}</code></div>` +
      `<div class="muted">Running digest <code data-digest-to>${T.esc(to.digest || "")}</code></div>` +
      `<div class="muted">${T.esc(versions(now))}</div>` +
      (change.approved_by ? `<div data-approved-by="${T.esc(change.approved_by)}" style="font-size:1.3rem">` +
        `Accepted by ${T.esc(change.approved_by)}; waiting for a second supervisor.</div>` : "") +
      `<label for="software-reason">Reason (journaled with your id)</label>` +
      `<input id="software-reason" class="big" autocomplete="off" inputmode="none">` +
      // a kiosk without a keyboard accepts by touch alone: a reason from the presets (issue 30)
      `<div class="presets" id="software-presets">${PRESETS.map((p) =>
        `<button class="act small grey" data-software-preset="${T.esc(p)}">${T.esc(p)}</button>`).join("")}</div>` +
      `<div class="sup-actions"><button class="act green" data-test="accept-software">Accept the new software</button></div>`;
  }

  const PRESETS = ["Upgrade approved by the casino", "Installed by the technician, version checked",
    "Files checked against the approved release"];

  box.addEventListener("click", async (ev) => {
    const preset = ev.target.closest("button[data-software-preset]");
    if (preset) { document.getElementById("software-reason").value = preset.dataset.softwarePreset; return; }
    const b = ev.target.closest("button[data-test=accept-software]");
    if (!b) return;
    const reason = document.getElementById("software-reason").value.trim();
    if (!reason) { T.toast("Give a reason: it goes into the journal."); return; }
    const { data } = await T.post("/api/supervisor/action", { event: { type: "accept_software", reason } });
    if (!data.ok) { T.toast(data.error || "refused"); return; }
    T.toast("Done: journaled with your id", "ok");
  });

  T.connect((state) => render(state.software || null));
})();
