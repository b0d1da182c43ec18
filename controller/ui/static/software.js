// The supervisor's screen: new software waiting to be accepted (controller/runtime/software.py).
// Shows the versions and digests before and after; an upgrade is accepted by one supervisor,
// an integrity change by two different ones, each signed in with their own PIN. The table
// decides, whatever this page shows: the button only sends accept_software with a reason.
// Files that do not authenticate (changed, missing, unexpected) nobody accepts until they are back.
// Below it, the software verified on demand under an inspector's seed.
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
    const nobody = change.supervisors === null || change.supervisors === undefined;
    box.innerHTML =
      `<h2>New software waiting for acceptance</h2>` +
      `<div data-software-kind="${T.esc(change.kind)}" style="font-size:1.3rem">` +
      (nobody ? "The files do not authenticate: nobody may accept them. A technician puts the release's files back; then a supervisor clears the fault."
        : two ? "Integrity change (files differ under the same versions): two different supervisors must accept it."
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

  // ---- verification on demand (controller/ui/software_routes.py) ------------------------------
  // The inspector's seed, typed on a keypad of hexadecimal digits (no keyboard at the table); the
  // table answers with the figure `tablectl software verify --seed` gives, and journals who asked.
  const check = document.createElement("div");
  check.className = "box";
  check.id = "software-verify";
  check.style.marginBottom = "14px";
  const HEX = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F", "Clear", "\u232b"];
  check.innerHTML =
    `<h2>Verify the software</h2>` +
    `<div class="muted">The inspector's seed (hexadecimal); the figure is an HMAC over every file the table runs.</div>` +
    `<div style="font-size:1.4rem;margin:6px 0">Seed <code id="verify-seed" data-test="verify-seed"></code></div>` +
    `<div class="keypad" id="verify-keypad" style="grid-template-columns:repeat(6,1fr)">` + HEX.map((k) =>
      `<button class="act grey" data-hex="${k}" data-test="hex-${k === "\u232b" ? "back" : k.toLowerCase()}">${k}</button>`).join("") +
    `</div>` +
    `<label for="verify-algorithm">Algorithm</label>` +
    `<select id="verify-algorithm" class="big"><option value="sha256">HMAC-SHA-256</option><option value="sha1">HMAC-SHA-1</option></select>` +
    `<div class="sup-actions"><button class="act green" data-test="verify-software">Verify</button></div>` +
    `<div id="verify-result" data-test="verify-result" hidden></div>`;
  desk.append(check);   // below the wins and the round's business: an inspector's tool, asked for now and then
  let seed = "";
  const seedShown = document.getElementById("verify-seed");
  check.querySelector("#verify-keypad").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-hex]");
    if (!b) return;
    const k = b.dataset.hex;
    seed = k === "Clear" ? "" : k === "\u232b" ? seed.slice(0, -1) : seed.length < 256 ? seed + k : seed;
    seedShown.textContent = seed;
  });
  check.addEventListener("click", async (ev) => {
    const b = ev.target.closest("button[data-test=verify-software]");
    if (!b) return;
    const out = document.getElementById("verify-result");
    if (!seed || seed.length % 2) { T.toast("Type the seed: an even number of hexadecimal digits."); return; }
    b.disabled = true;
    out.hidden = false;
    out.textContent = "Reading every file the table runs\u2026";
    try {
      const algorithm = document.getElementById("verify-algorithm").value;
      const { data } = await T.post("/api/supervisor/software-verify", { seed, algorithm });
      if (!data.ok) { out.textContent = data.error || "refused"; return; }
      const bad = data.problem_count || 0;
      out.innerHTML =
        `<div style="font-size:1.3rem" data-authentic="${bad ? "no" : "yes"}">` +
        (bad ? `NOT AUTHENTIC: ${bad} file(s) do not authenticate; the table is in a fault.` : "Authentic: every file as the release installed it.") +
        `</div><div>Digest (HMAC-${T.esc(data.algorithm.toUpperCase())}, seed ${T.esc(data.seed)}, ${data.files} files)</div>` +
        `<code data-test="verify-digest" style="font-size:1.2rem;word-break:break-all">${T.esc(data.digest)}</code>` +
        (bad ? `<ul>${data.problems.map((p) => `<li data-problem="${T.esc(p.code)}">${T.esc(p.where)}: ${T.esc(p.detail)}</li>`).join("")}</ul>` : "");
    } finally {
      b.disabled = false;
    }
  });
})();
