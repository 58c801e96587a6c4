// The felt: a box for each seat around the trick in the middle, the trick's label under
// it, and the balance bar (where this seat stands). What is shown is decided by pure
// functions of the state (`trickShown`, `balanceOf`); the render functions draw it.
import { esc } from "../api.js";
import { cardEl, cardText, isWild, playedValue, SUIT_SYMBOL } from "../cards.js";
import { t } from "../i18n.js";
import { clock, nameOf, sizeOf, takesText, teamName } from "./text.js";

const $ = (id) => document.getElementById(id);

const POS = { 2: ["bottom", "top"], 3: ["bottom", "topleft", "topright"], 4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "topleft", "topright", "right"] };
const SPOT = { bottom: [50, 74], top: [50, 26], left: [18, 50], right: [82, 50], topleft: [31, 28], topright: [69, 28] };
// five cards on a narrow table: the side ones lower, the top ones apart, none on another
const SPOT5 = { bottom: [50, 78], left: [15, 64], right: [85, 64], topleft: [28, 21], topright: [72, 21] };

// Where a seat sits on the screen of `me` (at the bottom; a spectator sees seat 1 there).
export function posOf(seat, n, me) { const base = me ?? 0; return POS[n][(seat - base + n) % n]; }
const spotOf = (seat, n, me) => (n === 5 ? SPOT5 : SPOT)[posOf(seat, n, me)];

// The trick just before now: the last finished one of this round, else of the last round.
export function previousTrick(S, v) {
  const done = v.tricks.filter((tr) => tr.pile);
  if (done.length) return { ...done[done.length - 1], n: done.length, round: v.round };
  return S.lastTrick;
}

// The table as a round ended (under its summary): its piles, empty hands, no one to move.
export function endedRound(v, r, hand) {
  return { ...v, piles: r.piles, hand_sizes: v.hand_sizes.map(() => 0), phase: "play", to_move: -1,
    pending_pile: -1, current_trick: [], tricks: [], led_suit: null, round: r.round, trick_number: hand, half: 2 };
}

// What the middle of the table shows: `cards` ([seat, code] pairs), the ringed
// `winner`, the `label` under it, whether it is the trick under way (`live`), the last
// trick on request (`last`), or a finished trick held a moment (`sweeping` to its pile).
export function trickShown(S, v) {
  const prev = previousTrick(S, v);
  if (S.showLast && prev) return { cards: prev.cards, winner: prev.winner, label: `${t("Last trick")}: ${takesText(S, prev)}`, last: true };
  if (S.held) {
    const h = S.held.trick;
    return { cards: h.cards, winner: h.winner, label: takesText(S, h), sweeping: S.held.sweeping };
  }
  if (v.phase === "pile" && v.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1];
    const name = nameOf(S, tr.winner);
    const label = v.config.variant
      ? t("{name} won with {card} and chooses the pile", { name, card: cardText(tr.cards.find(([s]) => s === tr.winner)?.[1] ?? "") })
      : t("{name} won with +½ and chooses the pile", { name });
    return { cards: tr.cards, winner: tr.winner, label };
  }
  const cards = v.current_trick;
  let label = "";
  if (v.led_suit) label = t("led: {suit}", { suit: SUIT_SYMBOL[v.led_suit] });
  else if (cards.length && isWild(cards[0][1])) label = t("a wild was led: the next ordinary card sets the suit");
  return { cards, winner: null, label, live: true };
}

// Whose move a seat's box marks: every seat still to split, the +½ winner, the mover.
export function seatTurn(v, s) {
  if (v.is_over) return false;
  if (v.phase === "split") return !v.split_done[s];
  return v.phase === "pile" ? v.pending_pile === s : v.to_move === s;
}

// How many cards a seat holds, in its box: one card is singular ("1 carta", not "1 cartas")
export function cardsLeft(n) {
  return n === 1 ? t("1 card") : t("{n} cards", { n });
}

