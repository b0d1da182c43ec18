// The shift report's print view (/supervisor/print): the paper chosen here (A4 or US letter) is the
// @page size the browser prints on, and the page asks the browser to print it as soon as it is shown.
// The report itself is the server's (report_routes.py): this page asks the table nothing.
"use strict";

(() => {
  const paper = document.getElementById("paper");
  const SIZES = { a4: "A4", letter: "letter" };
  function choose(value) {
    document.body.dataset.paper = value;
    document.getElementById("page-size").textContent = `@page { size: ${SIZES[value]}; }`;
  }
  paper.addEventListener("change", () => choose(paper.value));
  document.getElementById("print").addEventListener("click", () => window.print());
  // Back to the supervisor's screen, which stayed open beneath (a kiosk has no window controls).
  document.getElementById("close").addEventListener("click", () => window.close());
  choose(paper.value);
  window.addEventListener("load", () => window.print());
})();
