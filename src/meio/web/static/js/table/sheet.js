// The record of the play: the score sheet, the log (one line a trick, as a card table
// reads it), a round's summary over the table and the match's end (rematch, ratings,
// the record). `ui.render()` redraws, `ui.send(frame)` asks the server.
import { api, esc } from "../api.js";
import { cardEl, cardText, playedValue, SUIT_SYMBOL } from "../cards.js";
import { t } from "../i18n.js";
import { nextId } from "./net.js";
import { nameOf, ratingChange, sizeOf, takesText, teamName } from "./text.js";

const $ = (id) => document.getElementById(id);

// A seat's name for a narrow column: a bot's level on a line of its own, so that a
// wrap never leaves "(expert" on one line and ")" on the next.
function nameHtml(S, seat) {
  return esc(nameOf(S, seat)).replace(/\s*\(([^()]*)\)$/, (m, level) => ` <span class="lvl">${level}</span>`);
}

export function sheetTable(S, v, { final = false } = {}) {
  const n = v.config.players, part = v.config.partnership;
  const head = `<tr><th>${esc(t("round"))}</th>${Array.from({ length: n }, (_, s) => `<th>${nameHtml(S, s)}</th>`).join("")}` +
    `${part ? `<th>${esc(t("teams"))}</th>` : ""}${v.victories ? `<th>${esc(t("victory"))}</th>` : ""}</tr>`;
  const rows = v.rounds.map((r, i) => {
    const vic = v.victories ? `<td>${r.victory == null ? "" : esc(part ? teamName(r.victory) : nameOf(S, r.victory))}</td>` : "";
    return `<tr><td>${i + 1}</td>${r.scores.map((x, s) => `<td title="H ${r.piles[s][0]} · V ${r.piles[s][1]}">${part ? `<span class="muted">${x}</span>` : x}</td>`).join("")}` +
      `${r.team_scores ? `<td>${r.team_scores.join(" : ")}</td>` : ""}${vic}</tr>`;
  }).join("");
  const win = new Set(v.winners);
  const tot = part ? "" : `<tr class="totals"><th>${esc(t("total"))}</th>${v.totals.map((x, s) => `<th class="${final && win.has(s) ? "win" : ""}">${x}</th>`).join("")}${v.victories ? "<td></td>" : ""}</tr>`;
  const vic = v.victories ? `<p class="victories">${esc(t("Victories"))}: ${v.victories.map((x, i) => `${esc(part ? teamName(i) : nameOf(S, i))} ${x}`).join(" · ")}</p>` : "";
  return `<table class="sheet">${head}${rows}${tot}</table>${vic}`;
}

export function renderSheet(S, v) { $("sheet").innerHTML = sheetTable(S, v); }

// One trick as the log writes it: its number, who played what, who took it.
export function trickLine(S, tr, edition) {
  const plays = tr.cards.map(([s, c]) => `${nameOf(S, s)} ${cardText(c, edition)}`).join(" · ");
  const declared = tr.declared ? ` (${t("suit named: {suit}", { suit: SUIT_SYMBOL[tr.declared] })})` : "";
  return { head: t("Trick {n}", { n: tr.n }), body: plays + declared, end: tr.pile ? takesText(S, tr) : "" };
}