// A seat's box: its name, whose move it is (with the time left), the other hands as
// card backs that shrink as they play, and its two piles as small stacks, the pile of
// the half in play marked.
export function seatModel(S, v, s) {
  const me = S.seat;
  return {
    turn: seatTurn(v, s),
    backs: s === me || v.is_over ? 0 : v.hand_sizes[s],
    piles: [v.piles[s][0], v.piles[s][1]],
    // no half in play during the split, under a round's summary, once the match is over
    live: v.phase === "split" || v.is_over || S.summary ? 0 : v.half,
    cards: v.hand_sizes[s],
  };
}

function pileHtml(which, n, live) {
  const name = which === 1 ? "H" : "V";
  return `<span class="pile ${name.toLowerCase()}${live ? " live" : ""}" data-pile="${which}">` +
    `<span class="stack" aria-hidden="true">${"<i></i>".repeat(Math.min(n, 13))}</span>` +
    `<span class="pl">${name} ${n}${live ? `<span class="sr-only"> (${esc(t("in play"))})</span>` : ""}</span></span>`;
}

// The turn's time left in words ("12s", "3 min"); "" without a clock.
export function timeLeft(S, now = Date.now()) {
  if (!S.deadline || !S.view || S.view.is_over) return "";
  return clock(Math.max(0, Math.round(S.deadline - (now + S.skew) / 1000)));
}

export function renderBoard(S, v) {
  const board = $("board"), n = v.config.players, me = S.seat;
  board.querySelectorAll(".seatbox").forEach((e) => e.remove());
  for (let s = 0; s < n; s++) {
    const m = seatModel(S, v, s);
    const box = document.createElement("div");
    box.className = `seatbox seat-pos-${posOf(s, n, me)}`;
    box.dataset.seat = s;
    if (m.turn) box.classList.add("turn");
    const away = S.table?.seats[s]?.online ? "" : ` <span class="muted">${esc(t("(away)"))}</span>`;
    const team = v.config.partnership ? ` <span class="muted">${esc(teamName(s % 2))}</span>` : "";
    const you = s === me ? ` ${esc(t("(you)"))}` : "";
    const mover = m.turn && v.phase !== "split" ? `<span class="to-move" data-clock="1">${esc(timeLeft(S) || t("to play"))}</span>` : "";
    box.innerHTML = `<div class="name">${esc(nameOf(S, s))}${you}${team}${away}${mover}</div>` +
      (m.backs ? `<div class="backs" aria-hidden="true">${'<i class="back"></i>'.repeat(m.backs)}</div>` : "") +
      `<div class="piles" data-piles="${m.piles[0]},${m.piles[1]}">${pileHtml(1, m.piles[0], m.live === 1)}${pileHtml(2, m.piles[1], m.live === 2)}` +
      `<span class="cards-left">${esc(cardsLeft(m.cards))}</span></div>` +
      (v.phase === "split" ? `<div class="muted">${esc(v.split_done[s] ? t("pack chosen") : t("choosing pack…"))}</div>` : "");
    board.append(box);
  }
  renderTrick(S, v, board);
}

function renderTrick(S, v, board) {
  const n = v.config.players;
  const trick = $("trick");
  trick.innerHTML = "";
  trick.className = "trick";
  if (packing(S, v)) { renderPack(S, v, trick); renderWhere(S, v, ""); return; }
  const shown = trickShown(S, v);
  if (shown.last) trick.classList.add("last");
  const { cards } = shown;
  let before = null;
  for (const [seat, code] of cards) {
    const [x, y] = spotOf(seat, n, S.seat);
    const wrap = document.createElement("div");
    wrap.className = "played";
    if (shown.live && seat === S.newCard && cards[cards.length - 1][0] === seat) wrap.classList.add("new");
    if (seat === shown.winner) wrap.classList.add("winner");
    wrap.dataset.seat = seat;
    wrap.style.left = `${x}%`; wrap.style.top = `${y}%`;
    wrap.append(cardEl(code, { half: v.half, edition: v.config.edition, previous: before }));
    before = playedValue(code, v.half, v.config.edition, before);
    trick.append(wrap);
  }
  const seat = board.querySelector(`.seatbox[data-seat="${shown.winner}"]`);
  const sweepTo = shown.sweeping && seat ? seat.querySelector(`.pile[data-pile="${S.held.trick.pile}"] .stack`) ?? seat : null;
  if (sweepTo && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
    // slide the cards onto the winner's H or V pile
    const to = sweepTo.getBoundingClientRect();
    for (const w of trick.children) {
      const r = w.getBoundingClientRect();
      const dx = to.left + to.width / 2 - (r.left + r.width / 2), dy = to.top + to.height / 2 - (r.top + r.height / 2);
      w.classList.add("sweep");
      w.style.transform = "translate(-50%, -50%)";
      requestAnimationFrame(() => { w.style.transform = `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(.4)`; w.style.opacity = "0"; });
    }
  }
  renderWhere(S, v, shown.label);
}

