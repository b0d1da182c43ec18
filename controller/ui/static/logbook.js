// The supervisor's screen: the entry and maintenance log (9 NYCRR 5321.9(e)-(f); controller/journal/entrylog.py)
// and the clock's acknowledgement (controller/clock.py). Each sends one supervisor event; the table checks it,
// journals it with the signed-in supervisor's id, and decides, whatever this page shows.
"use strict";

(() => {
  const desk = document.getElementById("desk");
  const clock = document.createElement("div");
  clock.className = "box";
  clock.id = "clock-hold";
  clock.style.marginBottom = "14px";
  clock.hidden = true;
  clock.innerHTML =
    `<h2>The clock</h2><p id="clock-hold-text" data-test="clock-hold"></p>` +
    `<div class="sup-actions"><button class="act amber" data-test="acknowledge-clock">Acknowledge the clock</button></div>`;
  // after the wins waiting for validation: a paid round's decision comes before the next day's clock
  const games = document.getElementById("game-sections");
  if (games) games.before(clock); else desk.prepend(clock);
  const box = document.createElement("section");
  box.className = "box";
  box.id = "entry-log";
  box.dataset.test = "entry-log";
  box.innerHTML =
    `<h2>Entry and maintenance log</h2>` +
    `<label for="entry-person">Who entered (id)</label><input id="entry-person" class="big" autocomplete="off" data-test="entry-person">` +
    `<label for="entry-licence">Their licence</label><input id="entry-licence" class="big" autocomplete="off" data-test="entry-licence">` +
    `<label for="entry-place">What was opened</label><select id="entry-place" class="big" data-test="entry-place">` +
    ["box", "shoe", "shuffler", "controller", "reader", "panel", "screen", "network"]
      .map((p) => `<option value="${p}">${p}</option>`).join("") + `</select>` +
    `<label for="entry-reason">Why (the maintenance done)</label><input id="entry-reason" class="big" autocomplete="off" data-test="entry-reason">` +
    `<div class="sup-actions"><button class="act" data-test="log-entry">Journal the entry</button></div>`;
  desk.append(box);

  async function send(event) {
    const { data } = await T.post("/api/supervisor/action", { event });
    if (!data.ok) { T.toast(data.error || "refused"); return false; }
    T.toast("Done: journaled with your id", "ok");
    return true;
  }

  box.addEventListener("click", async (ev) => {
    if (!ev.target.closest("button[data-test=log-entry]")) return;
    const value = (id) => document.getElementById(id).value.trim();
    const event = { type: "log_entry", person: value("entry-person"), licence: value("entry-licence"),
      reason: value("entry-reason"), place: value("entry-place") };
    if (!event.person || !event.licence || !event.reason) { T.toast("Give who, their licence and why."); return; }
    if (await send(event)) ["entry-person", "entry-licence", "entry-reason"].forEach((id) => { document.getElementById(id).value = ""; });
  });

  clock.addEventListener("click", async (ev) => {
    if (!ev.target.closest("button[data-test=acknowledge-clock]")) return;
    await send({ type: "acknowledge_clock", reason: "acknowledged on the supervisor's screen" });
  });

  T.connect((state) => {
    const jump = (state.alarms || []).some((a) => a.kind === "clock_jump");
    const hold = state.clock_hold || (jump ? "The clock jumped: check it, then acknowledge." : "");
    clock.hidden = !hold;
    document.getElementById("clock-hold-text").textContent = hold;
  });
})();
