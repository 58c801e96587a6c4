// The table options of RULES.md §10 and the rules' fixed judgment calls, as players read
// them: shared by the lobby (choosing) and the table page (looking them up mid-game).
import { esc } from "./api.js";
import { cardText } from "./cards.js";
import { t } from "./i18n.js";

// A bot's level in a word, for its seat name ("Bot 3 (easy)"); the server's level names
// (the words of meio.bots.levels) and the bot kinds behind them alike.
const LEVEL = { random: "beginner", heuristic: "easy", search: "strong", "search:2": "strong", expert: "expert", "search:4": "expert" };
export function botKind(kind) {
  const name = LEVEL[kind] ?? kind;
  switch (name) {
    case "beginner": return t("beginner");
    case "easy": return t("easy");
    case "strong": return t("strong");
    case "expert": return t("expert");
    default: return kind ?? "";
  }
}

// A level as a seat menu lists it: "easy bot".
export function botLabel(kind) { return t("{level} bot", { level: botKind(kind) }); }

// A seat's name as every page writes it: a person's name, or "Bot 3 (easy)".
export function seatName(s) {
  if (s.kind === "bot") return t("Bot {n} ({kind})", { n: s.seat + 1, kind: botKind(s.bot) });
  return s.name ?? t("seat {n}", { n: s.seat + 1 });
}

// One line on each option, shown next to it in the lobby and on the table.
export function optionHelp(name, value) {
  switch (`${name}=${value}`) {
    case "wild_lead=declare": return t("Leading a wild, you name the suit the others must follow.");
    case "wild_lead=next": return t("A led wild names no suit: the first ordinary card played sets it.");
    case "reveal_specials=true": return t("Everyone knows which special cards are in the deck.");
    case "reveal_specials=false": return t("Nobody is told which special cards are in the deck.");
    case "partnership=true": return t("Seats 1 and 3 play against seats 2 and 4; you play the second half with your partner's pack.");
    case "edition=meio": return t("The box edition: a deck with special cards, fewer ranks at smaller tables.");
    case "edition=classic": return t("The Portuguese rules with an ordinary deck, no special cards.");
    default: return "";
  }
}

// The options of a table (from the lobby's table, or a view's public config); ``known``:
// the specials a seat knows of when the table hides them.
export function tableRules(src, known = null) {
  const edition = src.edition ?? "meio";
  const wild = src.wild_lead ?? "declare";
  const reveal = src.reveal_specials ?? true;
  const specials = src.specials ?? null;
  const items = [];
  items.push([t("Edition"), edition === "meio" ? t("MEIO (with special cards)") : t("Classic (ordinary cards)"), optionHelp("edition", edition)]);
  items.push([t("Deck"), deckText(edition, src.players), ""]);
  items.push([t("Players"), String(src.players) + (src.partnership ? ` · ${t("partnership")}` : ""), src.partnership ? optionHelp("partnership", true) : ""]);
  if (src.players === 2) {
    items.push([t("Match"), edition === "classic" ? t("3 rounds; the lower total wins") : t("first to 2 round victories"), ""]);
  } else if (src.partnership) {
    items.push([t("Match"), t("first team to 2 round victories"), ""]);
  } else {
    items.push([t("Match"), t("3 rounds; the lowest total wins"), ""]);
  }
  if (edition === "meio") {
    let sp;
    if (!reveal) {
      sp = t("hidden: {n} special cards are in the deck", { n: src.players });
      // the ones this seat has held or seen played
      if (known && known.length) sp += " · " + t("seen so far: {cards}", { cards: known.map((c) => cardText(c)).join(" ") });
    }
    else if (specials && specials.length) sp = specials.map((c) => cardText(c)).join(" ");
    else sp = t("drawn at random for each match");
    items.push([t("Special cards"), sp, optionHelp("reveal_specials", reveal)]);
    items.push([t("Leading a wild"), wild === "next" ? t("the next card sets the suit") : t("the leader names the suit"), optionHelp("wild_lead", wild)]);
  }
  return items;
}

// The deck of an edition at a table of this size (RULES.md §2), 13 cards a player.
export function deckText(edition, players) {
  if (edition === "meio") {
    const low = { 2: "9", 3: "6", 4: "3", 5: "0" }[players] ?? "0";
    return t("{n} cards: ranks {low} to A in each suit and {s} special cards", { n: 13 * players, low, s: players });
  }
  const high = { 2: "7", 3: "10", 4: "K" }[players] ?? "K";
  const aside = { 2: 2, 3: 1 }[players] ?? 0;
  const n = { 2: 28, 3: 40, 4: 52 }[players] ?? 52;
  return aside ? t("{n} cards: A to {high} in each suit; {aside} set aside unseen", { n, high, aside })
    : t("{n} cards: A to {high} in each suit", { n, high });
}

// The fixed readings of the rules where the two rule books leave a point open.
export function clarifications() {
  return [
    t("A wild may be played on any trick, even when you hold the suit led."),
    t("With hearts led and −2♥ your only heart, you may play a wild instead."),
    t("Holding wilds but none of the suit led, you may play any card."),
    t("+½ leading a trick is worth ½."),
    t("The first leader is chosen at random; later, whoever scored most in the last round leads."),
    t("In partnership, a player of the team that scored more in the last round leads the next."),
    t("A tie for the lowest total is a shared victory."),
  ];
}

export function rulesHtml(src, known = null) {
  const rows = tableRules(src, known).map(([k, v, help]) =>
    `<div class="rule"><strong>${esc(k)}:</strong> ${esc(v)}${help ? `<div class="help">${esc(help)}</div>` : ""}</div>`).join("");
  return `<div class="rules-list">${rows}</div>` +
    `<h3 class="h4">${esc(t("Where the rule books are open"))}</h3><ul class="clar">${clarifications().map((c) => `<li>${esc(c)}</li>`).join("")}</ul>` +
    `<p class="help">${esc(t("Scoring: each round you score the difference between your H and V tricks; the lowest total wins."))}</p>`;
}
