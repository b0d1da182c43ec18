// The supervisor's par sheet (issue 21): the exact figures of the table's game, read from the
// cache through /api/par. While the table's background job computes them, the page asks again.
"use strict";

(() => {
  const body = document.getElementById("par-body");
  const LINES = {
    "pair-or-less": "Pair or less", "two-pair": "Two pair", "three-of-a-kind": "Three of a kind",
    "straight": "Straight", "flush": "Flush", "full-house": "Full house", "four-of-a-kind": "Four of a kind",
    "straight-flush": "Straight flush", "royal-flush": "Royal flush",
  };
  const pct = (f) => `${f.percent.toFixed(4)}%`;
  const exact = (f) => `${f.numerator}/${f.denominator}`;
  function row(label, f, test) {
    return `<tr><th style="text-align:left">${T.esc(label)}</th><td data-test="${test}" title="${exact(f)}">${pct(f)}</td>` +
      `<td class="muted exact">${exact(f)}</td></tr>`;
  }

  function stud(s) {
    const o = s.strategies.optimal, m = s.strategies.simple, p = s.progressive, pl = s.payout_limit;
    const capped = (a) => a.capped.map((c) => LINES[c]).join(", ") || "no hand";
    return `<table class="par-table">` +
      row("House edge per ante, optimal strategy", o.house_edge, "par-optimal-house-edge") +
      row("Element of risk, optimal strategy", o.element_of_risk, "par-optimal-element-of-risk") +
      row("House edge per ante, bet with ace-king or better", m.house_edge, "par-simple-house-edge") +
      row("At the floor paytable of 5324.37(g)(2), optimal", s.floor.strategies.optimal.house_edge, "par-floor-house-edge") +
      row("Progressive: house's long-run share of a wager", p.house_share, "par-progressive-share") +
      `</table><p>Paytable: ${Object.keys(LINES).map((k) => `${LINES[k]} ${s.rules.paytable[k]}:1`).join(", ")};` +
      ` bet ${s.rules.bet_multiple} &times; ante.</p>` +
      `<p data-test="par-break-even">Progressive breaks even at a meter of ${T.money(p.break_even_meter.cents)}.</p>` +
      `<p>Payout limit ${pl.limit === null ? "none" : T.money(pl.limit)}: at the minimum ante caps ` +
      `${capped(pl.at_minimum_ante)}; at the maximum ante caps ${capped(pl.at_maximum_ante)}.</p>`;
  }

  function war(s) {
    return `<table class="par-table">` +
      row("Initial wager, always to war", s.always_war.house_edge, "par-war-house-edge") +
      row("Initial wager, always surrender", s.always_surrender.house_edge, "par-surrender-house-edge") +
      row(`Tie wager at ${s.rules.tie_odds}:1`, s.tie.house_edge, "par-tie-house-edge") +
      `</table><p>${s.rules.decks} decks.</p>`;
  }

  function poker(s) {
    return `<p>No house edge: the house takes the rake (${T.esc(s.rake_method)}) and the jackpot drop.</p>` +
      `<table class="par-table"><tr><th>Pot</th><th>Rake</th><th>Jackpot drop</th><th>Share</th></tr>` +
      s.pots.map((r) => `<tr><td>${T.money(r.pot)}</td><td>${T.money(r.rake)}</td>` +
        `<td>${T.money(r.jackpot_drop)}</td><td>${pct(r.share)}</td></tr>`).join("") + `</table>`;
  }

  async function load() {
    let data;
    try {
      const response = await fetch("/api/par", { cache: "no-store" });
      data = await response.json();
    } catch (e) {
      setTimeout(load, 5000);
      return;
    }
    body.dataset.state = data.state;
    if (data.state === "ready") {
      const s = data.sheet;
      body.classList.remove("muted");
      body.innerHTML = s.game === "caribbean-stud" ? stud(s) : s.game === "casino-war" ? war(s) : poker(s);
    } else if (data.state === "computing") {
      body.textContent = "Computing the par sheet of these rules in the background\u2026";
      setTimeout(load, 2000);
    } else if (data.state === "failed") {
      body.textContent = `The par sheet could not be computed (exit status ${data.exit_status}).`;
    } else if (data.state === "off") {
      body.textContent = `No par sheet cached for these rules; run ${data.command}.`;
    } else {
      body.textContent = "No par sheet for this table.";
    }
  }
  load();
})();
