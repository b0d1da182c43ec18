// High card on the dealer's console: loaded by the game's key (the table's static/common.js
// T.loadGame, from this game's ConsolePart); the shared page draws the seats, the dealer's cards,
// the settlement and the round's buttons, and asks this script for a seat's wager button and the
// name of its one wager. What the round allows now is the round's own (view.round.allowed).
"use strict";

(() => {
  // One wager a seat, of the chip selected, while the round takes wagers; or the last round's again.
  function seatButtons(ctx, n, seat) {
    const placed = seat && seat.wagers && seat.wagers.wager;
    if (!ctx.allows("wager") || placed) return [];
    const buttons = [ctx.button(`Wager ${T.money(ctx.chip)}`, { type: "wager", seat: n, stake: ctx.chip },
      "small", true, `wager-${n}`)];
    const prev = ctx.prev.get(n);
    if (prev && prev.wager) buttons.push(ctx.same(n, `Same ${T.money(prev.wager)}`));
    return buttons;
  }

  T.register({
    wagerNames: { wager: "Wager" },
    wagerEvents: ["wager"],   // the chips are offered while the round takes these
    seatButtons,
    // the cards are dealt face up, one to each wager and one to the dealer: shown as dealt
    sameAsLast: (seat, prev) => [{ type: "wager", seat, stake: prev.wager }],
  });
})();
