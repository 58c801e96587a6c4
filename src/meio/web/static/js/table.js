// The table page: one WebSocket to the server, which holds the whole game. Every
// frame carries this seat's view; the page draws the latest one.
import { api, esc, mySeats, saveSeat, toast } from "./api.js";
import { cardEl, isWild, playedValue, sortCards, SUIT_SYMBOL } from "./cards.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const SAVE = `meio:view:${tableId}`;

const S = {
  seat: null, token: null, spectate: null, table: null,
  match: null, seq: 0, view: null, log: [], lastTrick: null, deadline: null, skew: 0,
  pending: new Map(), selected: new Set(), hint: null, declaring: null, summary: null,
  ws: null, retry: 0, counter: 0, hello: false, newCard: null, cursor: null, lostFocus: null,
};

function save() {
  sessionStorage.setItem(SAVE, JSON.stringify({ match: S.match, seq: S.seq, view: S.view,
    log: S.log.slice(-200), lastTrick: S.lastTrick, summary: S.summary }));
}
function restore() {
  try {
    const d = JSON.parse(sessionStorage.getItem(SAVE) || "null");
    if (d && d.view) Object.assign(S, { match: d.match, seq: d.seq, view: d.view, log: d.log || [], lastTrick: d.lastTrick, summary: d.summary });
  } catch { /* start afresh */ }
}

// an action of ours is on its way: the seat waits for the server's answer, not for a click
const busy = () => S.pending.size > 0;
const nameOf = (seat) => S.table?.seats[seat]?.name ?? `seat ${seat + 1}`;
const me = () => S.seat;

// -- connection -----------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  S.ws = ws; S.hello = false;
  $("conn").textContent = "connecting…";
  ws.onopen = () => {
    const since = S.match && S.view ? { match: S.match, seq: S.seq } : null;
    ws.send(JSON.stringify(S.token ? { type: "hello", token: S.token, since } : { type: "hello", spectate: S.spectate, since }));
  };
  ws.onmessage = (m) => handle(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    $("conn").textContent = "reconnecting…";
    if ([4403, 4404].includes(ev.code)) { $("conn").textContent = "not allowed at this table"; return; }
    const wait = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(connect, wait);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN && S.hello) S.ws.send(JSON.stringify(msg));
}

function act(action) {
  const id = `${S.seat}-${Date.now().toString(36)}-${S.counter++}`;
  const msg = { type: "act", id, seq: S.seq, action };
  S.pending.set(id, msg);
  send(msg);
  S.declaring = null;
  render();
}

function handle(f) {
  switch (f.type) {
    case "welcome":
      S.hello = true; S.retry = 0; S.table = f.table; S.seat = f.seat;
      $("conn").textContent = f.seat == null ? "watching" : `seat ${f.seat + 1}`;
      // resend what was not answered before the connection dropped (same ids: no doubles)
      for (const msg of S.pending.values()) S.ws.send(JSON.stringify(msg));
      break;
    case "table": S.table = f.table; break;
    case "snapshot":
      if (f.match !== S.match) { S.log = []; S.lastTrick = null; S.summary = null; }
      S.match = f.match; S.seq = f.seq; S.view = f.view; setDeadline(f); break;
    case "match":
      S.log = [`— match ${f.number} begins —`]; S.lastTrick = null; S.summary = null; S.selected.clear(); S.hint = null; break;
    case "event": onEvent(f); break;
    case "ack": S.pending.delete(f.id); break;
    case "reject": onReject(f); break;
    case "advice": onAdvice(f); break;
    case "error": toast(f.reason); break;
    default: break;
  }
  save(); render();
}

function setDeadline(f) {
  S.deadline = f.deadline ?? null;
  if (f.now) S.skew = f.now * 1000 - Date.now();
}