// The log's lines: [class, [[class, text], ...]] for each entry, then the trick under way.
export function logLines(S, v) {
  const lines = [];
  const me = S.seat;
  let round = null;
  for (const e of S.log.slice(-160)) {
    if (e.k === "trick") {
      if (e.round !== round) { round = e.round; lines.push(["log-round", [["", t("Round {n}", { n: e.round })]]]); }
      const l = trickLine(S, e, v.config.edition);
      lines.push(["log-trick", [["n", l.head], ["plays", l.body], ["takes", l.end]]]);
    } else if (e.k === "pack") {
      lines.push(["log-note", [["", e.seat === me ? t("You chose a pack") : t("{name} chose a pack", { name: nameOf(S, e.seat) })]]]);
    } else if (e.k === "timeout") {
      lines.push(["log-note", [["", e.seat === me ? t("time ran out: a bot played for you") : t("time ran out: a bot played for {name}", { name: nameOf(S, e.seat) })]]]);
    } else if (e.k === "round") {
      const scores = e.scores.map((x, s) => `${nameOf(S, s)} ${x}`).join(" · ");
      lines.push(["log-end", [["", t("Round {n} over: {scores}", { n: e.round, scores })]]]);
    } else if (e.k === "match") lines.push(["log-end", [["", t("Match {n} begins", { n: e.number })]]]);
  }
  if (v.current_trick.length) {
    const l = trickLine(S, { cards: v.current_trick, n: v.tricks.length + 1, declared: null }, v.config.edition);
    lines.push(["log-trick live", [["n", l.head], ["plays", l.body + " …"]]]);
  }
  return lines;
}

export function renderLog(S, v) {
  const log = $("log");
  log.innerHTML = "";
  for (const [cls, parts] of logLines(S, v)) {
    const div = document.createElement("div");
    div.className = cls;
    for (const [c, text] of parts) if (text) div.append(Object.assign(document.createElement("span"), { className: c, textContent: text }));
    log.append(div);
  }
  log.scrollTop = log.scrollHeight;
}

// A rematch starts once every seated person has asked: who asked, who is awaited.
export function askedRematch(S) {
  return S.rematch?.match === S.match && S.rematch.asked.includes(S.seat);
}

function rematchNote(S) {
  const r = S.rematch;
  if (!r || r.match !== S.match) return "";
  const names = (seats) => seats.map((s) => nameOf(S, s)).join(t(" and "));
  const text = askedRematch(S)
    ? t("Waiting for {names} to agree to a rematch.", { names: names(r.waiting) })
    : t("{names} asked for a rematch: press Rematch to play again.", { names: names(r.asked) });
  return `<p class="rematch-note" role="status">${esc(text)}</p>`;
}

// A rated match's end: each rated seat's new rating (? while provisional) and its change,
// fetched once the server has stored the update.
function ratingsNote(S, ui) {
  if (!S.table?.rated || !S.match) return "";
  if (S.ratingsFor !== S.match) { S.ratingsFor = S.match; loadRatings(S, ui, S.match, 0); }
  const r = S.ratings?.match === S.match ? S.ratings.changes : null;
  if (!r) return `<p id="ratings" class="muted">${esc(t("Ratings: being updated…"))}</p>`;
  const items = r.map((c) => t("{name} {rating} ({change})", { name: nameOf(S, c.seat), rating: c.after.shown,
    change: ratingChange(c.after.ordinal - c.before.ordinal) }));
  return `<p id="ratings" data-ready="1">${esc(t("Ratings: {list}", { list: items.join(", ") }))}</p>`;
}

async function loadRatings(S, ui, match, tries) {
  try {
    const r = await api(`/api/matches/${encodeURIComponent(match)}/ratings`);
    if (r.pending && tries < 20) { setTimeout(() => loadRatings(S, ui, match, tries + 1), 500); return; }
    S.ratings = { match, changes: r.changes };
    ui.render();
  } catch { if (tries < 5) setTimeout(() => loadRatings(S, ui, match, tries + 1), 2000); }
}

// A finished trick's cards in a row, the winner's ringed and each with its player.
function trickCards(S, tr, v) {
  const row = document.createElement("div");
  row.className = "row trick-row";
  let before = null;
  const half = tr.n > sizeOf(S).first ? 2 : 1;
  for (const [s, c] of tr.cards) {
    const w = document.createElement("div");
    w.className = "mini" + (s === tr.winner ? " winner" : "");
    w.append(cardEl(c, { half, edition: v.config.edition, previous: before, small: true }));
    w.append(Object.assign(document.createElement("div"), { className: "who", textContent: nameOf(S, s) }));
    before = playedValue(c, half, v.config.edition, before);
    row.append(w);
  }
  return row.outerHTML;
}

export function closeSummary(S, ui) { S.summary = null; ui.render(); }

