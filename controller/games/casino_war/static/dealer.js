// Casino war (9 NYCRR 5324.22) on the dealer's console: loaded by the game's key (static/common.js
// T.loadGame); the shared page (static/dealer.js) draws the seats and asks this script for the
// game's buttons, the tie hand offered war or surrender, the touch-in picker, and its wagers' names.
"use strict";

(() => {
  // Until the table publishes round.allowed for this game: the events each state of the round allows.
  const ALLOWED = { wagers: ["wager"], decisions: ["decision"] };

  // The tie hand the dealer offers surrender or war now, the first undecided one from the
  // dealer's left (5324.22(i)(3)); the table may name it with decision "offer".
  function offered(ctx, seats) {
    const named = seats.find((x) => x.decision === "offer");
    if (named) return named.seat;
    if (!ctx.allows("decision")) return null;
    const dealer = ((ctx.s.dealer || {}).cards || [])[0];
    if (!dealer) return null;
    const tie = seats.find((x) => !x.decision && !x.void && (x.cards || []).length === 1 && x.cards[0][0] === dealer[0]);
    return tie ? tie.seat : null;
  }

  function seatButtons(ctx, n, seat) {
    const { button, chip } = ctx, prev = ctx.prev.get(n), buttons = [];
    const w = (seat && seat.wagers) || {};
    if (ctx.allows("wager")) {
      if (!w.initial) buttons.push(button("Initial", { type: "wager", seat: n, wager: "initial", stake: chip }, "small", true, `initial-${n}`));
      if (!w.tie) buttons.push(button("Tie", { type: "wager", seat: n, wager: "tie", stake: chip }, "small grey", true, `tie-${n}`));
      if (prev && prev.initial && !w.initial) buttons.push(ctx.same(n, "Same as last"));
    }
    if (seat && ctx.offered === n) {
      buttons.push(button("War", { type: "decision", seat: n, decision: "war" }, "green", true, `war-${n}`));
      buttons.push(button(`War + tie ${T.money(chip)}`, { type: "decision", seat: n, decision: "war", war_tie: chip },
        "green small", true, `wartie-${n}`));
      buttons.push(button("Surrender", { type: "decision", seat: n, decision: "surrender" }, "red", true, `surrender-${n}`));
    }
    return buttons;
  }

  // The next step's own buttons, beside it where every screen size shows them: the card to touch
  // in, or the tie hand offered war or surrender.
  function stepActions(ctx) {
    if ((ctx.s.round || {}).touch_in) return touchIn(ctx.button);
    const seat = ctx.offered;
    if (!seat) return "";
    return ctx.button(`Seat ${seat}: War`, { type: "decision", seat, decision: "war" }, "green", true, "step-war") +
      ctx.button(`War + tie ${T.money(ctx.chip)}`, { type: "decision", seat, decision: "war", war_tie: ctx.chip },
        "green", true, "step-wartie") +
      ctx.button(`Seat ${seat}: Surrender`, { type: "decision", seat, decision: "surrender" }, "red", true, "step-surrender");
  }

  // From a shoe without a card reader, or a card the reader could not read: the dealer touches
  // in the card just drawn, the one the next step names (5324.22(h)(2)); six or more decks, so
  // every card can come again.
  function touchIn(button) {
    const ranks = "AKQJT98765432", suits = "shdc", sym = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
    const out = [];
    for (const s of suits) {
      for (const r of ranks) {
        out.push(button(`${r === "T" ? "10" : r}${sym[s]}`, { type: "card", card: r + s },
          s === "h" || s === "d" ? "suit-red" : "", true, `touch-${r}${s}`));
      }
    }
    return `<div class="picker touch-in">${out.join("")}</div>`;
  }

  // The pay list in the two settlements of 5324.22(i)(1) (paylist.py): the original deal's wagers are
  // collected and paid at the first Settle, before any war; the war's at the second.
  function settlementPart(s, part) {
    const war = ((s && s.settlement) || []).some((x) => x.deal === "war");
    if (part === "first") {
      return war ? { text: "Original deal: collected and paid at the first Settle", now: false }
        : { text: "Original deal: collect and pay these now, before any war (5324.22(i)(1))", now: true };
    }
    return { text: "The war: collect and pay these now (5324.22(i)(3), (i)(5))", now: true };
  }

  T.register({
    settlementPart,
    wagerNames: { initial: "Initial", tie: "Tie", war: "War", war_tie: "War tie" },
    wagerEvents: ["wager"],   // the chips are offered while the round takes these
    allowed: (s) => ALLOWED[(s.round || {}).state] || [],
    offered,
    seatButtons,
    stepActions,
    // the cards are dealt face up (5324.22(h)(2)), so they are shown as dealt
    sameAsLast: (seat, prev) => [{ type: "wager", seat, wager: "initial", stake: prev.initial },
      ...(prev.tie ? [{ type: "wager", seat, wager: "tie", stake: prev.tie }] : [])],
  });
})();