function onEvent(f) {
  if (f.match !== S.match) { S.ws.close(); return; }
  if (f.seq <= S.seq) return;                 // already seen: never doubled
  if (f.seq !== S.seq + 1) { S.ws.close(); return; }  // a gap: reconnect and resume
  const old = S.view;
  S.seq = f.seq; S.view = f.view; setDeadline(f);
  const who = nameOf(f.actor);
  const src = f.source === "timeout" ? " (time ran out: a bot played)" : "";
  if (f.action === "pack" || f.action.startsWith("pack:")) S.log.push(`${who} chose a pack${src}`);
  else if (f.action.startsWith("pile=")) S.log.push(`${who} put the trick in pile ${f.action.slice(5) === "1" ? "H (first half)" : "V (second half)"}${src}`);
  else { S.log.push(`${who} played ${f.action}${src}`); S.newCard = f.actor; }
  if (f.source === "timeout") toast(`${who} ran out of time: a bot played for them`);
  if (f.trick && f.trick.pile) {
    S.lastTrick = f.trick;
    S.log.push(`${nameOf(f.trick.winner)} won trick → pile ${f.trick.pile === 1 ? "H" : "V"}`);
  }
  if (f.round_over && S.view.rounds.length) {
    const r = S.view.rounds[S.view.rounds.length - 1];
    S.summary = { round: S.view.rounds.length, ...r };
    S.log.push(`round ${S.view.rounds.length} over: scores ${r.scores.join(" · ")}`);
    S.selected.clear(); S.hint = null;
  }
  if (old && old.phase === "split" && S.view.phase !== "split") S.selected.clear();
}

function onReject(f) {
  const pend = S.pending.get(f.id);
  S.pending.delete(f.id);
  if (f.snapshot && f.snapshot.match === S.match && f.snapshot.seq >= S.seq) {
    S.seq = f.snapshot.seq; S.view = f.snapshot.view; setDeadline(f.snapshot);
  } else if (f.snapshot && f.snapshot.match !== S.match) { S.ws.close(); return; }
  // a split made while another seat split is still good: send it again at the new number
  if (f.code === "stale" && pend && pend.action.startsWith("pack:") && S.view?.phase === "split" && !S.view.split_done[S.seat]) {
    act(pend.action); return;
  }
  if (f.code !== "stale") toast(f.reason); else toast("the table moved on: look again");
}

function onAdvice(f) {
  if (f.error) { toast(f.error); return; }
  S.hint = f;
  toast(f.explanation || "hint: the highlighted cards", 6000);
}

// -- drawing --------------------------------------------------------------------------
const POS = { 2: ["bottom", "top"], 3: ["bottom", "topleft", "topright"], 4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "topleft", "topright", "right"] };
const SPOT = { bottom: [50, 76], top: [50, 24], left: [17, 50], right: [83, 50], topleft: [30, 26], topright: [70, 26] };

function posOf(seat, n) { const base = me() ?? 0; return POS[n][(seat - base + n) % n]; }

function render() {
  const v = S.view;
  const focus = focusKey();
  $("waiting").classList.toggle("hidden", !!v);
  $("play").classList.toggle("hidden", !v);
  renderLinks();
  if (!v) { renderWaiting(); return; }
  // what this page has seen, for tests and bug reports: the match and its last action
  $("play").dataset.match = S.match ?? ""; $("play").dataset.seq = S.seq;
  renderBoard(v); renderHand(v); renderPrompt(v); renderSheet(v); renderLog(); renderSummary(v); renderStatus(v);
  restoreFocus(focus);
}

// -- the keyboard ------------------------------------------------------------------------
// Every frame redraws the hand and the prompt, so the focused control is remembered by
// what it is (a card code, a button id or action) and focused again in the new drawing.
function focusKey() {
  const el = document.activeElement;
  if (!el || el === document.body) return S.lostFocus;
  if (el.closest("#hand")) return { card: el.dataset.card, index: [...$("hand").children].indexOf(el) };
  if (el.closest("#prompt")) return { id: el.id, action: el.dataset.action, prompt: $("prompt").dataset.kind };
  if (el.closest("#summary")) return { id: el.id };
  return null;
}

