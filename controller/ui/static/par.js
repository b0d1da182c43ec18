// The supervisor's par sheet (issue 21): the exact figures of the table's game, read from the
// cache through /api/par, laid out by the game's sheet (its blocks come with it: this page knows no
// game). While the table's background job computes them, the page asks again.
"use strict";

(() => {
  const body = document.getElementById("par-body");
  const pct = (f) => `${f.percent.toFixed(4)}%`;
  const exact = (f) => `${f.numerator}/${f.denominator}`;
  function row(label, f, test) {
    return `<tr><th style="text-align:left">${T.esc(label)}</th><td data-test="${T.esc(test)}" title="${exact(f)}">${pct(f)}</td>` +
      `<td class="muted exact">${exact(f)}</td></tr>`;
  }

  // One block of the sheet as its game laid it out (the server sends `screen` beside the sheet):
  // rows of exact figures, a table of text cells, or a line of text.
  function block(b) {
    if (b.rows) return `<table class="par-table">${b.rows.map(([label, f, test]) => row(label, f, test)).join("")}</table>`;
    if (b.head) {
      return `<table class="par-table"><tr>${b.head.map((h) => `<th>${T.esc(h)}</th>`).join("")}</tr>` +
        b.cells.map((r) => `<tr>${r.map((c) => `<td>${T.esc(c)}</td>`).join("")}</tr>`).join("") + `</table>`;
    }
    return `<p${b.test ? ` data-test="${T.esc(b.test)}"` : ""}>${T.esc(b.text)}</p>`;
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
      body.classList.remove("muted");
      body.innerHTML = data.screen.map(block).join("");
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
