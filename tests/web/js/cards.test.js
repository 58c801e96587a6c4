import { describe, expect, it } from "vitest";
import { cardEl } from "../../../src/meio/web/static/js/cards.js";
import { renderPrompt } from "../../../src/meio/web/static/js/table/hand.js";
import { seated, view } from "./fixtures.js";

// Issue 40 §2's small card defects, on the elements the pages draw.
describe("the cards", () => {
  it("draw a two-digit index narrower, clear of its corner's suit", () => {
    expect(cardEl("10H").classList.contains("wide-rank")).toBe(true);
    expect(cardEl("9H").classList.contains("wide-rank")).toBe(false);
    expect(cardEl("10S").querySelector(".corner").innerHTML).toBe("10<br>♠");
  });

  it("tell −1/A+ from A+/−1: each its tint, both faces, the half in play's the large one", () => {
    const minus = cardEl("-1", { half: 1 });
    const aplus = cardEl("A+", { half: 1 });
    expect(minus.classList.contains("sp-minus")).toBe(true);
    expect(aplus.classList.contains("sp-aplus")).toBe(true);
    const faces = (el) => [...el.querySelectorAll(".face")].map((f) => [f.textContent, f.classList.contains("now")]);
    expect(faces(minus)).toEqual([["−1", true], ["A+", false]]);
    expect(faces(aplus)).toEqual([["A+", true], ["−1", false]]);
    expect(faces(cardEl("-1", { half: 2 }))).toEqual([["−1", false], ["A+", true]]);
  });
});

describe("declaring a wild's suit", () => {
  it("shows each suit's button in its colour", () => {
    document.body.innerHTML = '<div id="prompt"></div>';
    const S = seated(view({ hand: ["-1", "3S"], legal: ["-1", "3S"] }));
    S.declaring = "-1";
    renderPrompt(S, S.view, { act: () => {}, send: () => {}, render: () => {} });
    const buttons = [...document.querySelectorAll("#prompt .declare-suit")];
    expect(buttons.map((b) => [b.textContent, b.classList.contains("red")])).toEqual(
      [["♠", false], ["♥", true], ["♦", true], ["♣", false]]);
  });
});