// Seconds left before a round's summary closes by itself.
export const summaryLeft = (S, now = Date.now()) => Math.max(0, Math.ceil((S.summary.until - now) / 1000));

export function renderSummary(S, v, ui) {
  const box = $("summary");
  const me = S.seat;
  if (v.is_over) {
    const winners = v.winners.map((s) => nameOf(S, s)).join(t(" and "));
    box.classList.remove("hidden");
    box.className = "panel summary over";
    box.removeAttribute("role"); box.setAttribute("aria-labelledby", "match-over");
    const last = S.lastTrick ? `<div class="sum-trick"><h3>${esc(t("Last trick"))}</h3>${trickCards(S, S.lastTrick, v)}<p>${esc(takesText(S, S.lastTrick))}</p></div>` : "";
    box.innerHTML = `<h2 id="match-over">${esc(v.winners.length > 1 ? t("Match over — {names} win!", { names: winners }) : t("Match over — {names} wins!", { names: winners }))}</h2>` +
      `<div class="sum-grid"><div>${sheetTable(S, v, { final: true })}</div>${last}</div>` +
      rematchNote(S) + ratingsNote(S, ui) +
      `<div class="row">${me != null ? `<button class="primary" id="rematch" type="button"${askedRematch(S) ? " disabled" : ""}>${esc(t("Rematch"))}</button>` : ""}` +
      `<a id="download" href="/api/matches/${esc(S.match)}/record" download>${esc(t("Download the record"))}</a>` +
      `<a href="/history#${esc(S.match)}">${esc(t("Replay"))}</a></div>`;
    const b = $("rematch"); if (b) b.onclick = () => ui.send({ type: "rematch", id: nextId(S, "rm") });
    return;
  }
  box.className = "panel summary";
  box.setAttribute("role", "dialog"); box.setAttribute("aria-labelledby", "round-over");
  if (!S.summary) { box.classList.add("hidden"); return; }
  const r = S.summary, part = v.config.partnership;
  const rows = r.piles.map((p, s) => `<tr><td>${nameHtml(S, s)}${part ? ` <span class="muted">${esc(teamName(s % 2))}</span>` : ""}</td><td>${p[0]}</td><td>${p[1]}</td><td>${part ? "" : r.scores[s]}</td></tr>`).join("");
  const teams = r.team_scores ? r.team_scores.map((x, i) => `<tr class="team"><td>${esc(teamName(i))}</td><td>${r.piles.filter((_, s) => s % 2 === i).reduce((a, p) => a + p[0], 0)}</td><td>${r.piles.filter((_, s) => s % 2 === i).reduce((a, p) => a + p[1], 0)}</td><td>${x}</td></tr>`).join("") : "";
  const vic = r.victory != null ? `<p class="victory">${esc(t("Round victory: {name}", { name: part ? teamName(r.victory) : nameOf(S, r.victory) }))}</p>` : "";
  box.classList.remove("hidden");
  box.innerHTML = `<h2 id="round-over">${esc(t("Round {n} over", { n: r.round }))}</h2>` +
    `<div class="sum-grid"><table class="sheet"><tr><th>${esc(t("player"))}</th><th>H</th><th>V</th><th>${esc(t("score"))}</th></tr>${rows}${teams}</table>` +
    (r.trick ? `<div class="sum-trick"><h3>${esc(t("Last trick"))}</h3>${trickCards(S, r.trick, v)}<p>${esc(takesText(S, r.trick))}</p></div>` : "") + `</div>${vic}` +
    `<div class="row"><button type="button" class="primary" id="summary-close">${esc(t("Next round"))}</button>` +
    `<span class="muted" id="summary-wait">${esc(t("The next deal in {s} s", { s: summaryLeft(S) }))}</span></div>`;
  $("summary-close").onclick = () => closeSummary(S, ui);
  // the hand under the summary is gone: a keyboard player lands on its button
  if (!document.activeElement || document.activeElement === document.body) $("summary-close").focus({ preventScroll: true });
}
