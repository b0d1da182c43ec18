// Today's figures on the supervisor's screen: the gaming day's report (/api/supervisor/report,
// the same figures as `tablectl report`), with charts drawn by uPlot (vendored, uPlot.LICENSE.md).
// Money arrives in integer cents and is only written out by T.money; the charts plot cents and
// label their axes with T.money, so no amount is ever rounded through dollars.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const REFRESH_MS = 10000;
  const charts = {};
  let busy = false;

  const secondsOf = (iso) => Date.parse(iso) / 1000;
  // Basis points to "-1.25%": the sign kept, also for a tick just below zero that rounds to it (`raw`).
  const holdText = (bp, raw = bp) => (bp === null || bp === undefined ? "-" :
    `${bp < 0 || (raw < 0 && bp === 0) ? "-" : ""}${Math.trunc(Math.abs(bp) / 100)}.${String(Math.abs(bp) % 100).padStart(2, "0")}%`);
  const holdBp = (win, handle) => (handle ? Math.trunc((win * 10000) / handle) : null);

  // One chart, and beside it its values written out (no hover on a touch screen): each point's time
  // and value, as the report gives them (data-x, data-value: the report's own numbers).
  // `kind`: "steps" (a meter: each movement at its instant), "bars" (per hour), or a line.
  function chart(id, title, data, series, kind, range, shown = true) {
    const el = $(id);
    if (charts[id]) { charts[id].destroy(); delete charts[id]; }
    el.innerHTML = "";
    el.hidden = !shown;
    el.dataset.points = String(data[0].length);
    if (!shown) return;
    if (!data[0].length) { el.textContent = `${title}: nothing yet today`; return; }
    const integer = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000,
      200000, 500000, 1000000, 2000000, 5000000, 10000000];   // ticks in whole units: no tick written twice
    const paths = kind === "bars" ? uPlot.paths.bars({ size: [0.6, 60] })
      : kind === "steps" ? uPlot.paths.stepped({ align: 1 }) : undefined;
    const opts = {
      title, width: 420, height: 220,
      legend: { live: false },   // the series' name without a hover; the values are written below
      cursor: { show: false },
      scales: { x: range ? { time: true, range: () => range } : { time: true } },
      axes: [{}, { values: (u, ticks) => ticks.map(series.tick), size: 90, incrs: integer }],
      series: [{}, { label: series.label, stroke: series.color, fill: series.fill, width: 2,
        ...(paths ? { paths } : {}), ...(kind === "bars" ? { points: { show: false } } : {}) }],
    };
    charts[id] = new uPlot(opts, data, el);
    const at = (sec) => new Date(sec * 1000).toISOString().slice(11, 16);
    const list = document.createElement("ol");
    list.className = "chart-values";
    list.innerHTML = data[0].map((x, i) => (data[1][i] === null || data[1][i] === undefined ? "" :
      `<li data-x="${T.esc(series.at ? series.at[i] : at(x))}" data-value="${T.esc(data[1][i])}">` +
      `${T.esc(series.at ? series.at[i] : at(x))} <b>${T.esc(series.tick(data[1][i]))}</b></li>`)).join("");
    el.appendChild(list);
  }

  // The day held against the exact par (controller/par/hold.py), and the books' win beside the
  // settlements' (controller/pit/books.py): lines of their own, flagged when beyond the band.
  function parLine(par, pit) {
    let el = $("fig-par");
    if (!el) {
      el = Object.assign(document.createElement("div"), { className: "fig-line", id: "fig-par" });
      el.dataset.test = "fig-par";
      $("fig-sections").after(el);
    }
    const lines = [];
    if (par) {
      const h = par.sigmas_hundredths;
      const off = h === null ? "" : ` (${h < 0 ? "-" : "+"}${(Math.abs(h) / 100).toFixed(2)} standard deviations)`;
      lines.push(`Against par: theoretical ${T.money(par.theoretical_win)} \u00b1 ${T.money(par.sigma)}, ` +
        `measured ${T.money(par.measured_win)}${off}` +
        (par.beyond_band ? ` \u2014 beyond ${par.band_sigmas} standard deviations: more than chance allows` : ""));
    }
    if (pit && pit.win !== null) lines.push(`Books: win ${T.money(pit.win)}, hold ${holdText(pit.hold_bp)} of the drop; ` +
      `difference from the settlements ${T.money(pit.difference)}`);
    el.textContent = lines.join(". ");
    el.hidden = !lines.length;
    el.classList.toggle("alarm", Boolean(par && par.beyond_band));
    el.dataset.beyond = par && par.beyond_band ? "yes" : "no";
  }

  function render(r) {
    const t = r.tables[0];
    $("fig-period").textContent = `(gaming day from ${r.period.from.slice(0, 16).replace("T", " ")} UTC)`;
    $("fig-summary").innerHTML = [
      ["Rounds", t.rounds, "rounds"], ["Handle", T.money(t.handle), "handle"],
      ["House win", T.money(t.house_win), "house-win"], ["Hold", holdText(t.hold_bp), "hold"],
      ["Voided", t.voided, "voided"],
    ].map(([k, v, test]) => `<span>${k}<b data-test="fig-${test}">${T.esc(v)}</b></span>`).join("");
    const wagers = Object.entries(t.wagers);
    $("fig-wagers").innerHTML = wagers.length ? "<tr><th>Wager</th><th>Handle</th><th>Paid</th><th>House win</th><th>Hold</th></tr>" +
      wagers.map(([name, w]) => `<tr data-wager="${T.esc(name)}"><td>${T.esc(T.label(name))}</td><td>${T.money(w.handle)}</td>` +
        `<td>${T.money(w.paid)}</td><td>${T.money(w.house_win)}</td><td>${holdText(w.hold_bp)}</td></tr>`).join("") : "";
    // each game's section of the figures, as its game writes it for this screen (r.screen)
    for (const [name, part] of Object.entries(r.screen || {})) {
      let el = $(`fig-${name}`);
      if (!part.line) { if (el) el.remove(); continue; }   // a section with nothing to say has no line
      if (!el) {   // the first figures with this section: its line, in the registry's order
        el = Object.assign(document.createElement("div"), { className: "fig-line", id: `fig-${name}` });
        $("fig-sections").appendChild(el);
      }
      el.textContent = part.line;
    }
    parLine(t.par, t.pit);
    const money = { tick: (v) => T.money(Math.round(v)) };
    // Only the charts the table's game has: a meter where a section of the report reads one
    // (r.screen's readings), the hold where wagers are held (a handle), the rounds always.
    const parts = Object.values(r.screen || {});
    const readings = parts.flatMap((part) => part.readings || []);
    chart("chart-meter", "Progressive meter", [readings.map((x) => secondsOf(x[0])), readings.map((x) => x[1])],
      { ...money, label: "meter", color: "#2f7de1", fill: "rgba(47,125,225,.12)", at: readings.map((x) => x[0]) },
      "steps", null, readings.length > 0);
    const hours = t.by_hour;
    const day = [secondsOf(r.period.from), secondsOf(r.period.to)];   // the hours of the whole gaming day
    const x = hours.map((h) => secondsOf(h.hour) + 1800);
    const held = hours.filter((h) => h.handle > 0);
    chart("chart-hold", "Hold by hour", [held.map((h) => secondsOf(h.hour) + 1800), held.map((h) => holdBp(h.house_win, h.handle))],
      { tick: (v) => holdText(Math.round(v), v), label: "hold", color: "#1f9d55", fill: "rgba(31,157,85,.5)",
        at: held.map((h) => h.hour) }, "bars", day, t.handle > 0);
    chart("chart-rounds", "Rounds by hour", [x, hours.map((h) => h.rounds)],
      { tick: (v) => String(Math.round(v)), label: "rounds", color: "#e0a100", fill: "rgba(224,161,0,.5)",
        at: hours.map((h) => h.hour) }, "bars", day);
    $("fig-events").innerHTML = t.events.slice(-20).reverse().map((e) =>
      `<div data-test="fig-event">${T.esc(e.at.slice(11, 19))} ${T.esc(e.kind)} ${T.esc(e.who || "")} ${T.esc(e.detail || "")}</div>`).join("");
    $("figures").dataset.rounds = String(t.rounds);
  }

  async function refresh() {
    if (busy || $("desk").hidden) return;
    busy = true;
    try {
      const res = await fetch("/api/supervisor/report", { headers: { "X-Tablectl": "1" }, cache: "no-store" });
      const body = await res.json();
      if (body.ok) render(body);
      $("figures").dataset.state = body.ok ? "shown" : "refused";
    } catch (e) {
      $("figures").dataset.state = "unreachable";
    } finally {
      busy = false;
    }
  }

  // The shift report to sign (issue 34): today's, as `tablectl report --pdf` lays it out, on a page of
  // its own that prints itself; the server writes it for the signed-in supervisor only.
  $("print-report").addEventListener("click", () => {
    window.open(`/supervisor/print?paper=${encodeURIComponent($("print-paper").value)}`, "_blank", "noopener");
  });

  new MutationObserver(refresh).observe($("desk"), { attributes: true, attributeFilter: ["hidden"] });
  setInterval(refresh, REFRESH_MS);
  window.TablectlFigures = { refresh };
})();