// Whether this seat is choosing its pack: the middle of the table shows it being built
// (unless the player asked to see the last trick there).
export const packing = (S, v) => S.seat != null && v.phase === "split" && !v.split_done[S.seat] && !S.summary && !S.showLast;

// The pack being built: the cards chosen so far, then a dashed slot for each one to go.
function renderPack(S, v, trick) {
  trick.classList.add("packing");
  const k = sizeOf(S).pack;
  const row = document.createElement("div");
  row.className = "pack-build";
  row.append(Object.assign(document.createElement("div"), { className: "pack-title", textContent: t("Second-half pack: {n}/{k}", { n: S.selected.size, k }) }));
  const slots = document.createElement("div");
  slots.className = "slots";
  for (const code of S.selected) slots.append(cardEl(code, { half: 2, edition: v.config.edition, small: true }));
  for (let i = S.selected.size; i < k; i++) slots.append(Object.assign(document.createElement("span"), { className: "slot" }));
  row.append(slots);
  trick.append(row);
}

function renderWhere(S, v, label) {
  const lbl = $("trick-label");
  lbl.innerHTML = "";
  const where = document.createElement("span");
  where.className = "muted";
  where.textContent = t("trick {n} · half {half} · round {round}", { n: Math.min(v.trick_number, sizeOf(S).hand), half: v.half, round: v.round });
  lbl.append(where);
  if (label) {
    const l = document.createElement("strong");
    l.id = "takes"; l.textContent = label;
    lbl.append(" ", l);
  }
}

// Where this seat (or team) stands: H, V, tricks left in the half, and what it means;
// null when there is nothing to show (a spectator, the split, a round's summary).
export function balanceOf(S, v) {
  const me = S.seat;
  if (me == null || v.is_over || v.phase === "split" || S.summary) return null;
  const seats = v.config.partnership ? [me, (me + 2) % 4] : [me];
  const h = seats.reduce((a, s) => a + v.piles[s][0], 0), vv = seats.reduce((a, s) => a + v.piles[s][1], 0);
  const done = v.tricks.length, size = sizeOf(S);
  const left = v.half === 1 ? Math.max(0, size.first - done) : Math.max(0, size.hand - done);
  const d = h - vv;
  if (d === 0) return { h, v: vv, d, left, cls: "even", mark: t("balanced"), meaning: t("If the round ended now you would score 0.") };
  if (d > 0) return { h, v: vv, d, left, cls: "h", mark: t("H ahead by {n}", { n: d }), meaning: t("If the round ended now you would score {n}: win V tricks in the second half to even it.", { n: d }) };
  return { h, v: vv, d, left, cls: "v", mark: t("V ahead by {n}", { n: -d }), meaning: t("If the round ended now you would score {n}: you have more V than H tricks.", { n: -d }) };
}

export function renderBalance(S, v) {
  const box = $("balance");
  const b = balanceOf(S, v);
  if (!b) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.dataset.h = b.h; box.dataset.v = b.v; box.dataset.diff = b.d;
  box.innerHTML = `<span class="who">${esc(v.config.partnership ? t("Your team") : t("You"))}</span>` +
    `<span class="hv">H ${b.h} · V ${b.v}</span>` +
    `<span class="left">${esc(t("{n} tricks left in this half", { n: b.left }))}</span>` +
    `<span class="marker ${b.cls}" id="balance-marker">${esc(b.mark)}</span>` +
    `<span class="meaning">${esc(b.meaning)}</span>`;
}
