// Finished matches and a replay viewer that steps through a record: each round's deal,
// its split and its tricks, with every seat's cards (a finished match hides nothing).
import { api, esc, myTokens, refusalText, showAccount, toast } from "./api.js";
import { cardEl, playedValue, setVariant, sortCards } from "./cards.js";
import { loadLang, t } from "./i18n.js";
import { botKind, sizes } from "./rules.js";
import { reviewFor, reviewStep } from "./review.js";

// the server names bots "Bot 3 (heuristic)": say it in the page's words
const local = (name) => {
  const m = /^Bot (\d+) \((.+)\)$/.exec(name ?? "");
  return m ? t("Bot {n} ({kind})", { n: m[1], kind: botKind(m[2]) }) : name;
};

const $ = (id) => document.getElementById(id);
let R = null; // { match, record, result, steps, at }

// Each round: the deal, the split, then its tricks one by one.
function steps(result) {
  const out = [];
  result.rounds.forEach((r, ri) => {
    out.push({ kind: "deal", ri }, { kind: "split", ri });
    r.tricks.forEach((t, ti) => out.push({ kind: "trick", ri, ti, t }));
  });
  return out;
}

async function open(matchId) {
  try {
    const d = await api(`/api/matches/${encodeURIComponent(matchId)}/replay`);
    d.match.names = d.match.names.map(local);
    R = { ...d, steps: steps(d.result), at: 0, size: sizes(d.record) };
    // a variant's record: its specials' values, and its hand and halves
    setVariant(d.record.variant ?? null);
    $("viewer").classList.remove("hidden");
    $("v-title").textContent = t("Replay: {names}", { names: d.match.names.join(", ") });
    $("v-download").href = `/api/matches/${encodeURIComponent(matchId)}/record`;
    draw();
    reviewFor(matchId, R, (i) => { R.at = i; draw(); });
  } catch (e) { toast(refusalText(e)); }
}

// The cards each seat holds at a step: all 13 at the deal and the split (the pack
// marked), then the cards of the half still in hand after the trick shown.
function handsAt(s) {
  const { record, result } = R;
  const rec = record.rounds[s.ri], n = record.players;
  const partner = (seat) => (record.partnership ? (seat + 2) % 4 : seat);
  const played = Array.from({ length: n }, () => new Set());
  if (s.kind === "trick") {
    const first = s.ti < R.size.first ? 0 : R.size.first;
    result.rounds[s.ri].tricks.slice(first, s.ti + 1).forEach((tr) =>
      tr.cards.forEach((c, i) => played[(tr.leader + i) % n].add(c)));
  }
  return Array.from({ length: n }, (_, seat) => {
    const dealt = rec.hands[seat], pack = new Set(rec.splits[seat] ?? []);
    if (s.kind === "deal") return { cards: dealt, pack: new Set() };
    if (s.kind === "split") return { cards: dealt, pack };
    // the second half is played with the pack set aside (in partnership: the partner's)
    const half = s.ti < R.size.first ? dealt.filter((c) => !pack.has(c)) : rec.splits[partner(seat)] ?? [];
    return { cards: half.filter((c) => !played[seat].has(c)), pack: new Set() };
  });
}

function drawHands(s, half) {
  const box = $("v-hands"); box.innerHTML = "";
  const { record, match } = R;
  handsAt(s).forEach(({ cards, pack }, seat) => {
    const row = document.createElement("div");
    row.className = "row v-hand";
    row.dataset.seat = String(seat);
    row.append(Object.assign(document.createElement("span"), { className: "who", textContent: match.names[seat] ?? t("seat {n}", { n: seat + 1 }) }));
    const hand = document.createElement("div");
    hand.className = "hand small-hand";
    for (const c of sortCards(cards, record.edition)) {
      const el = cardEl(c, { half, edition: record.edition, small: true });
      if (pack.has(c)) el.classList.add("packed");
      hand.append(el);
    }
    if (!cards.length) hand.append(Object.assign(document.createElement("span"), { className: "muted", textContent: t("no cards left in this half") }));
    row.append(hand);
    box.append(row);
  });
}

