// Card codes (the record's: QS, TH, 0C, -1, A+, -2H, +.5, Q+) drawn as buttons, and
// written as a player reads them (10♥, +½): a page never shows a raw code.
import { t } from "./i18n.js";

export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SPECIAL_NAME = { "-1": "−1/A+", "A+": "A+/−1", "-2H": "−2♥", "+.5": "+½", "Q+": "Q+" };
export const SPECIALS = Object.keys(SPECIAL_NAME);
export const WILDS = ["-1", "A+", "+.5", "Q+"];

export function isSpecial(code) { return SPECIALS.includes(code); }
export function isWild(code) { return WILDS.includes(code); }

export function suitOf(code) {
  if (code === "-2H") return "H";
  if (isSpecial(code)) return null;
  return code.slice(-1);
}

// The value a special card has now: -1/A+ swap at the half, +.5 follows the card before.
export function specialValue(code, half, previous) {
  switch (code) {
    case "-1": return half === 1 ? "−1" : "15";
    case "A+": return half === 1 ? "15" : "−1";
    case "-2H": return "−2";
    case "Q+": return "12½";
    case "+.5": return previous == null ? "½" : halves(previous + 0.5);
    default: return null;
  }
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
    if (code === "-2H") el.classList.add("red");
    const value = specialValue(code, half, previous);
    el.innerHTML = `<span class="rank" aria-hidden="true">${SPECIAL_NAME[code].replace("/", "<br><small>/")}</span>` +
      `<span class="value" aria-hidden="true">${value}</span>`;
    el.querySelector(".rank").style.fontSize = "calc(var(--card-w) * .26)";
    name = t("special card {card}, value {value}", { card: SPECIAL_NAME[code], value });
  } else {
    const r = rankLabel(code.slice(0, -1), edition);
    if (suit === "H" || suit === "D") el.classList.add("red");
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

// A card as a player writes it: 10♥, Q♠, −2♥, +½.
export function cardText(code, edition = "meio") {
  if (isSpecial(code)) return SPECIAL_NAME[code];
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
    const v = { "-1": half === 1 ? -1 : 15, "A+": half === 1 ? 15 : -1, "-2H": -2, "Q+": 12.5 }[code];
    return code === "+.5" ? (previous == null ? 0.5 : previous + 0.5) : v;
  }
  const r = RANKS.indexOf(code[0]);
  return edition === "classic" && code[0] === "A" ? 1 : r;
}
