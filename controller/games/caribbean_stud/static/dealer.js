// Caribbean stud poker (9 NYCRR 5324.37) on the dealer's console: loaded by the game's key
// (static/common.js T.loadGame); the shared page (static/dealer.js) draws the seats and asks this
// script for the game's buttons, which cards are shown, and the names of its wagers.
"use strict";

(() => {
  // Until the table publishes round.allowed for this game: the events each state of the round allows.
  const ALLOWED = { open: ["ante", "remove"], decisions: ["decision"] };

  // Game protection: a player's cards stay face down on the dealer's screen until a step needs
  // them: the settlement after the dealer's hand is revealed (5324.37(e)(4)-(5)).
  const CARDS_SHOWN = ["revealed", "validation", "closed", "void"];

  function seatButtons(ctx, n, seat) {
    const { button, chip } = ctx, prev = ctx.prev.get(n), buttons = [];
    if (ctx.allows("ante")) {
      // A second ante at a seat replaces the first (the table keeps one ante a seat): the button says so.
      const had = seat && seat.wagers && seat.wagers.ante;
      buttons.push(button(had ? `Ante ${T.money(chip)} replaces ${T.money(had)}` : seat ? `Ante ${T.money(chip)}` : "Ante",
        { type: "ante", seat: n, amount: chip }, "small", true, `ante-${n}`));
      if (prev && prev.ante && !(seat && seat.wagers && seat.wagers.ante === prev.ante)) {
        buttons.push(ctx.same(n, `Same ${T.money(prev.ante)}`));
      }
      if (seat && seat.wagers && seat.wagers.ante) {
        buttons.push(button("Remove", { type: "remove", seat: n, wager: "ante" }, "small grey", true, `remove-${n}`));
      }
    }
    // The seat deciding now only (5324.37(e)(3), from the dealer's left): its Bet and Fold in the seat too.
    if (seat && ctx.allows("decision") && !seat.decision && !seat.void && nextToDecide(ctx.s) === n) {
      buttons.push(button("Bet", { type: "decision", seat: n, decision: "bet" }, "green", true, `bet-${n}`));
      buttons.push(button("Fold", { type: "decision", seat: n, decision: "fold" }, "red", true, `fold-${n}`));
    }
    return buttons;
  }

  function nextToDecide(s) {
    return (s.seats || []).filter((x) => x.wagers && x.wagers.ante && !x.decision && !x.void)
      .map((x) => x.seat).sort((a, b) => a - b)[0];
  }

  // The next step's own buttons, beside it where every screen size shows them: the seat that
  // decides now (5324.37(e)(3), from the dealer's left).
  function stepActions(ctx) {
    if (!ctx.allows("decision")) return "";
    const next = nextToDecide(ctx.s);
    if (!next) return "";
    return ctx.button(`Seat ${next}: Bet`, { type: "decision", seat: next, decision: "bet" }, "green", true, "step-bet") +
      ctx.button(`Seat ${next}: Fold`, { type: "decision", seat: next, decision: "fold" }, "red", true, "step-fold");
  }

  T.register({
    wagerNames: { ante: "Ante", bet: "Bet", progressive: "Progressive" },
    wagerEvents: ["ante"],   // the chips are offered while the round takes these
    allowed: (s) => ALLOWED[(s.round || {}).state] || [],
    seatButtons,
    stepActions,
    // After the reveal, only the hands the dealer turns over (5324.37(e)(4), (e)(5)(i)): the table names them.
    cardsShown: (s, seat) => CARDS_SHOWN.includes((s.round || {}).state) &&
      (Array.isArray(s.turn_over) ? s.turn_over.includes(seat.seat) : true),
    upCard: (s) => (s.dealer || {}).up_card || null,
    sameAsLast: (seat, prev) => [{ type: "ante", seat, amount: prev.ante }],
  });
})();
