// Finished matches and a replay viewer that steps through the tricks of a record.
import { api, esc, myTokens, toast } from "./api.js";
import { cardEl, playedValue } from "./cards.js";
import { loadLang, t } from "./i18n.js";
import { botKind } from "./rules.js";

// the server names bots "Bot 3 (heuristic)": say it in the page's words
const local = (name) => {
  const m = /^Bot (\d+) \((.+)\)$/.exec(name ?? "");
  return m ? t("Bot {n} ({kind})", { n: m[1], kind: botKind(m[2]) }) : name;
};

const $ = (id) => document.getElementById(id);
let R = null; // { match, record, result, steps, at }

function steps(result) {
  const out = [];
  result.rounds.forEach((r, ri) => r.tricks.forEach((t, ti) => out.push({ ri, ti, t })));
  return out;
}

async function open(matchId) {
  try {
    const d = await api(`/api/matches/${encodeURIComponent(matchId)}/replay`);
    d.match.names = d.match.names.map(local);
    R = { ...d, steps: steps(d.result), at: 0 };
    $("viewer").classList.remove("hidden");
    $("v-title").textContent = t("Replay: {names}", { names: d.match.names.join(", ") });
    $("v-download").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
    draw();
  } catch (e) { toast(e.message); }
}

function draw() {
  const { steps: st, at, record, result, match } = R;
  const s = st[at];
  const round = result.rounds[s.ri];
  const names = match.names;
  const half = s.ti < 7 ? 1 : 2;
  $("v-where").textContent = t("round {r}, trick {n} of 13 ({at}/{all})", { r: s.ri + 1, n: s.ti + 1, at: at + 1, all: st.length });
  const box = $("v-trick"); box.innerHTML = "";
  let prev = null;
  s.t.cards.forEach((c, i) => {
    const seat = (s.t.leader + i) % record.players;
    const wrap = document.createElement("div");
    wrap.style.textAlign = "center";
    wrap.append(cardEl(c, { half, edition: record.edition, previous: prev }));
    wrap.append(Object.assign(document.createElement("div"), { textContent: names[seat] ?? t("seat {n}", { n: seat + 1 }) }));
    prev = playedValue(c, half, record.edition, prev);
    box.append(wrap);
  });
  // piles after this trick
  const piles = Array.from({ length: record.players }, () => [0, 0]);
  round.tricks.slice(0, s.ti + 1).forEach((t) => { piles[t.winner][t.pile - 1]++; });
  let info = `<p>${esc(t("{name} takes it → {pile}", { name: names[s.t.winner] ?? "", pile: s.t.pile === 1 ? "H" : "V" }))}</p>` +
    `<p>${piles.map((p, i) => `${esc(names[i] ?? "")}: H ${p[0]} · V ${p[1]}`).join(" — ")}</p>`;
  if (s.ti === round.tricks.length - 1 && round.scores) {
    info += `<p><strong>${esc(t("Round {n} scores:", { n: s.ri + 1 }))}</strong> ${round.scores.map((x, i) => `${esc(names[i] ?? "")} ${x}`).join(" · ")}</p>`;
  }
  if (at === st.length - 1) info += `<p><strong>${esc(t("Winners:"))}</strong> ${result.winners.map((w) => esc(names[w] ?? "")).join(", ")} — ${esc(t("totals"))} ${result.totals.join(" · ")}</p>`;
  $("v-info").innerHTML = info;
  $("v-prev").disabled = at === 0; $("v-next").disabled = at === st.length - 1;
}

function move(d) { if (!R) return; R.at = Math.max(0, Math.min(R.steps.length - 1, R.at + d)); draw(); }

async function main() {
  await loadLang();
  $("v-prev").onclick = () => move(-1);
  $("v-next").onclick = () => move(1);
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") move(-1); if (e.key === "ArrowRight") move(1); });
  try {
    const d = await api("/api/history", { method: "POST", body: { tokens: myTokens() } });
    for (const m of d.matches) m.names = m.names.map(local);
    $("list").innerHTML = d.matches.length ? d.matches.map((m) =>
      `<div class="row"><button type="button" data-match="${esc(m.id)}">${esc(t("Replay"))}</button>` +
      `<span>${new Date(m.finished_at * 1000).toLocaleString(document.documentElement.lang)} · ${esc(m.edition === "meio" ? "MEIO" : t("Classic"))} · ${esc(m.names.join(", "))} · ` +
      `${esc(t("winners:"))} ${m.result.winners.map((w) => esc(m.names[w] ?? w)).join(", ")}</span>` +
      `<a href="/api/matches/${esc(m.id)}/record" download>${esc(t("record"))}</a></div>`).join("") : esc(t("No finished match yet."));
    $("list").querySelectorAll("button[data-match]").forEach((b) => { b.onclick = () => open(b.dataset.match); });
  } catch (e) { toast(e.message); }
  if (location.hash.length > 1) open(location.hash.slice(1));
}
main();
