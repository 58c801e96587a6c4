// Learn to play: a scripted deal at a 4-player MEIO table. The player makes every move
// of their seat (only the move the lesson is about is open), the other three seats
// play from the script, and each step says what just happened and why. It ends in a
// first real game against three easy bots.
import { api, esc, refusalText, showAccount, saveSeat, toast } from "./api.js";
import { cardEl, cardText, playedValue, sortCards, SPECIALS, SUIT_SYMBOL } from "./cards.js";
import { loadLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const YOU = 0;
const names = () => [t("You"), "Bia", "Caio", "Duda"];
const POS = ["bottom", "left", "top", "right"];
const SPOT = { bottom: [50, 74], top: [50, 26], left: [18, 50], right: [82, 50] };

// your 13 cards; the lesson's pack is the 6 for the second half
const DEAL = ["3S", "7S", "QS", "5H", "9H", "KH", "3C", "6C", "TC", "JD", "-1", "+.5", "Q+"];
const PACK = ["7S", "QS", "KH", "JD", "TC", "-1"];

// One trick of the script: who leads, the cards before and after yours, your card (and
// the suit to name, when you lead a wild), who wins and whose pile it goes to.
const TRICKS = {
  follow: { leader: 1, before: [[1, "8S"], [2, "JS"], [3, "4S"]], play: "3S", after: [], winner: 2 },
  trumps: { leader: 2, before: [[2, "KD"], [3, "AD"]], play: "5H", after: [[1, "4D"]], winner: YOU },
  lead: { leader: YOU, before: [], play: "3C", after: [[1, "AC"], [2, "4C"], [3, "7C"]], winner: 1 },
  half: { leader: 1, before: [[1, "5C"], [2, "8C"], [3, "KC"]], play: "+.5", after: [], winner: YOU, choose: true },
  qplus: { leader: YOU, before: [], play: "Q+", declare: "D", after: [[1, "3D"], [2, "7D"], [3, "9D"]], winner: YOU, pile: 2 },
  aplus: { leader: YOU, before: [], play: "9H", after: [[1, "A+"], [2, "3H"], [3, "JH"]], winner: 1 },
  seventh: { leader: 1, before: [[1, "QC"], [2, "9C"], [3, "JC"]], play: "6C", after: [], winner: 1 },
  minus: { leader: 1, before: [[1, "5D"], [2, "QD"], [3, "6D"]], play: "-1", after: [], winner: YOU, half: 2 },
};

// The steps: a title, a text before your move, and for tricks a text after it.
const STEPS = [
  { kind: "info", title: () => t("Welcome to MEIO"), text: () => t("Each round is played in two halves. Every trick you win in the first half goes to your H pile, every trick you win in the second half to your V pile. Your score for the round is the difference between the two piles: 0 is perfect. After the match, the lowest total wins.") },
  { kind: "split", title: () => t("The split"), text: () => t("You hold 13 cards. Before the first trick, everyone secretly sets aside 6 cards for the second half and plays the first half with the other 7. Balance matters: keep strong cards for both halves, so that you can win about as many tricks in each. −1/A+ is worth −1 in the first half but 15 in the second: keep it for later. Select the 6 highlighted cards and keep them for the second half.") },
  { kind: "trick", trick: "follow", title: () => t("Following suit"), text: () => t("Bia led a ♠. If you have a card of the suit led you must play one (or a wild). Play your 3♠."), done: () => t("Caio's J♠ is the highest spade: Caio takes the trick to the H pile, because this is the first half.") },
  { kind: "trick", trick: "trumps", title: () => t("Trumps"), text: () => t("Caio led a ♦ and you have none, so you may play any card. Hearts are trumps: any ♥ beats every card of another suit. Play your 5♥."), done: () => t("Your small 5♥ beats the A♦: you take the trick → H.") },
  { kind: "trick", trick: "lead", title: () => t("Leading, and losing on purpose"), text: () => t("The winner of a trick leads the next one: any card. You do not want to win every trick, only as many in H as in V. Lead your 3♣."), done: () => t("Bia takes it → H. Losing a trick on purpose is often the right play.") },
  { kind: "gallery", title: () => t("The special cards"), text: () => t("The MEIO deck has five special cards; a table uses one per player. Here is each one as it counts in the first half and in the second half.") },
  { kind: "trick", trick: "half", title: () => t("+½ and the pile choice"), text: () => t("+½ is wild: it may be played on any trick and counts as the suit led. It is worth the card played just before it plus ½. After Duda's K (13) it is worth 13½. Play +½."), choose: () => t("You won with +½, so you choose the pile for this trick: H or V. Think ahead: the strong cards in your pack will win V tricks in the second half."), done: () => t("The trick went to your {pile} pile.") },
  { kind: "trick", trick: "qplus", title: () => t("Q+ sends a trick to the other half"), text: () => t("Q+ is wild and worth 12½: above every Q, below K and A. Leading a wild, you name the suit the others must follow. Lead Q+ and name ♦."), done: () => t("Q+ wins, and a trick won by Q+ goes to the pile of the other half: in the first half, to V.") },
  { kind: "trick", trick: "aplus", title: () => t("A+ in the first half"), text: () => t("Lead your 9♥."), done: () => t("Bia played A+. A wild counts as the suit led, so on a ♥ lead it is a trump; in the first half it is worth 15, the highest card of all. In the second half it drops to −1.") },
  { kind: "trick", trick: "seventh", title: () => t("The seventh trick"), text: () => t("The last trick of the first half. Bia led a ♣: follow with your 6♣."), done: () => t("Bia takes it → H. The first half is over: your hand is empty.") },
  { kind: "info", title: () => t("The second half"), text: () => t("Everyone picks up the 6 cards set aside. From now on every trick you win goes to V. The winner of the seventh trick, Bia, leads."), enter: () => { L.hand = [...PACK]; L.half = 2; } },
  { kind: "trick", trick: "minus", title: () => t("−1/A+ in the second half"), text: () => t("Bia led a ♦. You could follow with your J♦, but your −1 card is wild and worth 15 in the second half. Play it."), done: () => t("−1 wins with 15: the trick goes to V.") },
  { kind: "score", title: () => t("Scoring the round"), text: () => t("The other five tricks are played the same way. Say you win none of them: here is how the round ends.") },
  { kind: "end", title: () => t("You are ready"), text: () => t("A match is 3 rounds and the lowest total wins (with 2 players, and in partnership, the first to win 2 rounds). Tables may change two rules; the table page lists them under \u201cThis table's rules\u201d. Now play a real game against three easy bots.") },
];

const fresh = () => ({
  step: 0, hand: [...DEAL], half: 1, piles: [[0, 0], [0, 0], [0, 0], [0, 0]], trick: [],
  selected: new Set(), phase: "info", winner: null, pile: null, tricks: 0,
});
const L = fresh();
// the pile the player chose at a step (the +½ trick), kept for going back and forth
const chosen = new Map();

function step() { return STEPS[L.step]; }

function go(to) {
  L.step = to;
  const s = step();
  L.trick = []; L.winner = null; L.pile = null;
  if (s.enter) s.enter();
  if (s.kind === "split") L.phase = "split";
  else if (s.kind === "trick") {
    const tr = TRICKS[s.trick];
    L.trick = [...tr.before];
    L.phase = "play";
  } else L.phase = "info";
  render();
}

// What a step leaves behind once done: the split made, the trick played and piled.
function complete(s) {
  if (s.enter) s.enter();
  if (s.kind === "split") L.hand = DEAL.filter((c) => !PACK.includes(c));
  if (s.kind === "trick") {
    const tr = TRICKS[s.trick];
    L.hand = L.hand.filter((c) => c !== tr.play);
    const pile = tr.pile ?? (tr.choose ? chosen.get(tr.trick) ?? 1 : L.half);
    L.piles[tr.winner][pile - 1]++;
    L.tricks++;
  }
}

// Back one step: the lesson replays every step before it as it was played.
function back() {
  const to = Math.max(0, L.step - 1);
  Object.assign(L, fresh());
  for (let i = 0; i < to; i++) complete(STEPS[i]);
  go(to);
}

function play(code) {
  const tr = TRICKS[step().trick];
  if (code !== tr.play) { toast(t("In this lesson, play the card the text names.")); return; }
  if (tr.declare && L.phase === "play") { L.phase = "declare"; render(); return; }
  L.trick.push([YOU, tr.declare ? `${code}=${tr.declare}` : code]);
  L.hand = L.hand.filter((c) => c !== code);
  L.trick.push(...tr.after);
  L.winner = tr.winner;
  if (tr.choose) { L.phase = "pile"; render(); return; }
  finish(tr.pile ?? L.half);
}

function finish(pile) {
  L.pile = pile;
  if (TRICKS[step().trick]?.choose) chosen.set(step().trick, pile);
  L.piles[L.winner][pile - 1]++;
  L.tricks++;
  L.phase = "done";
  render();
}

// -- drawing ------------------------------------------------------------------------------
function render() {
  const s = step();
  $("lesson-step").textContent = t("Step {n} of {all}", { n: L.step + 1, all: STEPS.length });
  $("lesson-step").dataset.step = String(L.step);
  $("lesson-title").textContent = s.title();
  const text = L.phase === "pile" ? s.choose() : L.phase === "done" ? s.done() : s.text();
  $("lesson-text").innerHTML = `<p>${esc(text).replace("{pile}", L.pile === 1 ? "H" : "V")}</p>`;
  if (s.kind === "score") $("lesson-text").append(scoreTable());
  $("lesson-gallery").classList.toggle("hidden", s.kind !== "gallery");
  if (s.kind === "gallery") renderGallery();
  const more = L.step < STEPS.length - 1;
  $("lesson-next").classList.toggle("hidden", !(more && (L.phase === "info" || L.phase === "done")));
  $("lesson-play").classList.toggle("hidden", more);
  $("lesson-name-form").classList.toggle("hidden", more);
  $("lesson-skip").classList.toggle("hidden", !more);
  $("lesson-back").disabled = L.step === 0;
  renderBoard(); renderHand(); renderPrompt();
  $("status").textContent = {
    split: t("Choose your 6-card second-half pack."), play: t("Your turn."), declare: t("Name the suit."),
    pile: t("Choose the pile for the trick you won with +½."), done: "", info: "",
  }[L.phase];
}

function renderGallery() {
  const box = $("lesson-gallery");
  box.innerHTML = "";
  const lines = {
    "-1": t("−1/A+: wild; −1 in the first half, 15 in the second."),
    "A+": t("A+/−1: wild; 15 in the first half, −1 in the second."),
    "-2H": t("−2♥: a heart (a trump) worth −2, not wild."),
    "+.5": t("+½: wild; the card before it plus ½. Its winner chooses the pile."),
    "Q+": t("Q+: wild; 12½. The trick it wins goes to the other half's pile."),
  };
  for (const code of SPECIALS) {
    const fig = document.createElement("figure");
    fig.className = "special-fig";
    const row = document.createElement("div");
    row.className = "row";
    for (const half of [1, 2]) {
      const w = document.createElement("div");
      w.className = "mini";
      // full size: the two faces of −1/A+ and A+/−1 and their values must read at a glance
      w.append(cardEl(code, { half }));
      w.append(Object.assign(document.createElement("div"), { className: "who", textContent: half === 1 ? t("first half") : t("second half") }));
      row.append(w);
    }
    fig.append(row, Object.assign(document.createElement("figcaption"), { textContent: lines[code] }));
    box.append(fig);
  }
}

function scoreTable() {
  // the five tricks not shown: Bia and Caio win two each, Duda one (all in V)
  const piles = L.piles.map((p) => [...p]);
  piles[1][1] += 2; piles[2][1] += 2; piles[3][1] += 1;
  const wrap = document.createElement("div");
  const rows = piles.map((p, s) => `<tr data-seat="${s}"><td>${esc(names()[s])}</td><td>${p[0]}</td><td>${p[1]}</td><td class="score">${Math.abs(p[0] - p[1])}</td></tr>`).join("");
  wrap.innerHTML = `<table class="sheet" id="lesson-score"><tr><th></th><th>H</th><th>V</th><th>${esc(t("score"))}</th></tr>${rows}</table>`;
  const mine = Math.abs(piles[YOU][0] - piles[YOU][1]);
  const note = mine === 0 ? t("You scored 0: a perfect round.")
    : t("You scored {n}: the difference between {h} H and {v} V tricks. With the +½ trick in H you would have scored 0.", { n: mine, h: piles[YOU][0], v: piles[YOU][1] });
  wrap.append(Object.assign(document.createElement("p"), { textContent: note }));
  return wrap;
}

function renderBoard() {
  const board = $("board");
  board.querySelectorAll(".seatbox").forEach((e) => e.remove());
  names().forEach((name, s) => {
    const box = document.createElement("div");
    box.className = `seatbox seat-pos-${POS[s]}`;
    box.innerHTML = `<div class="name">${esc(name)}</div><div class="piles">H ${L.piles[s][0]} · V ${L.piles[s][1]}</div>`;
    board.append(box);
  });
  const trick = $("trick");
  trick.innerHTML = "";
  let before = null;
  for (const [seat, action] of L.trick) {
    const code = action.split("=")[0];
    const [x, y] = SPOT[POS[seat]];
    const wrap = document.createElement("div");
    wrap.className = "played" + (L.phase === "done" && seat === L.winner ? " winner" : "");
    wrap.style.left = `${x}%`; wrap.style.top = `${y}%`;
    wrap.append(cardEl(code, { half: L.half, previous: before }));
    before = playedValue(code, L.half, "meio", before);
    trick.append(wrap);
  }
  let label = t("trick {n} · half {half}", { n: L.tricks + 1, half: L.half });
  if (L.phase === "done") {
    const pile = L.pile === 1 ? "H" : "V";
    label = L.winner === YOU ? t("You take it → {pile}", { pile }) : t("{name} takes it → {pile}", { name: names()[L.winner], pile });
  }
  const decl = L.trick.find(([, a]) => a.includes("="));
  if (decl && L.phase !== "done") label += " · " + t("led: {suit}", { suit: SUIT_SYMBOL[decl[1].split("=")[1]] });
  $("trick-label").textContent = label;
}

function renderHand() {
  const hand = $("hand");
  hand.innerHTML = "";
  const s = step();
  const expect = s.kind === "trick" && L.phase === "play" ? TRICKS[s.trick].play : null;
  for (const code of sortCards(L.hand)) {
    const el = cardEl(code, { half: L.half, button: true });
    if (L.phase === "split") {
      el.dataset.legal = "1";
      el.classList.toggle("selected", L.selected.has(code));
      el.classList.toggle("hint", PACK.includes(code));
      el.onclick = () => {
        if (!PACK.includes(code)) { toast(t("In this lesson, pick the highlighted cards.")); return; }
        L.selected.has(code) ? L.selected.delete(code) : L.selected.add(code);
        render();
      };
    } else {
      el.dataset.legal = code === expect ? "1" : "0";
      if (code === expect) el.classList.add("hint");
      else el.setAttribute("aria-disabled", "true");
      el.onclick = () => { if (L.phase === "play") play(code); };
    }
    hand.append(el);
  }
  const packrow = $("packrow");
  packrow.innerHTML = "";
  packrow.classList.toggle("hidden", !(L.half === 1 && L.phase !== "split" && L.step > 1));
  if (L.half === 1 && L.step > 1) {
    packrow.append(Object.assign(document.createElement("span"), { textContent: t("Your second-half pack:") }));
    for (const c of sortCards(PACK)) packrow.append(cardEl(c, { half: 2, small: true }));
  }
}

function renderPrompt() {
  const p = $("prompt");
  p.innerHTML = ""; p.classList.add("hidden"); p.dataset.kind = "";
  const add = (text, props) => { const b = Object.assign(document.createElement("button"), { type: "button", textContent: text, ...props }); p.append(b); return b; };
  if (L.phase === "split") {
    p.classList.remove("hidden"); p.dataset.kind = "split";
    p.append(Object.assign(document.createElement("span"), { textContent: t("Pick 6 cards for the second half ({n}/6)", { n: L.selected.size }) }));
    const b = add(t("Keep these 6 for the second half"), { className: "primary", id: "split-go" });
    b.disabled = L.selected.size !== 6;
    b.onclick = () => { L.hand = DEAL.filter((c) => !PACK.includes(c)); L.selected.clear(); go(L.step + 1); };
  } else if (L.phase === "declare") {
    p.classList.remove("hidden"); p.dataset.kind = "declare";
    const tr = TRICKS[step().trick];
    p.append(Object.assign(document.createElement("span"), { textContent: t("Lead {card}: declare the suit", { card: cardText(tr.play) }) }));
    for (const s of "SHDC") {
      const b = add(SUIT_SYMBOL[s], { className: `declare-suit${s === "H" || s === "D" ? " red" : ""}` });
      b.disabled = s !== tr.declare;
      b.onclick = () => { L.phase = "declared"; play(tr.play); };
    }
  } else if (L.phase === "pile") {
    p.classList.remove("hidden"); p.dataset.kind = "pile";
    add(t("H pile (first half)"), { className: "pile-choice" }).onclick = () => finish(1);
    add(t("V pile (second half)"), { className: "pile-choice" }).onclick = () => finish(2);
  }
}

async function firstGame(ev) {
  ev.preventDefault();
  const name = $("lesson-name").value.trim();
  if (!name) { $("lesson-name").focus(); return; }
  localStorage.setItem("meio:name", name);
  try {
    const res = await api("/api/tables", { method: "POST", body: {
      edition: "meio", players: 4, name, listed: false,
      seats: [{ kind: "human" }, { kind: "bot", bot: "heuristic" }, { kind: "bot", bot: "heuristic" }, { kind: "bot", bot: "heuristic" }],
    } });
    saveSeat(res.table_id, { token: res.token, seat: res.seat, name, invite: res.invite, spectate: res.spectate });
    location.href = `/t/${res.table_id}`;
  } catch (e) { toast(refusalText(e)); }
}

async function main() {
  await loadLang();
  showAccount();
  $("lesson-next").onclick = () => go(L.step + 1);
  $("lesson-back").onclick = back;
  $("lesson-skip").onclick = () => go(STEPS.length - 1);
  $("lesson-name").value = localStorage.getItem("meio:name") ?? "";
  $("lesson-name-form").addEventListener("submit", firstGame);
  go(0);
}
main();
