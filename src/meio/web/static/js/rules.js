// The table options of RULES.md §10 and the rules' fixed judgment calls, as players read
// them: shared by the lobby (choosing) and the table page (looking them up mid-game).
import { esc } from "./api.js";
import { cardText, halves, specialOf, SUIT_SYMBOL, suitName } from "./cards.js";
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

// A table's hand and its two halves: a variant's own (a view's config carries the whole
// variant, a table frame its sizes), else the editions' 13 = 7 + 6.
export function sizes(src) {
  const v = src?.variant;
  if (!v) return { hand: 13, first: 7, pack: 6 };
  if (v.hand && typeof v.hand === "object") return { hand: v.hand.size, first: v.hand.first_half, pack: v.hand.pack };
  return { hand: v.hand, first: v.first_half, pack: v.pack };
}

// A special card by its attributes, in words: its value in each half, its suit, where a
// trick it wins goes.
export function specialText(code) {
  const s = specialOf(code);
  if (!s) return "";
  const num = (x) => (x === "above" ? t("½ above the card played before it") : halves(x));
  const parts = [];
  if (Array.isArray(s.value) && s.value[0] !== s.value[1]) parts.push(t("worth {one} in the first half, {two} in the second", { one: num(s.value[0]), two: num(s.value[1]) }));
  else parts.push(t("worth {value}", { value: num(Array.isArray(s.value) ? s.value[0] : s.value) }));
  if (s.suit === "wild") parts.push(t("wild: follows any suit"));
  else if (s.follows === false) parts.push(t("a {suit} card that may be played on any trick", { suit: suitName(s.suit) }));
  else parts.push(t("a {suit} card that follows suit", { suit: suitName(s.suit) }));
  if (s.pile === "winner_chooses") parts.push(t("its winner chooses the pile"));
  else if (s.pile === "other_half") parts.push(t("a trick it wins goes to the other half's pile"));
  return parts.join("; ");
}

// the names the box's specials have in a variant's JSON (docs/variants.md presets)
const BOX_NAMES = ["-1/A+", "A+/-1", "-2 hearts", "+0.5", "Q+"];

// How a variant's match ends (its entry for this table, else its default).
function formatText(fmt) {
  if (fmt.form === "victories") return t("first to {n} round victories", { n: fmt.to_win });
  return fmt.shared ? t("{n} rounds; the lowest total wins (a tie is shared)", { n: fmt.rounds })
    : t("{n} rounds; the lowest total wins (a tie: more rounds until it breaks)", { n: fmt.rounds });
}

function scoringText(sc) {
  if (sc.form === "squared") return t("the square of the difference between your H and V tricks");
  if (sc.form === "balance_bonus") return t("the difference between your H and V tricks, and −{n} for a perfect balance", { n: sc.bonus });
  return t("the difference between your H and V tricks");
}

function leaderText(rule) {
  if (rule === "last_trick") return t("the winner of the last trick of the round before");
  if (rule === "rotate") return t("the seat after the last round's leader");
  return t("whoever scored most in the last round");
}

// The rules of a variant table: what the variant sets, then the specials it has.
function variantRules(src, known) {
  const v = src.variant, items = [];
  const sz = sizes(src);
  items.push([t("Variant"), v.name, t("A variant table is not rated: the ratings are for the standard editions.")]);
  items.push([t("Players"), String(src.players) + (src.partnership ? ` · ${t("partnership")}` : ""), src.partnership ? optionHelp("partnership", true) : ""]);
  items.push([t("Hand"), t("{hand} cards: {first} for the first half, a pack of {pack} for the second", sz), ""]);
  if (!v.deck) return items;  // a table frame's facts only: a seat's view has the rest
  const deck = v.deck[String(src.players)];
  if (deck) items.push([t("Deck"), t("ranks {ranks} in each suit and {s} special cards", { ranks: [...deck.ranks].map((r) => (r === "T" ? "10" : r)).join(" "), s: deck.specials }), ""]);
  items.push([t("Trump"), v.trump === "none" ? t("no trump: only the suit led wins") : `${SUIT_SYMBOL[v.trump]} ${suitName(v.trump)}`, ""]);
  const fmt = (src.partnership ? v.match.partnership : v.match[String(src.players)]) ?? v.match.default;
  items.push([t("Match"), formatText(fmt), ""]);
  items.push([t("Scoring"), scoringText(v.scoring), t("Lower is better.")]);
  items.push([t("Next round's leader"), leaderText(v.leader), ""]);
  const reveal = src.reveal_specials ?? true;
  const inDeck = reveal && src.specials?.length ? new Set(src.specials) : null;
  for (const sp of v.special) {
    // an invented card's own name (a box card's is its drawing already)
    const name = sp.name && !BOX_NAMES.includes(sp.name) && sp.name !== sp.code ? ` (${sp.name})` : "";
    const where = inDeck ? (inDeck.has(sp.code) ? ` · ${t("in this match")}` : ` · ${t("not in this match")}`) : "";
    items.push([t("Special card {card}", { card: cardText(sp.code) }), specialText(sp.code) + name + where, ""]);
  }
  if (!reveal) {
    let sp = t("hidden: {n} special cards are in the deck", { n: deck ? deck.specials : "?" });
    if (known && known.length) sp += " · " + t("seen so far: {cards}", { cards: known.map((c) => cardText(c)).join(" ") });
    items.push([t("Special cards"), sp, optionHelp("reveal_specials", false)]);
  }
  // the wild-lead option matters only where there is a wild
  if (v.special.some((sp) => sp.suit === "wild")) {
    const wild = src.wild_lead ?? "declare";
    items.push([t("Leading a wild"), wild === "next" ? t("the next card sets the suit") : t("the leader names the suit"), optionHelp("wild_lead", wild)]);
  }
  return items;
}

// The options of a table (from the lobby's table, or a view's public config); ``known``:
// the specials a seat knows of when the table hides them.
export function tableRules(src, known = null) {
  if (src.variant) return variantRules(src, known);
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
  // a variant's own rules are all above: the rule books' readings are the editions'
  if (src.variant) return `<div class="rules-list">${rows}</div>`;
  return `<div class="rules-list">${rows}</div>` +
    `<h3 class="h4">${esc(t("Where the rule books are open"))}</h3><ul class="clar">${clarifications().map((c) => `<li>${esc(c)}</li>`).join("")}</ul>` +
    `<p class="help">${esc(t("Scoring: each round you score the difference between your H and V tricks; the lowest total wins."))}</p>`;
}
