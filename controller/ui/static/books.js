// The supervisor's screen: the table's books (controller/pit/books.py). The opener and closer counted by
// denomination, a fill or a credit with the runner's or cashier's badge, their PIN and the slip, the count room's drop
// with a second supervisor's PIN. Each sends one supervisor event; the table checks it, journals it with the
// signed-in supervisor's id, and decides, whatever this page shows. Counts are touched in (+1, +5, +20),
// so no keyboard is needed for them.
"use strict";

(() => {
  const DENOMS = [100, 500, 2500, 10000, 50000, 100000];
  const ACTS = { opener: "Opener", closer: "Closer", fill: "Fill", credit: "Credit", drop: "Drop" };
  const counts = {};
  let act = "opener";
  const money = (c) => `$${Math.floor(c / 100).toLocaleString("en-US")}` + (c % 100 ? `.${String(c % 100).padStart(2, "0")}` : "");
  const desk = document.getElementById("desk");
  const box = document.createElement("section");
  box.className = "box";
  box.id = "books";
  box.dataset.test = "books";
  const pad = T.keypad("drop-key");
  box.innerHTML =
    `<h2>The table's books</h2>` +
    `<div class="presets" data-test="books-acts">` + Object.entries(ACTS).map(([k, label]) =>
      `<button class="act grey" data-act="${k}" data-test="books-${k}">${label}</button>`).join("") + `</div>` +
    `<div id="books-chips" data-test="books-chips">` + DENOMS.map((d) =>
      `<div class="books-row" style="display:flex;gap:8px;align-items:center;margin:4px 0">` +
      `<span style="min-width:90px">${money(d)}</span>` +
      `<span data-test="count-${d}" style="min-width:60px">0</span>` +
      [1, 5, 20].map((n) => `<button class="act grey" data-add="${n}" data-denom="${d}" data-test="add-${d}-${n}">+${n}</button>`).join("") +
      `<button class="act grey" data-add="0" data-denom="${d}" data-test="clear-${d}">0</button></div>`).join("") + `</div>` +
    `<div id="books-carry" hidden>` +
    `<label for="books-carrier">Carried by (the runner's or cashier's badge)</label>` +
    `<input id="books-carrier" class="big" autocomplete="off" data-test="books-carrier">` +
    `<label for="books-carrier-pin">The carrier's PIN (they type it: they sign what they carry)</label>` +
    `<input id="books-carrier-pin" type="password" class="big" inputmode="numeric" autocomplete="off" data-test="books-carrier-pin">` +
    `<label for="books-slip">Slip number</label><input id="books-slip" class="big" autocomplete="off" data-test="books-slip"></div>` +
    `<div id="books-drop" hidden><label>The box as the count room counted it</label>` +
    `<div class="amount-shown" data-test="drop-amount">$0</div>${pad.html()}` +
    `<label for="books-second">Second supervisor's id</label><input id="books-second" class="big" autocomplete="off" data-test="books-second">` +
    `<label for="books-second-pin">Second supervisor's PIN</label>` +
    `<input id="books-second-pin" type="password" class="big" inputmode="numeric" autocomplete="off" data-test="books-second-pin"></div>` +
    `<p class="muted" data-test="books-total">Total $0</p>` +
    `<div class="sup-actions"><button class="act" data-test="books-journal">Journal it</button></div>`;
  const figures = document.getElementById("figures");
  if (figures) figures.before(box); else desk.append(box);

  const total = () => DENOMS.reduce((sum, d) => sum + d * (counts[d] || 0), 0);
  function draw() {
    box.querySelectorAll("[data-act]").forEach((b) => b.classList.toggle("green", b.dataset.act === act));
    document.getElementById("books-chips").hidden = act === "drop";
    document.getElementById("books-carry").hidden = !(act === "fill" || act === "credit");
    document.getElementById("books-drop").hidden = act !== "drop";
    DENOMS.forEach((d) => { box.querySelector(`[data-test=count-${d}]`).textContent = String(counts[d] || 0); });
    box.querySelector("[data-test=drop-amount]").textContent = pad.text();
    box.querySelector("[data-test=books-total]").textContent = `Total ${money(act === "drop" ? (pad.value() || 0) : total())}`;
  }

  function event() {
    const chips = {};
    DENOMS.forEach((d) => { if (counts[d]) chips[String(d)] = counts[d]; });
    const value = (id) => document.getElementById(id).value.trim();
    if (act === "drop") return { type: "pit_drop", amount: pad.value() || 0 };
    if (act === "opener" || act === "closer") return { type: "pit_inventory", inventory: act, chips };
    return { type: act === "fill" ? "pit_fill" : "pit_credit", chips, slip: value("books-slip") };
  }

  box.addEventListener("click", async (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    if (pad.touch(b)) { draw(); return; }
    if (b.dataset.act) { act = b.dataset.act; draw(); return; }
    if (b.dataset.denom) {
      const d = Number(b.dataset.denom), n = Number(b.dataset.add);
      counts[d] = n === 0 ? 0 : (counts[d] || 0) + n;
      draw();
      return;
    }
    if (b.dataset.test !== "books-journal") return;
    const body = { event: event() };
    if (act === "drop") body.second = { id: document.getElementById("books-second").value.trim(),
      pin: document.getElementById("books-second-pin").value.trim() };
    if (act === "fill" || act === "credit") body.carrier = { id: document.getElementById("books-carrier").value.trim(),
      pin: document.getElementById("books-carrier-pin").value.trim() };
    const { data } = await T.post("/api/supervisor/action", body);
    document.getElementById("books-carrier-pin").value = "";   // a PIN is typed for one act, never kept
    if (!data.ok) { T.toast(data.error || "refused"); return; }
    T.toast(`Done: the ${ACTS[act].toLowerCase()} journaled with your id`, "ok");
    DENOMS.forEach((d) => { counts[d] = 0; });
    pad.press("clear");
    ["books-carrier", "books-carrier-pin", "books-slip", "books-second", "books-second-pin"].forEach((id) => { document.getElementById(id).value = ""; });
    draw();
  });
  draw();
})();
