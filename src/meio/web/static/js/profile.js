// A player's public profile: ratings per kind of table and their history.
import { api, esc, refusalText, showAccount, toast } from "./api.js";
import { loadLang, t } from "./i18n.js";
import { poolName } from "./pools.js";

const $ = (id) => document.getElementById(id);
const when = (at) => new Date(at * 1000).toLocaleString(document.documentElement.lang);

async function main() {
  await loadLang();
  showAccount();
  const name = decodeURIComponent(location.pathname.split("/players/")[1] ?? "");
  try {
    const p = await api(`/api/players/${encodeURIComponent(name)}`);
    $("p-name").textContent = p.username;
    $("p-since").textContent = t("Playing since {date}", { date: when(p.since) });
    $("p-own").classList.toggle("hidden", !p.own);
    $("p-games").textContent = String(p.games);
    $("p-wins").textContent = String(p.wins);
    $("p-mean").textContent = p.mean_round_score == null ? "—" : p.mean_round_score.toFixed(2);
    $("p-balanced").textContent = p.balanced_share == null ? "—" : `${Math.round(p.balanced_share * 100)}%`;
    $("p-matches").innerHTML = p.matches.map((m) =>
      `<div class="row" data-match="${esc(m.id)}"><span>${esc(when(m.finished_at))} · ${esc(poolName(m.pool))} · ${esc(m.names.join(", "))} · ` +
      `${esc(m.won ? t("won") : t("lost"))} · ${esc(t("total {n}", { n: m.total }))}</span>` +
      `<a href="/history#${esc(m.id)}">${esc(t("Replay"))}</a></div>`).join("");
    $("p-no-match").classList.toggle("hidden", p.matches.length > 0);
    if (p.own) {
      const status = { waiting: t("waiting"), playing: t("playing"), finished: t("finished") };
      $("p-tables-box").classList.remove("hidden");
      $("p-tables").innerHTML = p.tables.map((tb) =>
        `<div class="row"><a href="/t/${esc(tb.id)}">${esc(t("seat {n}", { n: tb.seat + 1 }))}</a> <span class="muted">${esc(status[tb.status] ?? tb.status)}</span></div>`).join("")
        || esc(t("None yet."));
    }
    const pools = Object.entries(p.ratings);
    $("p-ratings").querySelector("tbody").innerHTML = pools.map(([pool, r]) =>
      `<tr data-pool="${esc(pool)}"><td><a href="/ratings?pool=${esc(pool)}">${esc(poolName(pool))}</a></td>` +
      `<td class="rating">${esc(r.rating)}</td><td>${r.games}</td></tr>`).join("");
    $("p-none").classList.toggle("hidden", pools.length > 0);
    $("p-history").querySelector("tbody").innerHTML = p.history.map((h) =>
      `<tr><td>${esc(when(h.at))}</td><td>${esc(poolName(h.pool))}</td><td>${h.rank}</td>` +
      `<td>${esc(h.before.shown)} → ${esc(h.after.shown)}</td>` +
      `<td><a href="/history#${esc(h.match)}">${esc(t("Replay"))}</a></td></tr>`).join("");
  } catch (e) {
    $("p-name").textContent = refusalText(e);
    toast(refusalText(e));
  }
}
main();