function restoreFocus(key) {
  S.lostFocus = null;
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const hand = [...$("hand").children];
  const prompt = $("prompt");
  let el = null;
  if (S.declaring) el = prompt.querySelector(".declare-suit");     // the next step of a lead
  else if (!prompt.classList.contains("hidden") && prompt.dataset.kind === "pile" && key.prompt !== "pile") el = prompt.querySelector(".pile-choice");
  else if (key.card) el = hand.find((c) => c.dataset.card === key.card) ?? hand[Math.min(key.index, hand.length - 1)];
  else if (key.action) el = prompt.querySelector(`[data-action="${key.action}"]`);
  else if (key.id) el = document.getElementById(key.id);
  if (!el && key.card === undefined && key.prompt) el = hand.find((c) => c.tabIndex === 0) ?? null;
  if (el && !el.disabled) {
    if (el.parentElement === $("hand")) {
      for (const c of hand) c.tabIndex = c === el ? 0 : -1;
      S.cursor = el.dataset.card;
    }
    el.focus({ preventScroll: true });
  }
  else S.lostFocus = key;  // nothing to focus yet (not our turn): try again on the next frame
}

// Arrow keys move along the hand (one Tab stop); Enter or Space presses the card.
function onHandKey(ev) {
  const cards = [...$("hand").children];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const to = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: cards.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  const next = cards[(to + cards.length) % cards.length];
  for (const c of cards) c.tabIndex = c === next ? 0 : -1;
  S.cursor = next.dataset.card;
  next.focus();
}

function renderLinks() {
  const mine = mySeats()[tableId];
  const invite = mine?.invite ?? params.get("invite");
  const watch = mine?.spectate ?? params.get("watch");
  const free = S.table && S.table.free_seats.length;
  $("links").classList.toggle("hidden", !(invite && (free || !S.view)) && !(watch && !S.view));
  if (invite) $("invite-link").textContent = `${location.origin}/t/${tableId}?invite=${invite}`;
  if (watch) $("watch-link").textContent = `${location.origin}/t/${tableId}?watch=${watch}`;
}

function renderWaiting() {
  if (!S.table) return;
  $("waiting").innerHTML = `<h2>Waiting for players</h2><p>The match starts when every seat is filled.</p>` +
    S.table.seats.map((s) => `<div>Seat ${s.seat + 1}: ${s.filled ? esc(s.name) : "<em>free</em>"}</div>`).join("");
}

function renderBoard(v) {
  const board = $("board"), n = v.config.players;
  board.querySelectorAll(".seatbox").forEach((e) => e.remove());
  for (let s = 0; s < n; s++) {
    const box = document.createElement("div");
    box.className = `seatbox seat-pos-${posOf(s, n)}`;
    box.dataset.seat = s;
    const turn = v.phase === "split" ? !v.split_done[s] : (v.phase === "pile" ? v.pending_pile === s : v.to_move === s);
    if (turn && !v.is_over) box.classList.add("turn");
    const online = S.table?.seats[s]?.online ? "" : ' <span class="muted">(away)</span>';
    const team = v.config.partnership ? ` <span class="muted">team ${s % 2 ? "B" : "A"}</span>` : "";
    box.innerHTML = `<div class="name">${esc(nameOf(s))}${s === me() ? " (you)" : ""}${team}${online}</div>` +
      `<div class="piles" data-piles="${v.piles[s][0]},${v.piles[s][1]}">H ${v.piles[s][0]} · V ${v.piles[s][1]} · cards ${v.hand_sizes[s]}</div>` +
      (v.phase === "split" ? `<div class="muted">${v.split_done[s] ? "pack chosen" : "choosing pack…"}</div>` : "");
    board.append(box);
  }
  const trick = $("trick");
  trick.innerHTML = "";
  let cards = v.current_trick, label = "";
  if (!cards.length && S.lastTrick) {
    cards = S.lastTrick.cards;
    label = `${esc(nameOf(S.lastTrick.winner))} took the trick → ${S.lastTrick.pile === 1 ? "H" : "V"}`;
  } else if (v.led_suit) label = `led: ${SUIT_SYMBOL[v.led_suit]}`;
  let prev = null;
  for (const [seat, code] of cards) {
    const [x, y] = SPOT[posOf(seat, n)];
    const wrap = document.createElement("div");
    wrap.className = "played" + (cards === v.current_trick && seat === S.newCard && cards[cards.length - 1][0] === seat ? " new" : "");
    wrap.style.left = `${x}%`; wrap.style.top = `${y}%`;
    wrap.append(cardEl(code, { half: v.half, edition: v.config.edition, previous: prev }));
    prev = playedValue(code, v.half, v.config.edition, prev);
    trick.append(wrap);
  }
  $("trick-label").innerHTML = `trick ${Math.min(v.trick_number, 13)} · half ${v.half} · round ${v.round}${label ? " · " + label : ""}`;
}