function draw() {
  const { steps: st, at, record, result, match } = R;
  const s = st[at];
  const round = result.rounds[s.ri];
  const names = match.names;
  const box = $("v-trick"); box.innerHTML = "";
  const place = { r: s.ri + 1, at: at + 1, all: st.length };
  let info = "";
  if (s.kind === "deal") {
    $("v-where").textContent = t("round {r}: the deal ({at}/{all})", place);
    const name = names[record.rounds[s.ri].leader] ?? "";
    info = `<p>${esc(record.variant ? t("Each seat is dealt {hand} cards; {name} leads the first trick.", { hand: R.size.hand, name })
      : t("Each seat is dealt 13 cards; {name} leads the first trick.", { name }))}</p>`;
    drawHands(s, 1);
  } else if (s.kind === "split") {
    $("v-where").textContent = t("round {r}: the split ({at}/{all})", place);
    const k = R.size.pack;
    if (record.variant) {
      info = `<p>${esc(record.partnership ? t("The marked cards are the {k} each seat handed to its partner for the second half.", { k })
        : t("The marked cards are the {k} each seat kept for the second half.", { k }))}</p>`;
    } else {
      info = `<p>${esc(record.partnership ? t("The marked cards are the 6 each seat handed to its partner for the second half.")
        : t("The marked cards are the 6 each seat kept for the second half."))}</p>`;
    }
    drawHands(s, 1);
  } else {
    const half = s.ti < R.size.first ? 1 : 2;
    $("v-where").textContent = record.variant ? t("round {r}, trick {n} of {hand} ({at}/{all})", { ...place, n: s.ti + 1, hand: R.size.hand })
      : t("round {r}, trick {n} of 13 ({at}/{all})", { ...place, n: s.ti + 1 });
    let prev = null;
    s.t.cards.forEach((c, i) => {
      const seat = (s.t.leader + i) % record.players;
      const wrap = document.createElement("div");
      wrap.className = "mini" + (seat === s.t.winner ? " winner" : "");
      wrap.append(cardEl(c, { half, edition: record.edition, previous: prev }));
      wrap.append(Object.assign(document.createElement("div"), { className: "who", textContent: names[seat] ?? t("seat {n}", { n: seat + 1 }) }));
      prev = playedValue(c, half, record.edition, prev);
      box.append(wrap);
    });
    // piles after this trick
    const piles = Array.from({ length: record.players }, () => [0, 0]);
    round.tricks.slice(0, s.ti + 1).forEach((tr) => { piles[tr.winner][tr.pile - 1]++; });
    info = `<p>${esc(t("{name} takes it → {pile}", { name: names[s.t.winner] ?? "", pile: s.t.pile === 1 ? "H" : "V" }))}</p>` +
      `<p>${piles.map((p, i) => `${esc(names[i] ?? "")}: H ${p[0]} · V ${p[1]}`).join(" — ")}</p>`;
    if (s.ti === round.tricks.length - 1 && round.scores) {
      info += `<p><strong>${esc(t("Round {n} scores:", { n: s.ri + 1 }))}</strong> ${round.scores.map((x, i) => `${esc(names[i] ?? "")} ${x}`).join(" · ")}</p>`;
    }
    drawHands(s, half);
  }
  if (at === st.length - 1) info += `<p><strong>${esc(t("Winners:"))}</strong> ${result.winners.map((w) => esc(names[w] ?? "")).join(", ")} — ${esc(t("totals"))} ${result.totals.join(" · ")}</p>`;
  $("v-info").innerHTML = info;
  $("v-prev").disabled = at === 0; $("v-next").disabled = at === st.length - 1;
  reviewStep(R);
}

function move(d) { if (!R) return; R.at = Math.max(0, Math.min(R.steps.length - 1, R.at + d)); draw(); }

async function main() {
  await loadLang();
  showAccount();
  $("v-prev").onclick = () => move(-1);
  $("v-next").onclick = () => move(1);
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") move(-1); if (e.key === "ArrowRight") move(1); });
  for (const r of document.querySelectorAll('input[name="whose"]')) r.onchange = list;
  await list();
  if (location.hash.length > 1) open(location.hash.slice(1));
}

// Your own finished matches by default; everyone's (of listed tables) as a filter,
// yours marked among them.
async function list() {
  const everyone = document.querySelector('input[name="whose"]:checked')?.value === "everyone";
  try {
    const d = await api("/api/history", { method: "POST", body: { tokens: myTokens(), everyone } });
    for (const m of d.matches) m.names = m.names.map(local);
    const empty = everyone ? t("No finished match yet.") : t("You have no finished match yet: play one, or see everyone's.");
    $("list").innerHTML = d.matches.length ? d.matches.map((m) =>
      `<div class="row"><button type="button" data-match="${esc(m.id)}">${esc(t("Replay"))}</button>` +
      `<span>${everyone && m.mine ? `<strong>${esc(t("yours"))}</strong> · ` : ""}${new Date(m.finished_at * 1000).toLocaleString(document.documentElement.lang)} · ${esc(m.edition === "meio" ? "MEIO" : t("Classic"))}${m.variant ? ` · ${esc(t("variant {name}", { name: m.variant }))}` : ""} · ${esc(m.names.join(", "))} · ` +
      `${esc(t("winners:"))} ${m.result.winners.map((w) => esc(m.names[w] ?? w)).join(", ")}</span>` +
      `<a href="/api/matches/${esc(m.id)}/record" download>${esc(t("record"))}</a></div>`).join("") : esc(empty);
    $("list").querySelectorAll("button[data-match]").forEach((b) => { b.onclick = () => open(b.dataset.match); });
  } catch (e) { toast(refusalText(e)); }
}
main();
