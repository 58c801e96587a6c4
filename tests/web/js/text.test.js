import { describe, expect, it } from "vitest";
import { clock, hintText, nameOf, ratingChange, statusText, takesText } from "../../../src/meio/web/static/js/table/text.js";
import { seated, view } from "./fixtures.js";

describe("the table's words", () => {
  it("names a seat by its player, a bot by its number and level", () => {
    const S = seated();
    expect(nameOf(S, 0)).toBe("Ana");
    expect(nameOf(S, 1)).toMatch(/^Bot 2 \(/);
    expect(nameOf(S, 4)).toBe("seat 5");
  });

  it("says who took a trick and where, in the second person for your own", () => {
    const S = seated();
    expect(takesText(S, { cards: [[0, "3S"], [1, "KS"]], winner: 1, pile: 1 })).toMatch(/^Bot 2 .* takes it → H$/);
    expect(takesText(S, { cards: [[0, "+.5"], [1, "KS"]], winner: 0, pile: 2 })).toBe("You won with +½ and chose V");
    expect(takesText(S, { cards: [[0, "Q+"], [1, "KS"]], winner: 0, pile: 2 })).toBe("You take it → V (Q+ sends it to the other half)");
  });

  it("tells a seat what to do, and a spectator who is to play", () => {
    const S = seated(view({ current_trick: [[1, "KS"]], to_move: 0 }));
    expect(statusText(S, S.view)).toBe("Your turn: follow.");
    S.view = view({ to_move: 0 });
    expect(statusText(S, S.view)).toBe("Your turn: lead.");
    S.view = view({ phase: "split", split_done: [false, true] });
    expect(statusText(S, S.view)).toBe("Choose your 6-card second-half pack.");
  });

  it("writes a turn-based clock in hours and minutes when there are many", () => {
    expect(clock(59)).toBe("59s");
    expect(clock(150)).toBe("2 min");
    expect(clock(3 * 3600 + 120)).toBe("3 h 2 min");
  });

  it("signs a rating's change, and never writes −0.0", () => {
    expect(ratingChange(1.26)).toBe("+1.3");
    expect(ratingChange(-2)).toBe("−2.0");
    expect(ratingChange(-0.04)).toBe("0.0");
    expect(ratingChange(0.049)).toBe("0.0");
  });

  it("tells a spectator the players are choosing, not that they wait for others", () => {
    const S = seated(view({ phase: "split", split_done: [true, false] }));
    expect(statusText(S, S.view)).toBe("Waiting for the others to choose their packs…");
    S.seat = null;
    expect(statusText(S, S.view)).toBe("The players are choosing their packs…");
  });

  it("gives the advisor's figures, a range only where it is one", () => {
    const h = { candidates: [{ mean: 2.04, ci95: [1.5, 2.6] }], chosen: { mean: 3 } };
    expect(hintText(h, "en")).toBe("Expected score with the highlighted pack: 2 (likely between 1.5 and 2.6); lower is better. With your pack: 3.");
    expect(hintText({ candidates: [{ mean: 0, ci95: [-0.01, 0.01] }] }, "en")).toBe("Expected score with the highlighted pack: 0; lower is better.");
  });
});
