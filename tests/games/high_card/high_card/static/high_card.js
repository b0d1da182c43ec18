// High card's part of the dealer's console: how a seat's card and the settlement read.
// The page loads this script by the game's key and calls what it registers; the buttons are the
// round's own (view.round.buttons), so nothing here decides what the dealer may do.
(function () {
  "use strict";
  const games = (window.tablectlGames = window.tablectlGames || {});
  const OUTCOME = { win: "wins even money", lose: "loses", push: "ties: push" };

  function seatLine(seat) {
    const stake = seat.wagers && seat.wagers.wager;
    if (!stake) return "";
    const card = seat.cards && seat.cards.length ? seat.cards[0] : "—";
    const outcome = seat.outcome ? " · " + OUTCOME[seat.outcome] : "";
    return `Seat ${seat.seat}: ${(stake / 100).toFixed(2)} on ${card}${outcome}`;
  }

  function settlementLines(settlement) {
    if (!settlement) return [];
    return settlement.seats.map((s) => `Seat ${s.seat}: ${OUTCOME[s.outcome]} (${(s.wager.net / 100).toFixed(2)})`);
  }

  games.high_card = { seatLine: seatLine, settlementLines: settlementLines, wagers: ["wager"] };
})();