function renderHand(v) {
  const hand = $("hand"); hand.innerHTML = "";
  const packrow = $("packrow"); packrow.innerHTML = ""; packrow.classList.add("hidden");
  if (me() == null || v.is_over) return;
  const splitting = v.phase === "split" && !v.split_done[me()];
  const legal = new Set(v.legal.map((a) => a.split("=")[0]));
  const hint = new Set(S.hint?.best ?? []);
  for (const code of sortCards(v.hand)) {
    const el = cardEl(code, { half: v.half, edition: v.config.edition, button: true });
    if (splitting) {
      el.dataset.legal = busy() ? "0" : "1";
      el.classList.toggle("selected", S.selected.has(code));
      el.classList.toggle("hint", hint.has(code));
      el.setAttribute("aria-pressed", S.selected.has(code) ? "true" : "false");
      if (busy()) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (busy()) return;
        S.selected.has(code) ? S.selected.delete(code) : S.selected.size < 6 && S.selected.add(code);
        render();
      };
    } else {
      const ok = legal.has(code) && !busy();
      el.dataset.legal = ok ? "1" : "0";
      if (!ok) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (!ok) return;
        if (isWild(code) && !v.current_trick.length) { S.declaring = code; render(); } else act(code);
      };
    }
    el.tabIndex = -1;
    el.onkeydown = onHandKey;
    hand.append(el);
  }
  // one Tab stop for the whole hand: the card last moved to, else the first playable one
  const cards = [...hand.children];
  const stop = cards.find((c) => c.dataset.card === S.cursor) ?? cards.find((c) => c.dataset.legal === "1") ?? cards[0];
  if (stop) stop.tabIndex = 0;
  const pack = v.phase === "split" ? [] : v.pack;
  if (v.half === 1 && (pack.length || v.received.length)) {
    packrow.classList.remove("hidden");
    const shown = v.config.partnership ? v.received : pack;
    const title = v.config.partnership ? "Pack from your partner (second half):" : "Your second-half pack:";
    packrow.append(Object.assign(document.createElement("span"), { textContent: title }));
    for (const c of sortCards(shown)) packrow.append(cardEl(c, { half: 2, edition: v.config.edition, small: true }));
  }
}

