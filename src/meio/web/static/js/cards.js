// Card codes (the record's: QS, TH, 0C, -1, A+, -2H, +.5, Q+) drawn as buttons, and
// written as a player reads them (10♥, +½): a page never shows a raw code.
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SPECIAL_NAME = { "-1": "−1/A+", "A+": "A+/−1", "-2H": "−2♥", "+.5": "+½", "Q+": "Q+" };
export const SPECIALS = Object.keys(SPECIAL_NAME);
// the class of each box special's drawing (its tint)
const SPECIAL_SLUG = { "-1": "minus", "A+": "aplus", "-2H": "minus2", "+.5": "half", "Q+": "qplus" };
export const WILDS = ["-1", "A+", "+.5", "Q+"];

// The box's five specials by their attributes, in a variant's own form (docs/variants.md).
export const BOX_SPECIALS = {
  "-1": { value: [-1, 15], suit: "wild", pile: "none" },
  "A+": { value: [15, -1], suit: "wild", pile: "none" },
  "-2H": { value: -2, suit: "H", follows: true, pile: "none" },
  "+.5": { value: "above", suit: "wild", pile: "winner_chooses" },
  "Q+": { value: 12.5, suit: "wild", pile: "other_half" },
};

// The special cards of the variant being played ({ code: attributes }), or null for the
// standard editions; a page playing a variant sets it from its view's config.
let invented = null;
export function setVariant(variant) {
  invented = variant ? Object.fromEntries(variant.special.map((s) => [s.code, s])) : null;
}
// A special's attributes at this table (the box card's when no variant is set).
export function specialOf(code) { return invented ? invented[code] ?? null : BOX_SPECIALS[code] ?? null; }
// Whether a variant's special plays as the box card of its code (it keeps its drawing).
function isBoxCard(code) {
  const s = specialOf(code), box = BOX_SPECIALS[code];
  return !!s && !!box && JSON.stringify(s.value) === JSON.stringify(box.value) && s.suit === box.suit
    && (s.follows ?? true) === (box.follows ?? true) && s.pile === box.pile;
}

export function isSpecial(code) { return SPECIALS.includes(code); }
export function isWild(code) { return isSpecial(code) && specialOf(code)?.suit === "wild"; }

export function suitOf(code) {
  if (isSpecial(code)) { const s = specialOf(code)?.suit; return s && s !== "wild" ? s : null; }
  return code.slice(-1);
}

// A special's number in half 1 or 2 (null: "above", 0.5 above the card before it).
function specialNumber(code, half) {
  const v = specialOf(code)?.value;
  const one = Array.isArray(v) ? v[half === 1 ? 0 : 1] : v;
  return one === "above" || one == null ? null : one;
}

// The value a special card has now: -1/A+ swap at the half, +.5 follows the card before
// (a variant's specials: the values it gives them).
export function specialValue(code, half, previous) {
  if (!specialOf(code)) return null;
  const n = specialNumber(code, half);
  if (n == null) return previous == null ? "½" : halves(previous + 0.5);
  return halves(n);
}

// A value in halves as a card shows it: 13½, −½, 12.
export function halves(x) {
  const whole = Math.trunc(x), half = Math.abs(x - whole) === 0.5;
  const sign = x < 0 ? "−" : "";
  const w = Math.abs(whole);
  return half ? `${sign}${w === 0 ? "" : w}½` : `${sign}${w}`;
}

function rankLabel(rank, edition) {
  if (rank === "T") return "10";
  if (rank === "A" && edition === "classic") return "A";
  return rank;
}

// A card element: a <button> when clickable, else a <div>. Its name is the card in words
// ("10 of hearts"), read from hidden text: the drawn glyphs are hidden from readers.
export function cardEl(code, { half = 1, edition = "meio", previous = null, button = false, small = false } = {}) {
  const el = document.createElement(button ? "button" : "div");
  el.className = "card" + (small ? " small" : "");
  el.dataset.card = code;
  const suit = suitOf(code);
  let name;
  if (isSpecial(code)) {
    el.classList.add("special");
    if (suit === "H" || suit === "D") el.classList.add("red");
    const value = specialValue(code, half, previous);
    const shown = cardText(code);
    // an invented special of a fixed suit shows the suit under its code
    const mark = suit && !isBoxCard(code) ? `<br><small>${SUIT_SYMBOL[suit]}</small>` : "";
    // −1/A+ and A+/−1: both faces, the one of the half in play large; each card with a
    // tint of its own, so that the two never look alike
    const faces = shown.split("/");
    const face = faces.length === 2
      ? faces.map((f, i) => `<span class="face${i === half - 1 ? " now" : ""}">${f}</span>`).join("")
      : shown + mark;
    if (isBoxCard(code)) el.classList.add(`sp-${SPECIAL_SLUG[code]}`);
    el.innerHTML = `<span class="rank" aria-hidden="true">${face}</span>` +
      `<span class="value" aria-hidden="true">${value}</span>`;
    name = t("special card {card}, value {value}", { card: shown, value });
  } else {
    const r = rankLabel(code.slice(0, -1), edition);
    if (suit === "H" || suit === "D") el.classList.add("red");
    // a two-digit index is drawn narrower, so that it never covers the corner's suit
    if (r.length > 1) el.classList.add("wide-rank");
    el.innerHTML = `<span class="corner" aria-hidden="true">${r}<br>${SUIT_SYMBOL[suit]}</span><span class="rank" aria-hidden="true">${r}</span><span class="suit" aria-hidden="true">${SUIT_SYMBOL[suit]}</span>`;
    name = t("{rank} of {suit}", { rank: r, suit: suitName(suit) });
  }
  el.append(Object.assign(document.createElement("span"), { className: "sr-only", textContent: name }));
  if (!button) el.setAttribute("role", "img");
  if (!button) el.setAttribute("aria-label", name);
  if (button) el.type = "button";
  return el;
}

// A suit's name in the page's language.
export function suitName(s) {
  return { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") }[s];
}

// A card as a player writes it: 10♥, Q♠, −2♥, +½ (a special a variant invents: its code,
// whatever its attributes, as records and typed moves name it).
export function cardText(code, edition = "meio") {
  if (isSpecial(code)) return isBoxCard(code) ? SPECIAL_NAME[code] : code;
  return rankLabel(code.slice(0, -1), edition) + SUIT_SYMBOL[code.slice(-1)];
}

// A played card with the suit a wild lead declared: "Q+ (♦)".
export function playText(action, edition = "meio") {
  const [code, declared] = action.split("=");
  return cardText(code, edition) + (declared ? ` (${SUIT_SYMBOL[declared]})` : "");
}

// Order cards by suit (S H D C), then rank, specials last.
const RANKS = "0123456789TJQKA";
export function sortCards(codes, edition = "meio") {
  // in classic the Ace is the card "1", the lowest
  const rank = (c) => (edition === "classic" && c[0] === "A" ? -1 : RANKS.indexOf(c[0]));
  const key = (c) => isSpecial(c) ? 100 + SPECIALS.indexOf(c) : "SHDC".indexOf(c.slice(-1)) * 20 + rank(c);
  return [...codes].sort((a, b) => key(a) - key(b));
}

// The numeric value of a played card (for +.5 following it).
export function playedValue(code, half, edition, previous) {
  if (isSpecial(code)) {
    const n = specialNumber(code, half);
    return n == null ? (previous == null ? 0.5 : previous + 0.5) : n;
  }
  const r = RANKS.indexOf(code[0]);
  return edition === "classic" && code[0] === "A" ? 1 : r;
}
