import { describe, expect, it } from "vitest";
import { balanceOf, cardsLeft, packing, posOf, previousTrick, seatModel, seatTurn, timeLeft, trickShown } from "../../../src/meio/web/static/js/table/board.js";
import { seated, view } from "./fixtures.js";

const TRICK = { cards: [[0, "3S"], [1, "KS"]], winner: 1, pile: 1, declared: null };

describe("the middle of the table", () => {
  it("shows the trick under way, with the suit led", () => {
    const S = seated(view({ current_trick: [[1, "KS"]], led_suit: "S" }));
    expect(trickShown(S, S.view)).toEqual({ cards: [[1, "KS"]], winner: null, label: "led: ♠", live: true });
  });

  it("holds a finished trick, its winner ringed and where it went", () => {
    const S = seated(view({ tricks: [TRICK] }));
    S.held = { trick: { ...TRICK, n: 1, round: 1 }, sweeping: false };
    const shown = trickShown(S, S.view);
    expect(shown).toMatchObject({ cards: TRICK.cards, winner: 1, sweeping: false });
    expect(shown.label).toMatch(/takes it → H$/);
  });

  it("shows the last trick on request, from the last round when this one has none", () => {
    const S = seated(view({ tricks: [] }));
    expect(previousTrick(S, S.view)).toBeNull();
    S.lastTrick = { ...TRICK, n: 13, round: 1 };
    S.showLast = true;
    expect(trickShown(S, S.view)).toMatchObject({ cards: TRICK.cards, last: true });
  });

  it("puts this seat at the bottom and the others around it", () => {
    expect([0, 1, 2, 3].map((s) => posOf(s, 4, 2))).toEqual(["top", "right", "bottom", "left"]);
    expect(posOf(0, 3, null)).toBe("bottom");
  });

  it("marks whose move it is", () => {
    const split = view({ phase: "split", split_done: [true, false] });
    expect([seatTurn(split, 0), seatTurn(split, 1)]).toEqual([false, true]);
    expect(seatTurn(view({ to_move: 1 }), 1)).toBe(true);
    expect(seatTurn(view({ to_move: 1, is_over: true }), 1)).toBe(false);
  });
});

describe("the balance", () => {
  it("says which pile is ahead and what it would score", () => {
    const S = seated(view({ piles: [[3, 1], [0, 0]], tricks: [TRICK, TRICK, TRICK, TRICK] }));
    expect(balanceOf(S, S.view)).toMatchObject({ h: 3, v: 1, d: 2, left: 3, cls: "h", mark: "H ahead by 2" });
  });

  it("counts the partner's tricks in a partnership and shows nothing to a spectator", () => {
    const v = view({ config: { edition: "meio", players: 4, partnership: true, variant: null },
      piles: [[1, 0], [0, 0], [0, 1], [0, 0]] });
    const S = seated(v);
    expect(balanceOf(S, v)).toMatchObject({ h: 1, v: 1, cls: "even" });
    S.seat = null;
    expect(balanceOf(S, v)).toBeNull();
  });
});

describe("the seats", () => {
  it("show the other hands as backs, the piles, and the half in play", () => {
    const v = view({ half: 2, piles: [[3, 1], [4, 2]], hand_sizes: [3, 3], to_move: 1 });
    const S = seated(v);
    expect(seatModel(S, v, 0)).toEqual({ turn: false, backs: 0, piles: [3, 1], live: 2, cards: 3 });
    expect(seatModel(S, v, 1)).toEqual({ turn: true, backs: 3, piles: [4, 2], live: 2, cards: 3 });
    // during the split no half is in play yet; a spectator sees every hand as backs
    const split = view({ phase: "split", hand_sizes: [13, 13], split_done: [false, false] });
    S.seat = null;
    expect(seatModel(S, split, 0)).toMatchObject({ backs: 13, live: 0, turn: true });
  });

  it("count the cards a seat holds, one card in the singular", () => {
    expect(cardsLeft(1)).toBe("1 card");
    expect([0, 2].map(cardsLeft)).toEqual(["0 cards", "2 cards"]);
  });

  it("give the mover's time left from the server's deadline", () => {
    const S = seated();
    expect(timeLeft(S, 0)).toBe("");
    S.deadline = 100; S.skew = 0;
    expect(timeLeft(S, 88_000)).toBe("12s");
  });

  it("build the pack in the middle only while this seat chooses it", () => {
    const S = seated(view({ phase: "split", split_done: [false, true] }));
    expect(packing(S, S.view)).toBe(true);
    expect(packing(S, view({ phase: "split", split_done: [true, false] }))).toBe(false);
    S.showLast = true;
    expect(packing(S, S.view)).toBe(false);
    S.showLast = false;
    S.seat = null;
    expect(packing(S, S.view)).toBe(false);
  });
});