function renderPrompt(v) {
  const p = $("prompt"); p.innerHTML = ""; p.className = "prompt hidden"; p.id = "prompt";
  if (me() == null || v.is_over) return;
  const show = (id) => { p.classList.remove("hidden"); p.dataset.kind = id; };
  if (v.phase === "split" && !v.split_done[me()]) {
    show("split");
    p.append(Object.assign(document.createElement("span"), { textContent: `Pick 6 cards for the second half (${S.selected.size}/6)` }));
    const go = Object.assign(document.createElement("button"), { className: "primary", id: "split-go", textContent: "Keep these 6 for the second half", type: "button" });
    go.disabled = S.selected.size !== 6 || S.pending.size > 0;
    go.onclick = () => act("pack:" + [...S.selected].join(","));
    const hint = Object.assign(document.createElement("button"), { id: "split-hint", textContent: "Hint", type: "button" });
    hint.onclick = () => send({ type: "advise", id: `adv-${S.counter++}`, pack: S.selected.size === 6 ? [...S.selected] : null });
    const useHint = Object.assign(document.createElement("button"), { id: "split-use-hint", textContent: "Use hint", type: "button" });
    hint.disabled = busy();
    useHint.disabled = !S.hint || busy(); useHint.onclick = () => { S.selected = new Set(S.hint.best); render(); };
    p.append(go, hint, useHint);
    if (S.hint) p.append(Object.assign(document.createElement("div"), { className: "muted", textContent: S.hint.explanation || "" }));
  } else if (v.phase === "pile" && v.pending_pile === me()) {
    show("pile");
    p.append(Object.assign(document.createElement("span"), { textContent: "You won with +½: choose the pile for this trick" }));
    for (const [a, t] of [["pile=1", "H pile (first half)"], ["pile=2", "V pile (second half)"]]) {
      const b = Object.assign(document.createElement("button"), { textContent: t, type: "button", className: "pile-choice" });
      b.dataset.action = a; b.disabled = busy(); b.onclick = () => act(a); p.append(b);
    }
  } else if (S.declaring) {
    show("declare");
    p.append(Object.assign(document.createElement("span"), { textContent: `Lead ${S.declaring}: declare the suit` }));
    for (const s of "SHDC") {
      const b = Object.assign(document.createElement("button"), { textContent: SUIT_SYMBOL[s], type: "button", className: "declare-suit" });
      b.dataset.action = `${S.declaring}=${s}`; b.setAttribute("aria-label", `declare ${s}`);
      b.onclick = () => act(`${S.declaring}=${s}`); p.append(b);
    }
    const c = Object.assign(document.createElement("button"), { textContent: "Cancel", type: "button", id: "declare-cancel" });
    c.onclick = cancelDeclare; p.append(c);
  }
}

function renderSheet(v) {
  const n = v.config.players;
  const head = `<tr><th>round</th>${Array.from({ length: n }, (_, s) => `<th>${esc(nameOf(s))}</th>`).join("")}${v.config.partnership ? "<th>teams</th>" : ""}</tr>`;
  const rows = v.rounds.map((r, i) => `<tr><td>${i + 1}</td>${r.scores.map((x) => `<td>${x}</td>`).join("")}${r.team_scores ? `<td>${r.team_scores.join(" : ")}</td>` : ""}</tr>`).join("");
  const tot = `<tr><th>total</th>${v.totals.map((x) => `<th>${x}</th>`).join("")}${v.config.partnership ? "<th></th>" : ""}</tr>`;
  const vic = v.victories ? `<p>Victories: ${v.victories.map((x, i) => `${v.config.partnership ? (i ? "team B" : "team A") : esc(nameOf(i))} ${x}`).join(" · ")}</p>` : "";
  $("sheet").innerHTML = `<table class="sheet">${head}${rows}${tot}</table>${vic}`;
}

function renderLog() {
  const log = $("log");
  log.innerHTML = S.log.slice(-80).map((l) => `<div>${esc(l)}</div>`).join("");
  log.scrollTop = log.scrollHeight;
}

