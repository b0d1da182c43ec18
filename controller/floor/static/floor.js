// The floor view: every table's figures and what needs the pit, asked for every poll_seconds.
// The server decides who is signed in (controller/floor/serve.py); the page only asks and shows.
"use strict";
const $ = (id) => document.getElementById(id);
let timer = null;

function money(cents) {
  if (cents === null || cents === undefined) return "—";
  const sign = cents < 0 ? "-" : "";
  const a = Math.abs(cents);
  const dollars = Math.floor(a / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${dollars}.${String(a % 100).padStart(2, "0")}`;
}

function bp(value) {
  if (value === null || value === undefined) return "—";
  const sign = value < 0 ? "-" : "";
  const a = Math.abs(value);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}%`;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function figure(dl, label, value, test) {
  dl.append(el("dt", {}, label), el("dd", {"data-test": test}, value));
}

function card(t) {
  const s = t.status || {};
  const state = t.stale ? "not reporting" : (s.state || "none");
  const needs = t.faults.length || t.validations.length;
  const c = el("article", {"class": "table-card" + (needs ? " attention" : "") + (t.stale ? " stale" : ""),
                           "data-test": "table", "data-table": t.table});
  c.append(el("h2", {}, el("span", {"data-test": "table-id"}, t.table),
              el("span", {"data-test": "game"}, t.game || ""),
              el("span", {"class": "state " + state, "data-test": "state"}, state)));
  const dealer = s.dealer ? `Dealer ${s.dealer_name ? s.dealer_name + " (" + s.dealer + ")" : s.dealer}` : "No dealer signed in";
  c.append(el("div", {"data-test": "dealer"}, dealer));
  if (t.stale && t.age_s !== null) c.append(el("div", {"data-test": "age"}, `last heard ${Math.round(t.age_s)} s ago`));
  if (s.test_mode) c.append(el("div", {"class": "error", "data-test": "test-mode"}, "TEST MODE"));
  const list = el("ul", {"class": "needs"});
  for (const f of t.faults) list.append(el("li", {"data-test": "fault"}, `Fault: ${f}`));
  for (const v of t.validations) {
    list.append(el("li", {"data-test": "validation", "data-seat": String(v.seat)},
                   `Validate seat ${v.seat}: ${v.hand.replace(/-/g, " ")}, ${v.award === null ? "award awaited" : money(v.award)}`));
  }
  for (const a of t.alarms) list.append(el("li", {"data-test": "alarm"}, a));
  if (list.children.length) c.append(list);
  const dl = el("dl", {"class": "card-figures"});
  if (s.meter !== null && s.meter !== undefined) figure(dl, "Meter", money(s.meter), "meter");
  figure(dl, "Rounds today", String(t.rounds), "rounds");
  figure(dl, "Handle", money(t.handle), "handle");
  figure(dl, "House win", money(t.house_win), "house_win");
  figure(dl, "Hold", bp(t.hold_bp), "hold_bp");
  figure(dl, "Drop (count room)", money(t.drop), "drop");
  figure(dl, "Drop (estimated)", money(t.estimated_drop), "estimated_drop");
  figure(dl, "Win (books)", money(t.win), "win");
  if (t.theoretical_win !== null) {
    figure(dl, "Par win", `${money(t.theoretical_win)} ± ${money(3 * t.sigma)}`, "theoretical_win");
    const band = el("span", {"class": "band" + (t.beyond_band ? " beyond" : "")},
                    t.beyond_band ? "beyond 3 SD: look at it" : "within 3 SD");
    figure(dl, "Against par", band, "band");
  } else {
    figure(dl, "Par win", "no par sheet sent", "theoretical_win");
  }
  c.append(dl);
  return c;
}

function show(view) {
  const when = (iso) => iso.slice(0, 16).replace("T", " ");
  $("period").textContent = `Gaming day ${when(view.period.from)} to ${when(view.period.to)} UTC`;
  $("attention").textContent = view.attention
    ? `${view.attention} table${view.attention === 1 ? " needs" : "s need"} the pit` : "Every table in play";
  $("tables").replaceChildren(...view.tables.map(card));
  const t = view.total;
  $("total").replaceChildren(el("tr", {},
    el("td", {}, `${t.tables} tables`), el("td", {"data-test": "total-rounds"}, `${t.rounds} round${t.rounds === 1 ? "" : "s"}`),
    el("td", {"data-test": "total-handle"}, `handle ${money(t.handle)}`),
    el("td", {"data-test": "total-house_win"}, `house win ${money(t.house_win)}`),
    el("td", {}, `hold ${bp(t.hold_bp)}`)));
}

async function ask(path, body) {
  const options = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json", "X-Tablectl": "1"},
                                             body: JSON.stringify(body)};
  const r = await fetch(path, {credentials: "same-origin", cache: "no-store", ...options});
  return {status: r.status, body: await r.json().catch(() => ({}))};
}

function signedOut() {
  clearTimeout(timer);
  $("floor").hidden = true;
  $("sign-out").hidden = true;
  $("who").textContent = "";
  $("sign-in").hidden = false;
}

async function poll(seconds) {
  const r = await ask("/api/floor").catch(() => ({status: 0, body: {}}));
  if (r.status === 401) return signedOut();
  if (r.status === 200) { show(r.body); $("read-error").textContent = ""; }
  else $("read-error").textContent = r.body.error || "the floor cannot be read now; asking again";
  timer = setTimeout(() => poll(seconds), seconds * 1000);
}

function signedIn(me) {
  $("sign-in").hidden = true;
  $("floor").hidden = false;
  $("sign-out").hidden = false;
  $("who").textContent = `${me.name} (${me.id})`;
  poll(me.poll_seconds);
}

$("sign-in").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await ask("/api/sign-in", {id: $("sid").value, pin: $("pin").value});
  $("pin").value = "";
  if (r.status === 200) { $("sign-in-error").textContent = ""; signedIn(r.body); }
  else $("sign-in-error").textContent = r.body.error || "not signed in";
});
$("sign-out").addEventListener("click", async () => { await ask("/api/sign-out", {}); signedOut(); });

ask("/api/whoami").then((r) => (r.status === 200 ? signedIn(r.body) : signedOut()));
