// The Watch page: listed matches being played, each opened with its spectator link
// (a spectator's page sees public information only, as any spectator link).
import { api, esc, refusalText, showAccount, toast } from "./api.js";
import { loadLang, t } from "./i18n.js";
import { seatName } from "./rules.js";

const $ = (id) => document.getElementById(id);

function line(tb) {
  const parts = [tb.edition === "meio" ? "MEIO" : t("Classic"), t("{n} players", { n: tb.players })];
  if (tb.variant) parts.push(t("variant {name}", { name: tb.variant.name }));
  if (tb.partnership) parts.push(t("partnership"));
  if (tb.rated) parts.push(t("rated"));
  if (tb.turn_based) parts.push(t("turn-based"));
  return parts.join(" · ");
}

async function load() {
  try {
    const { tables } = await api("/api/live");
    $("live").innerHTML = tables.length ? tables.map((tb) =>
      `<div class="row"><span>${esc(line(tb))} · ${tb.seats.map((s) => esc(seatName(s))).join(", ")}</span>` +
      `<a href="${esc(tb.spectate_url)}">${esc(t("watch"))}</a></div>`).join("")
      : esc(t("No match is being played at a listed table now: start one in the lobby."));
  } catch (e) { toast(refusalText(e)); }
}

await loadLang();
showAccount();
await load();
setInterval(load, 15000);
