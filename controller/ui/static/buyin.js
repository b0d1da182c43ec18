// The dealer keys a buy-in (issue 34): cash a player changes for chips at the table goes into the drop box,
// and the table journals it (event buy_in, controller/pit/books.py) with the dealer on duty; the buy-ins of a
// period are its estimated drop in `tablectl report`. A seat and the amount, on the one keypad.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const pad = T.keypad("buyin-key");
  let seat = null;
  let seats = 0;

  const dialog = document.createElement("dialog");
  dialog.id = "buyin-dialog";
  dialog.dataset.test = "buyin-dialog";
  document.body.appendChild(dialog);

  const open = document.createElement("button");
  open.className = "act small grey";
  open.id = "buyin-open";
  open.dataset.test = "buyin-open";
  open.textContent = "Buy-in";
  open.title = "Cash changed for chips at a seat";
  const header = document.querySelector("header.top");
  if (header) header.insertBefore(open, $("to-supervisor"));

  function draw() {
    dialog.innerHTML =
      `<h3>Buy-in: cash for chips</h3>` +
      `<div class="presets" data-test="buyin-seats">` + Array.from({ length: seats }, (_, i) => i + 1).map((n) =>
        `<button class="act ${n === seat ? "green" : "grey"}" data-seat="${n}" data-test="buyin-seat-${n}">Seat ${n}</button>`).join("") + `</div>` +
      `<div class="amount-shown" data-test="buyin-amount">${pad.text()}</div>${pad.html()}` +
      `<div class="error-text" id="buyin-error"></div>` +
      `<div class="sup-actions"><button class="act green" data-test="buyin-ok"${seat && pad.value() ? "" : " disabled"}>` +
      `Journal the buy-in</button><button class="act grey" data-test="buyin-cancel">Cancel</button></div>`;
  }

  // the seats as the table publishes them, read when the dialog opens (no stream of its own)
  async function readSeats() {
    try {
      const state = await (await fetch("/api/state", { cache: "no-store", credentials: "same-origin" })).json();
      seats = Array.isArray(state.seats) ? state.seats.length : 7;
    } catch (err) { seats = seats || 7; }
  }
  open.addEventListener("click", async () => {
    seat = null; pad.press("clear"); await readSeats(); draw(); dialog.showModal();
  });
  dialog.addEventListener("click", async (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    if (pad.touch(b)) { draw(); return; }
    if (b.dataset.seat) { seat = Number(b.dataset.seat); draw(); return; }
    if (b.dataset.test === "buyin-cancel") { dialog.close(); return; }
    if (b.dataset.test !== "buyin-ok") return;
    const { data } = await T.post("/api/panel", { event: { type: "buy_in", seat, amount: pad.value() } });
    if (!data.ok) { $("buyin-error").textContent = data.error || "refused"; return; }
    dialog.close();
    T.toast(`Buy-in journaled: seat ${seat}, ${pad.text()}`, "ok");
  });

})();
