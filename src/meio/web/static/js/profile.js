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