function renderSummary(v) {
  const box = $("summary");
  if (v.is_over) {
    const winners = v.winners.map(nameOf).join(" and ");
    box.classList.remove("hidden");
    box.innerHTML = `<h2 id="match-over">Match over — ${esc(winners)} ${v.winners.length > 1 ? "win" : "wins"}!</h2>` +
      `<p>Totals: ${v.totals.map((t, s) => `${esc(nameOf(s))} ${t}`).join(" · ")}</p>` +
      `<div class="row">${me() != null ? '<button class="primary" id="rematch" type="button">Rematch</button>' : ""}` +
      `<a id="download" href="/api/matches/${esc(S.match)}/record" download>Download the record</a>` +
      `<a href="/history#${esc(S.match)}">Replay</a></div>`;
    const b = $("rematch"); if (b) b.onclick = () => send({ type: "rematch", id: `rm-${S.counter++}` });
    return;
  }
  if (!S.summary) { box.classList.add("hidden"); return; }
  const r = S.summary;
  box.classList.remove("hidden");
  box.innerHTML = `<h3>Round ${r.round} over</h3>` +
    `<p>${r.piles.map((p, s) => `${esc(nameOf(s))}: H ${p[0]} · V ${p[1]} → ${r.scores[s]}`).join("<br>")}</p>` +
    (r.team_scores ? `<p>Teams: A ${r.team_scores[0]} · B ${r.team_scores[1]}</p>` : "") +
    `<button type="button" id="summary-close">OK</button>`;
  $("summary-close").onclick = () => { S.summary = null; save(); render(); };
}

function renderStatus(v) {
  let t;
  if (v.is_over) t = "The match is over.";
  else if (v.phase === "split") t = me() != null && !v.split_done[me()] ? "Choose your 6-card second-half pack." : "Waiting for the others to choose their packs…";
  else if (v.phase === "pile") t = v.pending_pile === me() ? "Choose the pile for the trick you won with +½." : `${nameOf(v.pending_pile)} chooses a pile…`;
  else t = v.to_move === me() ? (v.current_trick.length ? "Your turn: follow." : "Your turn: lead.") : `${nameOf(v.to_move)} to play…`;
  const mine = !v.is_over && me() != null && (v.to_move === me() || v.pending_pile === me() || (v.phase === "split" && !v.split_done[me()]));
  if (mine && busy()) t = "Sending your move…";
  $("status").textContent = t;
  $("status").dataset.turn = mine && !busy() ? "1" : "0";
}

setInterval(() => {
  const el = $("timer");
  if (!S.deadline || !S.view || S.view.is_over) { el.textContent = ""; return; }
  const left = Math.max(0, Math.round(S.deadline - (Date.now() + S.skew) / 1000));
  el.textContent = `⏱ ${left}s`;
}, 500);

// -- joining ----------------------------------------------------------------------------
async function showJoin(invite) {
  $("join").classList.remove("hidden");
  try {
    const t = await api(`/api/tables/${encodeURIComponent(tableId)}?key=${encodeURIComponent(invite)}`);
    S.table = t;
    $("join-seat").innerHTML = t.free_seats.map((s) => `<option value="${s}">seat ${s + 1}</option>`).join("");
    if (!t.free_seats.length) $("join").querySelector("h2").textContent = "Every seat is taken";
  } catch (e) { toast(e.message); }
  const name = localStorage.getItem("meio:name"); if (name) $("join-name").value = name;
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      const res = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { invite, name: $("join-name").value, seat: Number($("join-seat").value) } });
      localStorage.setItem("meio:name", $("join-name").value);
      saveSeat(tableId, { token: res.token, seat: res.seat, name: $("join-name").value, invite });
      $("join").classList.add("hidden");
      S.token = res.token; connect();
    } catch (e) { toast(e.message); }
  };
}

function cancelDeclare() {
  S.cursor = S.declaring; S.declaring = null; render();
  const card = [...$("hand").children].find((c) => c.dataset.card === S.cursor);
  if (card) card.focus();
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && S.declaring) cancelDeclare();
});

function main() {
  const mine = mySeats()[tableId];
  restore();
  if (params.get("watch") && !(mine && params.get("as") === "player")) { S.spectate = params.get("watch"); connect(); }
  else if (mine?.token) { S.token = mine.token; S.seat = mine.seat ?? null; connect(); }
  else if (params.get("invite")) showJoin(params.get("invite"));
  else { $("conn").textContent = ""; toast("You need an invite or spectator link to see this table.", 10000); }
  render();
}
main();
