// The table's words: names, what happened to a trick, why a move was refused, what the
// status line says, clocks and rating changes, all in the page's language. Pure
// functions of the state (`S`) and the view the server sent.
import { cardText, isSpecial, specialOf, SUIT_SYMBOL } from "../cards.js";
import { reasonTemplate, t } from "../i18n.js";
import { seatName, sizes } from "../rules.js";

export function nameOf(S, seat) {
  const s = S.table?.seats[seat];
  return s ? seatName(s) : t("seat {n}", { n: seat + 1 });
}
export const pileName = (p) => (p === 1 ? "H" : "V");
export const teamName = (i) => (i ? t("team B") : t("team A"));

// The hand and its halves at this table (a variant's, or 13 = 7 + 6).
export const sizeOf = (S) => sizes(S.view?.config ?? S.table);

// The engine's reason for refusing a move, in the page's language with cards drawn as
// here; the engine's English when the frame has no reason code this page knows.
export function reasonText(f, edition) {
  const template = reasonTemplate(f.reason_code);
  if (!template || !f.reason_params) return f.reason;
  const show = (name, value) => {
    if (name === "card") return cardText(String(value), edition);
    if (name === "cards" && Array.isArray(value)) return value.map((c) => cardText(String(c), edition)).join(" ");
    if (name === "suit") return SUIT_SYMBOL[value] ?? String(value);
    // the engine counts seats from 0, players from 1
    if (name === "seat" || name === "mover") return String(Number(value) + 1);
    if (name === "seats" && Array.isArray(value)) return value.map((x) => Number(x) + 1).join(", ");
    return Array.isArray(value) ? value.join(", ") : String(value);
  };
  const shown = Object.fromEntries(Object.entries(f.reason_params).map(([k, v]) => [k, show(k, v)]));
  return t(template, shown);
}

// What a rejection means, in the page's language.
export function rejectText(S, f) {
  const known = {
    stale: () => t("The table moved on: look again."),
    illegal: () => t("That move is not allowed: {reason}", { reason: reasonText(f, S.view?.config?.edition) }),
    forbidden: () => t("You cannot do that from this seat."),
    not_started: () => t("The match has not started yet."),
    not_over: () => t("A rematch starts once the match is over."),
    closed: () => t("This table is closed: start a new one in the lobby."),
    rate_limited: () => t("Slow down: a few messages at a time."),
    too_long: () => t("A chat message is at most 200 characters."),
    busy: () => t("Still working on your last request: a moment, please."),
    bad_message: () => t("The server did not understand that message."),
    no_message: () => t("That message is not in this match's chat any more."),
    internal: () => t("Something went wrong on the server; try again."),
  }[f.code];
  return known ? known() : t("Refused: {reason}", { reason: f.reason });
}

// The advisor's figures in the page's language (its own explanation is English).
export function hintText(h, lang = document.documentElement.lang) {
  const num = (x) => Number(x).toLocaleString(lang, { maximumFractionDigits: 1 });
  const best = h.candidates?.[0];
  const parts = [];
  if (best) {
    const low = Math.max(0, best.ci95[0]), high = Math.max(low, best.ci95[1]);
    parts.push(num(low) === num(high)
      ? t("Expected score with the highlighted pack: {mean}; lower is better.", { mean: num(best.mean) })
      : t("Expected score with the highlighted pack: {mean} (likely between {low} and {high}); lower is better.", { mean: num(Math.max(0, best.mean)), low: num(low), high: num(high) }));
  }
  if (h.chosen) parts.push(t("With your pack: {mean}.", { mean: num(h.chosen.mean) }));
  return parts.join(" ");
}

// Who took a trick and where it went; your own tricks in the second person.
export function takesText(S, tr) {
  const win = tr.cards.find(([s]) => s === tr.winner)?.[1];
  const pile = pileName(tr.pile), name = nameOf(S, tr.winner);
  const mine = tr.winner === S.seat;
  if (S.view?.config.variant) {
    // a variant's specials move tricks as their attributes say, whatever their codes
    const eff = win && isSpecial(win) ? specialOf(win)?.pile : "none", card = win ? cardText(win) : "";
    if (eff === "winner_chooses") return mine ? t("You won with {card} and chose {pile}", { card, pile }) : t("{name} won with {card} and chose {pile}", { name, card, pile });
    if (eff === "other_half") return mine ? t("You take it → {pile} ({card} sends it to the other half)", { card, pile }) : t("{name} takes it → {pile} ({card} sends it to the other half)", { name, card, pile });
    return mine ? t("You take it → {pile}", { pile }) : t("{name} takes it → {pile}", { name, pile });
  }
  if (mine) {
    if (win === "+.5") return t("You won with +½ and chose {pile}", { pile });
    if (win === "Q+") return t("You take it → {pile} (Q+ sends it to the other half)", { pile });
    return t("You take it → {pile}", { pile });
  }
  if (win === "+.5") return t("{name} won with +½ and chose {pile}", { name, pile });
  if (win === "Q+") return t("{name} takes it → {pile} (Q+ sends it to the other half)", { name, pile });
  return t("{name} takes it → {pile}", { name, pile });
}

// The status line over the table: whose turn it is and what they do.
export function statusText(S, v) {
  const me = S.seat;
  if (v.is_over) return t("The match is over.");
  if (S.summary) return t("Round {n} is over.", { n: S.summary.round });
  if (v.phase === "split") {
    const k = sizeOf(S).pack;
    // a spectator chooses nothing: they watch the players choose
    if (me == null) return t("The players are choosing their packs…");
    if (!v.split_done[me]) return k === 6 ? t("Choose your 6-card second-half pack.") : t("Choose your {k}-card second-half pack.", { k });
    return t("Waiting for the others to choose their packs…");
  }
  if (v.phase === "pile") {
    if (v.pending_pile === me) return v.config.variant ? t("Choose the pile for the trick you won.") : t("Choose the pile for the trick you won with +½.");
    return t("{name} chooses a pile…", { name: nameOf(S, v.pending_pile) });
  }
  if (v.to_move === me) return v.current_trick.length ? t("Your turn: follow.") : t("Your turn: lead.");
  return t("{name} to play…", { name: nameOf(S, v.to_move) });
}

// Seconds as a turn-based clock says them: hours and minutes when there are many.
export function clock(left) {
  if (left >= 3600) return t("{h} h {m} min", { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  if (left >= 120) return t("{m} min", { m: Math.floor(left / 60) });
  return `${left}s`;
}

// A rating's change as the match-over note shows it: +1.2, −0.4, and 0.0 for a change
// that rounds to nothing (never "−0.0").
export function ratingChange(d) {
  const shown = Math.abs(d).toFixed(1);
  if (Number(shown) === 0) return "0.0";
  return `${d > 0 ? "+" : "−"}${shown}`;
}
