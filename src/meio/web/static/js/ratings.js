// The leaderboard of a rating pool.
import { api, esc, refusalText, showAccount, toast } from "./api.js";
import { loadLang } from "./i18n.js";
import { poolName } from "./pools.js";

const $ = (id) => document.getElementById(id);

async function show(pool) {
  try {
    const d = await api(`/api/ratings/${encodeURIComponent(pool)}`);
    $("board").querySelector("tbody").innerHTML = d.players.map((p, i) =>
      `<tr><td>${i + 1}</td><td><a href="/players/${encodeURIComponent(p.username)}">${esc(p.username)}</a></td>` +
      `<td class="rating">${esc(p.rating)}</td><td>${p.games}</td></tr>`).join("");
    $("board-empty").classList.toggle("hidden", d.players.length > 0);
  } catch (e) { toast(refusalText(e)); }
}

async function main() {
  await loadLang();
  showAccount();
  const { pools } = await api("/api/ratings");
  const wanted = new URLSearchParams(location.search).get("pool");
  $("pool").innerHTML = pools.map((p) => `<option value="${esc(p)}">${esc(poolName(p))}</option>`).join("");
  $("pool").value = pools.includes(wanted) ? wanted : "meio-4p";
  $("pool").onchange = () => { history.replaceState(null, "", `?pool=${$("pool").value}`); show($("pool").value); };
  show($("pool").value);
}
main();
