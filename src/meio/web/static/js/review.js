// The review beside the history's replay: each decision judged from its player's view
// (GET /api/matches/{id}/review). A graph of each seat's expected match total along the
// match (click a point to jump there), the flagged moves as a timeline of buttons, and
// for the step on show each decision with the better move. The quick pass shows first;
// the page asks again until the deep one is kept.
import { api, esc, refusalText } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"];
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
let S = null; // { matchId, data, jump, stepOf, names }

// A refusal of the review's or the puzzles' routes in the page's language.
export function learnRefusal(e) {
  const known = {
    review_busy: () => t("One review at a time: wait until the one you asked for is done."),
    not_reviewable: () => t("Reviews are for the MEIO and classic editions, not for variants."),
    no_puzzle: () => t("There is no such puzzle."),
    bad_move: () => t("That is not a move."),
    illegal_move: () => t("That move is not legal here."),
  }[e.code];
  return known ? known() : refusalText(e);
}

const flagName = (f) => ({ inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") })[f] ?? "";
const num = (x) => x.toLocaleString(document.documentElement.lang, { maximumFractionDigits: 2 });

// The replay step a decision belongs to: its round's split, or its trick.
function stepIndex(steps, d) {
  return steps.findIndex((s) => s.ri === d.round &&
    (d.trick === 0 ? s.kind === "split" : s.kind === "trick" && s.ti === d.trick - 1));
}

// Start (or resume) the review of a match in the replay `R`; `jump(i)` shows step i.
export async function reviewFor(matchId, R, jump) {
  S = { matchId, data: null, jump, R };
  const box = $("v-review");
  if (!box) return;
  box.innerHTML = `<p class="muted">${esc(t("Reviewing the match…"))}</p>`;
  for (let wait = 1000; S && S.matchId === matchId; wait = Math.min(wait * 1.5, 8000)) {
    let d;
    try { d = await api(`/api/matches/${encodeURIComponent(matchId)}/review`); } catch (e) {
      box.innerHTML = `<p class="muted">${esc(learnRefusal(e))}</p>`;
      return;
    }
    if (d.review) { S.data = d.review; S.status = d.status; drawReview(); }
    if (d.status === "failed") {
      box.insertAdjacentHTML("beforeend", `<p class="muted">${esc(t("The review could not be made."))}</p>`);
      return;
    }
    if (d.status === "deep") return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

function graph(data, R) {
  const pts = data.decisions.filter((d) => d.expected_total !== null);
  if (!pts.length) return "";
  const W = 600, H = 160, n = R.record.players;
  const max = Math.max(1, ...pts.map((d) => d.expected_total));
  const x = (d) => 8 + (584 * d.ply) / Math.max(1, data.decisions.at(-1).ply);
  const y = (v) => H - 8 - ((H - 16) * v) / max;
  let svg = `<svg class="review-graph" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("Expected match total of each player, move by move (lower is better)"))}">`;
  for (let seat = 0; seat < n; seat++) {
    const mine = pts.filter((d) => d.seat === seat);
    if (!mine.length) continue;
    svg += `<polyline fill="none" stroke="${COLORS[seat % 5]}" stroke-width="1.5" points="${mine.map((d) => `${x(d).toFixed(1)},${y(d.expected_total).toFixed(1)}`).join(" ")}"/>`;
    for (const d of mine) {
      const r = d.flag ? 5 : 2.5;
      svg += `<circle data-ply="${d.ply}" cx="${x(d).toFixed(1)}" cy="${y(d.expected_total).toFixed(1)}" r="${r}" fill="${d.flag ? "#000" : COLORS[seat % 5]}"><title>${esc(`${R.match.names[seat] ?? seat}: ${d.action} ${d.flag ? flagName(d.flag) : ""}`)}</title></circle>`;
    }
  }
  return svg + "</svg>";
}

function drawReview() {
  const box = $("v-review");
  if (!box || !S || !S.data) return;
  const { data, R } = S;
  const names = R.match.names;
  const acc = data.seats.filter((s) => s.accuracy !== null).map((s) =>
    `<span style="color:${COLORS[s.seat % 5]}">${esc(names[s.seat] ?? "")}: ${esc(t("accuracy {a}%", { a: num(s.accuracy) }))}</span>`).join(" · ");
  const flagged = data.decisions.filter((d) => d.flag);
  box.innerHTML = `<h3>${esc(t("Review"))} <small class="muted">${esc(S.status === "deep" ? t("deep pass") : t("quick pass; the deep one is under way"))}</small></h3>` +
    `<p>${acc}</p>${graph(data, R)}` +
    `<div class="row review-flags">${flagged.map((d) => `<button type="button" data-ply="${d.ply}" class="flag-${d.flag}">${esc(`${names[d.seat] ?? d.seat} ${d.action}${MARK[d.flag]}`)}</button>`).join("") || esc(t("No move flagged."))}</div>` +
    `<div id="v-review-step"></div>`;
  const go = (ply) => {
    const d = data.decisions.find((x) => x.ply === ply);
    const i = d ? stepIndex(R.steps, d) : -1;
    if (i >= 0) S.jump(i);
  };
  box.querySelectorAll("[data-ply]").forEach((el) => { el.addEventListener("click", () => go(Number(el.dataset.ply))); });
  reviewStep(R);
}

// The decisions of the step on show: what was played, what was better, and the cost.
export function reviewStep(R) {
  const box = $("v-review-step");
  if (!box || !S || !S.data || S.R !== R) return;
  const s = R.steps[R.at];
  const here = S.data.decisions.filter((d) => d.round === s.ri &&
    (s.kind === "split" ? d.trick === 0 : s.kind === "trick" && d.trick === s.ti + 1));
  const names = R.match.names;
  box.innerHTML = here.filter((d) => !d.forced).map((d) => {
    const who = esc(names[d.seat] ?? "");
    const line = d.action === d.best
      ? t("{who} played {move}: the best move found (expected {v})", { who: names[d.seat] ?? "", move: d.action, v: num(d.value) })
      : t("{who} played {move} (expected {v}); better: {best} ({b}); lost {loss} ± {margin} in {worlds} worlds", {
        who: names[d.seat] ?? "", move: d.action, v: num(d.value), best: d.best, b: num(d.best_value),
        loss: num(d.loss), margin: num(d.margin), worlds: d.worlds });
    return `<p class="${d.flag ? `flag-${d.flag}` : ""}">${d.flag ? `<strong>${esc(flagName(d.flag))}</strong> ` : ""}${esc(line).replace(esc(names[d.seat] ?? ""), who)}</p>`;
  }).join("");
  // the better move on the cards: mark the card that should have been played
  for (const d of here.filter((x) => x.flag && s.kind === "trick")) {
    const card = d.best.split("=")[0];
    const row = document.querySelector(`.v-hand[data-seat="${d.seat}"]`);
    const wraps = [...document.querySelectorAll("#v-trick .mini")];
    const mine = wraps.find((w) => w.textContent.includes(names[d.seat] ?? "\u0000"));
    if (mine) mine.dataset.review = MARK[d.flag];
    if (row) row.dataset.better = t("better: {move}", { move: card });
  }
}
