// The puzzle page: a position from a real game, shown as its player saw it (the server
// sends the seat's view and nothing more), where one move is clearly best. Pick the
// card (with its declared suit when a wild leads), the pile, or the 6 cards of the pack;
// the server checks it, rates the attempt (your rating and the puzzle's, with openskill)
// and keeps your streak. Not signed in, the page keeps a random token of its own.
import { api, esc, showAccount, toast } from "./api.js";
import { cardEl, sortCards } from "./cards.js";
import { loadLang, t } from "./i18n.js";
import { learnRefusal } from "./review.js";

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = "meio:puzzle-token";
let P = null; // { id, seat, kind, view, picked: Set }

function token() {
  let tok = localStorage.getItem(TOKEN_KEY);
  if (!tok) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    tok = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(TOKEN_KEY, tok);
  }
  return tok;
}

const THEMES = () => ({
  "split-balance": t("split: balance the halves"),
  "split-special": t("split: the right half for a special card"),
  pile: t("pile: put the trick where it balances"),
  "q-plus": t("Q+: send a trick to the other half"),
  "plus-half": t("+.5: take the trick and choose its pile"),
  declare: t("declare the suit that keeps the trick"),
  lead: t("the lead that balances"),
  take: t("take the trick your half needs"),
  duck: t("duck to balance"),
  follow: t("follow with the right card"),
});

function showProgress(p) {
  $("p-rating").textContent = t("Your rating: {r}", { r: p.rating.toFixed(1) + (p.provisional ? "?" : "") });
  $("p-streak").textContent = t("Streak: {n} (best {b})", { n: p.streak, b: p.best_streak });
  $("p-solved").textContent = t("Solved {s} of {n}", { s: p.solved, n: p.tried });
}

function row(label, cards, v, opts = {}) {
  const r = document.createElement("div");
  r.className = "row";
  r.append(Object.assign(document.createElement("span"), { className: "who", textContent: label }));
  const hand = document.createElement("div");
  hand.className = "hand";
  for (const c of cards) {
    const el = cardEl(c, { half: opts.half ?? v.half, edition: v.edition ?? "meio", button: !!opts.pick });
    if (opts.pick) { el.onclick = () => opts.pick(c, el); }
    hand.append(el);
  }
  r.append(hand);
  return r;
}

function legalPick(code, el) {
  if (P.kind === "split") {
    if (P.picked.has(code)) { P.picked.delete(code); el.classList.remove("picked"); }
    else if (P.picked.size < 6) { P.picked.add(code); el.classList.add("picked"); }
    $("p-play").disabled = P.picked.size !== 6;
    return;
  }
  document.querySelectorAll("#p-board .picked").forEach((x) => x.classList.remove("picked"));
  P.picked = new Set([code]);
  el.classList.add("picked");
  const wild = ["-1", "A+", "+.5", "Q+"].includes(code) && !P.view.current_trick.length && P.view.rules.wild_lead !== "next";
  $("p-suit").classList.toggle("hidden", !wild);
  $("p-play").disabled = false;
}

