// High card's part of the dealer's console, loaded by the page by the game's key (its ConsolePart
// serves this folder): a seat's wager button, how a seat's card and its settlement read. What the
// dealer may do comes from the round itself (view.round.allowed, view.round.buttons); nothing
// here decides it.
(function () {
  "use strict";
  const games = (window.tablectlGames = window.tablectlGames || {});
  const OUTCOME = { win: "wins even money", lose: "loses", push: "ties: push" };

  // The seat's buttons while wagers are taken: one wager, of the chip selected (`chip`, cents).
  // `button(label, event, cls, enabled, test)` is the console's own button maker.
  function seatButtons(state, n, seat, chip, button) {
    const allowed = (state.round && state.round.allowed) || [];
    const placed = seat && seat.wagers && seat.wagers.wager;
    if (!allowed.includes("wager") || placed) return [];
    return [button("Wager", { type: "wager", seat: n, stake: chip }, "small", true, `wager-${n}`)];
  }

  function seatLine(seat) {
    const stake = seat.wagers && seat.wagers.wager;
    if (!stake) return "";
    const card = seat.cards && seat.cards.length ? seat.cards[0] : "—";
    const outcome = seat.outcome ? " · " + OUTCOME[seat.outcome] : "";
    return `Seat ${seat.seat}: ${(stake / 100).toFixed(2)} on ${card}${outcome}`;
  }

  function settlementLines(settlement) {
    if (!settlement) return [];
    return settlement.seats.map((s) => `Seat ${s.seat}: ${OUTCOME[s.wager.outcome]} (${(s.wager.net / 100).toFixed(2)})`);
  }

  games.high_card = { wagers: ["wager"], seatButtons: seatButtons, seatLine: seatLine, settlementLines: settlementLines };
})();