function draw() {
  const v = P.view, box = $("p-board");
  box.innerHTML = "";
  $("p-result").innerHTML = "";
  $("p-title").textContent = t("Puzzle {id}", { id: P.id });
  const edition = P.edition;
  v.edition = edition;
  const info = document.createElement("p");
  info.textContent = P.kind === "split"
    ? (P.choices?.length ? t("Round {r}: which 6 cards do you keep for the second half?", { r: v.round })
      : t("Round {r}: choose the 6 cards you keep for the second half.", { r: v.round }))
    : t("Round {r}, half {h}, trick {n}: you are seat {s}. Piles (first/second half): {piles}", {
      r: v.round, h: v.half, n: v.trick_number, s: v.seat + 1,
      piles: v.piles.map((p, i) => `${i + 1}: ${p[0]}/${p[1]}`).join(" · ") });
  box.append(info);
  if (v.current_trick.length) {
    box.append(row(t("Trick so far"), v.current_trick.map(([, c]) => c), v));
  }
  if (v.phase === "pile") {
    const r = document.createElement("div");
    r.className = "row";
    for (const pile of [1, 2]) {
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: pile === 1 ? t("first-half pile") : t("second-half pile") });
      b.onclick = () => { P.picked = new Set([`pile=${pile}`]); $("p-play").disabled = false; b.classList.add("picked"); };
      r.append(b);
    }
    box.append(r);
  } else {
    // a split puzzle with packs to choose from shows the hand; the packs are picked below
    box.append(row(t("Your cards"), sortCards(v.hand, edition), v, P.choices?.length ? {} : { pick: legalPick }));
  }
  if (v.pack.length && P.kind !== "split") box.append(row(t("Your pack"), sortCards(v.pack, edition), v, { half: 2 }));
  if (P.choices?.length) {
    // a split puzzle: which of these packs is best (the cards of each, kept for the second half)
    box.append(Object.assign(document.createElement("p"), { textContent: t("Which of these packs is best?") }));
    P.choices.forEach((pack, i) => {
      const r = row(t("Pack {n}", { n: i + 1 }), sortCards(pack, edition), v, { half: 2 });
      const b = Object.assign(document.createElement("button"), { type: "button", className: "choice", textContent: t("Choose pack {n}", { n: i + 1 }) });
      b.onclick = () => {
        document.querySelectorAll("#p-board .choice").forEach((x) => x.classList.remove("picked"));
        P.picked = new Set(pack); b.classList.add("picked"); $("p-play").disabled = false;
      };
      r.append(b);
      box.append(r);
    });
  }
  P.picked = new Set();
  $("p-play").disabled = true;
  $("p-suit").classList.add("hidden");
}

async function load(path) {
  try {
    const d = await api(path);
    P = { ...d, picked: new Set() };
    draw();
  } catch (e) { toast(learnRefusal(e)); }
}

async function play() {
  if (!P) return;
  let move = [...P.picked].join(" ");
  if (!$("p-suit").classList.contains("hidden")) move += `=${$("p-suit").value}`;
  try {
    const r = await api(`/api/puzzles/${encodeURIComponent(P.id)}/attempt`, { method: "POST", body: { action: move, token: token() } });
    showProgress(r.progress);
    const theme = THEMES()[r.theme] ?? r.theme;
    // a pack is shown as its cards ("pack:7S,8S,..." in the record's text)
    const shown = (a) => (a.startsWith("pack:") ? a.slice(5).split(",").join(" ") : a);
    const best = r.options.slice(0, 4).map(([a, val]) => `${shown(a)} ${val.toFixed(2)}`).join(" · ");
    $("p-result").innerHTML = `<p><strong>${esc(r.solved ? t("Solved!") : t("Not the best: {answer} was.", { answer: shown(r.answer) }))}</strong></p>` +
      `<p>${esc(t("Theme: {theme}", { theme }))}</p>` +
      (r.rated ? "" : `<p class="muted">${esc(t("You had tried this puzzle before: not rated again."))}</p>`) +
      `<p class="muted">${esc(t("Expected round scores (lower is better): {options}", { options: best }))}</p>`;
    $("p-play").disabled = true;
  } catch (e) { toast(learnRefusal(e)); }
}

async function main() {
  await loadLang();
  showAccount();
  const suit = $("p-suit");
  for (const [code, name] of [["S", t("spades")], ["H", t("hearts")], ["D", t("diamonds")], ["C", t("clubs")]]) {
    suit.append(Object.assign(document.createElement("option"), { value: code, textContent: name }));
  }
  $("p-daily").onclick = () => load("/api/puzzles/daily");
  $("p-next").onclick = () => load("/api/puzzles/next");
  $("p-play").onclick = play;
  try { showProgress(await api("/api/puzzles/progress", { method: "POST", body: { token: token() } })); } catch (e) { toast(learnRefusal(e)); }
  await load(location.hash.length > 1 ? `/api/puzzles/${encodeURIComponent(location.hash.slice(1))}` : "/api/puzzles/daily");
}
main();
