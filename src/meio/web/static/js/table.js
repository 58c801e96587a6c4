// The table page: one WebSocket to the server, which holds the whole game. Every
// frame carries this seat's view; the page draws the latest one, and paces what
// just happened (a finished trick stays on the table a moment, a round's summary
// waits for a click or a few seconds) so that people can follow it.
import { api, esc, mySeats, refusalText, showAccount, saveSeat, toast } from "./api.js";
import { cardEl, cardText, isSpecial, isWild, playedValue, playText, setVariant, sortCards, specialOf, SUIT_SYMBOL } from "./cards.js";
import { loadLang, reasonTemplate, t } from "./i18n.js";
import { rulesHtml, seatName, sizes } from "./rules.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const SAVE = `meio:view:${tableId}`;

// How long a finished trick stays on the table and a round's summary waits (ms).
// "instant" is for the impatient and for tests.
const PACES = { slow: { trick: 2600, round: 15000 }, normal: { trick: 1400, round: 10000 }, instant: { trick: 0, round: 0 } };
function pace() {
  const p = PACES[localStorage.getItem("meio:pace")] ?? PACES.normal;
  const round = Number(localStorage.getItem("meio:round-ms"));
  return { ...p, round: Number.isFinite(round) && localStorage.getItem("meio:round-ms") !== null ? round : p.round };
}

const S = {
  seat: null, token: null, spectate: null, table: null,
  match: null, rematch: null, seq: 0, view: null, log: [], lastTrick: null, deadline: null, skew: 0,
  pending: new Map(), selected: new Set(), hint: null, declaring: null, summary: null,
  ws: null, retry: 0, counter: 0, hello: false, newCard: null, cursor: null, lostFocus: null,
  held: null, showLast: false, chat: [], nextMatch: null, problem: null,
};

function save() {
  sessionStorage.setItem(SAVE, JSON.stringify({ match: S.match, seq: S.seq, view: S.view,
    log: S.log.slice(-300), lastTrick: S.lastTrick }));
}
function restore() {
  try {
    const d = JSON.parse(sessionStorage.getItem(SAVE) || "null");
    if (d && d.view) {
      Object.assign(S, { match: d.match, seq: d.seq, view: d.view, lastTrick: d.lastTrick });
      S.log = (d.log || []).filter((e) => e && typeof e === "object");
    }
  } catch { /* start afresh */ }
}

// an action of ours is on its way: the seat waits for the server's answer, not for a click
const busy = () => S.pending.size > 0;
const nameOf = (seat) => {
  const s = S.table?.seats[seat];
  return s ? seatName(s) : t("seat {n}", { n: seat + 1 });
};
const me = () => S.seat;
const pileName = (p) => (p === 1 ? "H" : "V");
const teamName = (i) => (i ? t("team B") : t("team A"));

// -- connection -----------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  S.ws = ws; S.hello = false;
  $("conn").textContent = t("connecting…");
  ws.onopen = () => {
    const since = S.match && S.view ? { match: S.match, seq: S.seq } : null;
    ws.send(JSON.stringify(S.token ? { type: "hello", token: S.token, since } : { type: "hello", spectate: S.spectate, since }));
  };
  ws.onmessage = (m) => handle(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    $("conn").textContent = t("reconnecting…");
    if ([4403, 4404].includes(ev.code)) {
      $("conn").textContent = t("not allowed at this table");
      if (!S.problem) showProblem(ev.code === 4404 ? "no_table" : S.token ? "bad_token" : "bad_code");
      return;
    }
    const wait = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(connect, wait);
  };
}

function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN && S.hello) { S.ws.send(JSON.stringify(msg)); return true; }
  return false;
}

function act(action) {
  const id = `${S.seat}-${Date.now().toString(36)}-${S.counter++}`;
  const msg = { type: "act", id, seq: S.seq, action };
  S.pending.set(id, msg);
  send(msg);
  S.declaring = null; S.showLast = false;
  render();
}

function handle(f) {
  switch (f.type) {
    case "welcome":
      S.hello = true; S.retry = 0; S.table = f.table; S.seat = f.seat;
      $("conn").textContent = f.seat == null ? t("watching") : t("seat {n}", { n: f.seat + 1 });
      $("conn").dataset.seat = f.seat == null ? "" : String(f.seat);
      // resend what was not answered before the connection dropped (same ids: no doubles)
      for (const msg of S.pending.values()) S.ws.send(JSON.stringify(msg));
      break;
    case "table": S.table = f.table; break;
    case "snapshot":
      if (f.match !== S.match) {
        S.log = S.nextMatch ? [{ k: "match", number: S.nextMatch }] : [];
        S.lastTrick = null; S.summary = null; S.held = null;
      }
      S.match = f.match; S.seq = f.seq; S.view = f.view; setDeadline(f);
      if (!S.log.length && f.view) seedLog(f.view);
      break;
    case "match":
      // a rematch: its snapshot follows and starts the log; the page goes back to the top
      S.nextMatch = f.number; S.lastTrick = null; S.summary = null; S.held = null;
      S.selected.clear(); S.hint = null; S.rematch = null;
      if (f.match !== S.match) window.scrollTo({ top: 0 });
      break;
    case "event": onEvent(f); break;
    case "ack":
      S.pending.delete(f.id);
      // a rematch asked for: the others still have to agree
      if (f.waiting) S.rematch = { match: f.match, asked: [S.seat], waiting: f.waiting };
      break;
    case "rematch": S.rematch = { match: f.match, asked: f.asked, waiting: f.waiting }; break;
    case "reject": onReject(f); break;
    case "advice": onAdvice(f); break;
    case "chat": S.chat.push(f); S.chat = S.chat.slice(-200); renderChat(); return;
    case "chat_log": S.chat = f.messages; renderChat(); return;
    case "error": onError(f); break;
    default: break;
  }
  save(); render();
}

// What an error frame means, in the page's language (the server's words are English).
function onError(f) {
  if (["not_found", "bad_code", "bad_token"].includes(f.code)) {
    showProblem({ not_found: "no_table", bad_code: "bad_code", bad_token: "bad_token" }[f.code]);
    return;
  }
  toast({
    rate_limited: t("Slow down: a few messages at a time."),
    too_large: t("That message is too long for the server."),
    internal: t("Something went wrong on the server; try again."),
  }[f.code] ?? t("The server did not understand that message."));
}

function setDeadline(f) {
  S.deadline = f.deadline ?? null;
  if (f.now) S.skew = f.now * 1000 - Date.now();
}

// a page opened mid-round writes the round's finished tricks into its log
function seedLog(v) {
  v.tricks.forEach((tr, i) => { if (tr.pile) S.log.push({ k: "trick", round: v.round, n: i + 1, ...tr }); });
}

function onEvent(f) {
  if (f.match !== S.match) { S.ws.close(); return; }
  if (f.seq <= S.seq) return;                 // already seen: never doubled
  if (f.seq !== S.seq + 1) { S.ws.close(); return; }  // a gap: reconnect and resume
  const old = S.view;
  S.seq = f.seq; S.view = f.view; setDeadline(f);
  if (f.source === "timeout") {
    S.log.push({ k: "timeout", seat: f.actor });
    toast(f.actor === me() ? t("You ran out of time: a bot played for you.")
      : t("{name} ran out of time: a bot played for them", { name: nameOf(f.actor) }));
  }
  if (f.action === "pack" || f.action.startsWith("pack:")) S.log.push({ k: "pack", seat: f.actor });
  else if (!f.action.startsWith("pile=")) S.newCard = f.actor;
  if (f.trick && f.trick.pile) {
    const round = f.round_over ? old?.round ?? f.view.round - 1 : f.view.round;
    const n = f.round_over ? sizes(f.view.config).hand : f.view.tricks.length;
    S.lastTrick = { ...f.trick, round, n };
    S.log.push({ k: "trick", ...S.lastTrick });
    const ms = pace().trick;
    if (ms > 0) {
      S.held = { trick: S.lastTrick, sweeping: false };
      const held = S.held;
      setTimeout(() => {
        if (S.held !== held) return;
        held.sweeping = true; render();
        setTimeout(() => { if (S.held === held) { S.held = null; render(); } }, 380);
      }, ms);
    }
  }
  if (f.round_over && S.view.rounds.length) {
    const r = S.view.rounds[S.view.rounds.length - 1];
    S.log.push({ k: "round", round: S.view.rounds.length, scores: r.scores, team: r.team_scores });
    // with a turn timer the split's clock is already running: leave most of it to the split
    const timer = S.table?.turn_timer_s;
    const wait = timer ? Math.min(pace().round, timer * 250) : pace().round;
    if (!S.view.is_over && wait > 0) {
      S.summary = { round: S.view.rounds.length, ...r, trick: S.lastTrick, until: Date.now() + wait };
      setTimeout(() => { if (S.summary && Date.now() >= S.summary.until - 50) closeSummary(); }, wait);
    }
    S.selected.clear(); S.hint = null;
  }
  if (old && old.phase === "split" && S.view.phase !== "split") S.selected.clear();
}

// The engine's reason for refusing a move, in the page's language with cards drawn as
// here; the engine's English when the frame has no reason code this page knows.
function reasonText(f) {
  const template = reasonTemplate(f.reason_code);
  if (!template || !f.reason_params) return f.reason;
  const edition = S.view?.config?.edition;
  const show = (name, value) => {
    if (name === "card") return cardText(String(value), edition);
    if (name === "cards" && Array.isArray(value)) return value.map((c) => cardText(String(c), edition)).join(" ");
    if (name === "suit") return SUIT_SYMBOL[value] ?? String(value);
    // the engine counts seats from 0, players from 1
    if (name === "seat" || name === "mover") return String(Number(value) + 1);
    if (name === "seats" && Array.isArray(value)) return value.map((x) => Number(x) + 1).join(", ");
    return Array.isArray(value) ? value.join(", ") : String(value);
  };
  const shown = Object.fromEntries(Object.entries(f.reason_params).map(([k, v]) => [k, show(k, v)]));
  return t(template, shown);
}

// what a rejection means, in the page's language
function rejectText(f) {
  return {
    stale: t("The table moved on: look again."),
    illegal: t("That move is not allowed: {reason}", { reason: reasonText(f) }),
    forbidden: t("You cannot do that from this seat."),
    not_started: t("The match has not started yet."),
    not_over: t("A rematch starts once the match is over."),
    closed: t("This table is closed: start a new one in the lobby."),
    rate_limited: t("Slow down: a few messages at a time."),
    too_long: t("A chat message is at most 200 characters."),
    busy: t("Still working on your last request: a moment, please."),
    bad_message: t("The server did not understand that message."),
    no_message: t("That message is not in this match's chat any more."),
    internal: t("Something went wrong on the server; try again."),
  }[f.code] ?? t("Refused: {reason}", { reason: f.reason });
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
  toast(rejectText(f));
}

// The advisor's figures in the page's language (its own explanation is English).
function hintText(h) {
  const num = (x) => Number(x).toLocaleString(document.documentElement.lang, { maximumFractionDigits: 1 });
  const best = h.candidates?.[0];
  const parts = [];
  if (best) {
    const low = Math.max(0, best.ci95[0]), high = Math.max(low, best.ci95[1]);
    parts.push(num(low) === num(high)
      ? t("Expected score with the highlighted pack: {mean}; lower is better.", { mean: num(best.mean) })
      : t("Expected score with the highlighted pack: {mean} (likely between {low} and {high}); lower is better.", { mean: num(Math.max(0, best.mean)), low: num(low), high: num(high) }));
  }
  if (h.chosen) parts.push(t("With your pack: {mean}.", { mean: num(h.chosen.mean) }));
  return parts.join(" ");
}

function onAdvice(f) {
  // the server's one advice error: the advisor failed (its words are English)
  if (f.error) { toast(t("No hint now: the advisor failed. Try again.")); return; }
  S.hint = f;
  toast(t("Hint: the highlighted cards make a balanced pack."), 6000);
}

// -- drawing --------------------------------------------------------------------------
const POS = { 2: ["bottom", "top"], 3: ["bottom", "topleft", "topright"], 4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "topleft", "topright", "right"] };
const SPOT = { bottom: [50, 74], top: [50, 26], left: [18, 50], right: [82, 50], topleft: [31, 28], topright: [69, 28] };
// five cards on a narrow table: the side ones lower, the top ones apart, none on another
const SPOT5 = { bottom: [50, 78], left: [15, 64], right: [85, 64], topleft: [28, 21], topright: [72, 21] };
const spotOf = (seat, n) => (n === 5 ? SPOT5 : SPOT)[posOf(seat, n)];

function posOf(seat, n) { const base = me() ?? 0; return POS[n][(seat - base + n) % n]; }

// The hand and its halves at this table (a variant's, or 13 = 7 + 6).
function size() { return sizes(S.view?.config ?? S.table); }

function render() {
  const v = S.view;
  if (S.problem) return;
  // the special cards of the variant played here (their values, suits, piles)
  setVariant(v?.config.variant ?? null);
  const focus = focusKey();
  $("waiting").classList.toggle("hidden", !!v);
  $("play").classList.toggle("hidden", !v);
  renderLinks();
  renderRules(v);
  if (!v) { renderWaiting(); return; }
  // what this page has seen, for tests and bug reports: the match and its last action
  $("play").dataset.match = S.match ?? ""; $("play").dataset.seq = S.seq;
  // the summary of a round that is over closes by itself once the next round is under way
  if (S.summary && (v.tricks.length || v.current_trick.length || v.is_over)) S.summary = null;
  renderBoard(S.summary ? endedRound(v, S.summary) : v); renderBalance(v); renderHand(v); renderPrompt(v);
  renderSheet(v); renderLog(v); renderSummary(v); renderStatus(v);
  $("keys").classList.toggle("hidden", v.is_over || me() == null);
  $("last-trick").setAttribute("aria-pressed", S.showLast ? "true" : "false");
  $("last-trick").disabled = !previousTrick(v);
  restoreFocus(focus);
}

function renderRules(v) {
  const src = v ? v.config : S.table;
  if (!src) return;
  const known = v ? v.specials : null;
  const key = JSON.stringify([src, known]);
  if ($("rules-body").dataset.key !== key) { $("rules-body").innerHTML = rulesHtml(src, known); $("rules-body").dataset.key = key; }
  // shown open until the first deal, folded (one click away) during play
  const early = !v || (v.round === 1 && v.phase === "split");
  if (!$("rules").dataset.touched) $("rules").open = early;
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

// The links to pass on: only codes this page knows are good (a wrong one has its page).
function renderLinks() {
  const mine = mySeats()[tableId];
  const invite = mine?.invite ?? (S.table?.key === "invite" ? params.get("invite") : null);
  const watching = S.table?.key === "spectate" || (S.seat === null && S.hello);
  const watch = mine?.spectate ?? S.table?.spectate ?? (watching ? params.get("watch") : null);
  const free = S.table && S.table.free_seats.length;
  const showInvite = !!invite && !!free, showWatch = !!watch && !S.view;
  $("links").classList.toggle("hidden", S.problem !== null || !(showInvite || showWatch));
  $("invite-row").classList.toggle("hidden", !showInvite);
  $("watch-row").classList.toggle("hidden", !showWatch);
  if (invite) $("invite-link").textContent = `${location.origin}/t/${tableId}?invite=${invite}`;
  if (watch) $("watch-link").textContent = `${location.origin}/t/${tableId}?watch=${watch}`;
}

async function copyLink(button) {
  const text = $(button.dataset.copy).textContent;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // no clipboard here (an insecure origin): select the link for a manual copy
    const range = document.createRange(); range.selectNodeContents($(button.dataset.copy));
    getSelection().removeAllRanges(); getSelection().addRange(range);
    toast(t("Select the link and copy it."));
    return;
  }
  button.textContent = t("Copied");
  setTimeout(() => { button.textContent = t("Copy"); }, 2000);
}

// A page that says what went wrong and what to do instead of an empty table.
function showProblem(kind) {
  const watch = S.table?.spectate ?? mySeats()[tableId]?.spectate;
  const lobby = ["/", t("Go to the lobby")];
  const pages = {
    no_table: [t("There is no such table"), t("The link may be cut short or mistyped, or the table is gone. Start a table of your own or join an open one in the lobby."), [lobby]],
    bad_invite: [t("This invite link does not work"), t("The code in the link is not this table's invite. Ask whoever invited you to send the link again, or start a table of your own."), [lobby]],
    bad_code: [t("This spectator link does not work"), t("The code in the link is not this table's spectator code. Ask for the link again, or find a table in the lobby."), [lobby]],
    bad_token: [t("Your seat at this table is gone"), t("This browser held a seat at this table, but the server no longer knows it. Ask for a new invite link, or start a table in the lobby."), [lobby]],
    full: [t("Every seat is taken"), t("The match is played without a free seat. You can watch it as a spectator, or start a table of your own."),
      [...(watch ? [[`/t/${encodeURIComponent(tableId)}?watch=${encodeURIComponent(watch)}`, t("Watch this match")]] : []), lobby]],
    private: [t("This table is private"), t("Only its invite link or spectator link opens it. Ask the person who started it for a link, or find a table in the lobby."), [lobby]],
    no_link: [t("You need a link to this table"), t("Open the table with its invite link to take a seat, or with its spectator link to watch."), [lobby]],
  };
  const [title, text, actions] = pages[kind] ?? pages.no_table;
  S.problem = kind;
  $("problem").dataset.kind = kind;
  $("problem-title").textContent = title;
  $("problem-text").textContent = text;
  $("problem-actions").innerHTML = actions.map(([href, label], i) =>
    `<a class="button${i ? "" : " primary"}" href="${esc(href)}">${esc(label)}</a>`).join("");
  $("problem").classList.remove("hidden");
  for (const id of ["join", "links", "waiting", "play", "rules"]) $(id).classList.add("hidden");
  $("conn").textContent = "";
}

function renderWaiting() {
  if (!S.table) return;
  // quick play: bots take the free seats when the wait is over
  const fill = S.table.quick && S.table.fill_at
    ? `<p id="fill-at">${esc(t("Bots take the free seats at {time}.", { time: new Date(S.table.fill_at * 1000).toLocaleTimeString(document.documentElement.lang) }))}</p>` : "";
  $("waiting").innerHTML = `<h2>${esc(t("Waiting for players"))}</h2><p>${esc(t("The match starts when every seat is filled."))}</p>` + fill +
    S.table.seats.map((s) => `<div>${esc(t("Seat {n}:", { n: s.seat + 1 }))} ${s.filled ? esc(nameOf(s.seat)) : `<em>${esc(t("free"))}</em>`}</div>`).join("");
}

// The table as a round ended (under its summary): its piles, empty hands, no one to move.
function endedRound(v, r) {
  return { ...v, piles: r.piles, hand_sizes: v.hand_sizes.map(() => 0), phase: "play", to_move: -1,
    pending_pile: -1, current_trick: [], tricks: [], led_suit: null, round: r.round, trick_number: size().hand, half: 2 };
}

// the trick just before now: the last finished one of this round, else of the last round
function previousTrick(v) {
  const done = v.tricks.filter((tr) => tr.pile);
  if (done.length) return { ...done[done.length - 1], n: done.length, round: v.round };
  return S.lastTrick;
}

// Who took a trick and where it went; your own tricks in the second person.
function takesText(tr) {
  const win = tr.cards.find(([s]) => s === tr.winner)?.[1];
  const pile = pileName(tr.pile), name = nameOf(tr.winner);
  if (S.view?.config.variant) {
    // a variant's specials move tricks as their attributes say, whatever their codes
    const eff = win && isSpecial(win) ? specialOf(win)?.pile : "none", card = win ? cardText(win) : "";
    const mine = tr.winner === me();
    if (eff === "winner_chooses") return mine ? t("You won with {card} and chose {pile}", { card, pile }) : t("{name} won with {card} and chose {pile}", { name, card, pile });
    if (eff === "other_half") return mine ? t("You take it → {pile} ({card} sends it to the other half)", { card, pile }) : t("{name} takes it → {pile} ({card} sends it to the other half)", { name, card, pile });
    return mine ? t("You take it → {pile}", { pile }) : t("{name} takes it → {pile}", { name, pile });
  }
  if (tr.winner === me()) {
    if (win === "+.5") return t("You won with +½ and chose {pile}", { pile });
    if (win === "Q+") return t("You take it → {pile} (Q+ sends it to the other half)", { pile });
    return t("You take it → {pile}", { pile });
  }
  if (win === "+.5") return t("{name} won with +½ and chose {pile}", { name, pile });
  if (win === "Q+") return t("{name} takes it → {pile} (Q+ sends it to the other half)", { name, pile });
  return t("{name} takes it → {pile}", { name, pile });
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
    const away = S.table?.seats[s]?.online ? "" : ` <span class="muted">${esc(t("(away)"))}</span>`;
    const team = v.config.partnership ? ` <span class="muted">${esc(teamName(s % 2))}</span>` : "";
    const you = s === me() ? ` ${esc(t("(you)"))}` : "";
    box.innerHTML = `<div class="name">${esc(nameOf(s))}${you}${team}${away}</div>` +
      `<div class="piles" data-piles="${v.piles[s][0]},${v.piles[s][1]}">H ${v.piles[s][0]} · V ${v.piles[s][1]} · ${esc(t("cards {n}", { n: v.hand_sizes[s] }))}</div>` +
      (v.phase === "split" ? `<div class="muted">${esc(v.split_done[s] ? t("pack chosen") : t("choosing pack…"))}</div>` : "");
    board.append(box);
  }
  const trick = $("trick");
  trick.innerHTML = "";
  trick.className = "trick";
  let cards = v.current_trick, label = "", winner = null, sweepTo = null;
  const prev = previousTrick(v);
  if (S.showLast && prev) {
    cards = prev.cards; winner = prev.winner; trick.classList.add("last");
    label = `${t("Last trick")}: ${takesText(prev)}`;
  } else if (S.held) {
    const h = S.held.trick;
    cards = h.cards; winner = h.winner; label = takesText(h);
    if (S.held.sweeping) sweepTo = board.querySelector(`.seatbox[data-seat="${h.winner}"]`);
  } else if (v.phase === "pile" && v.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1];
    cards = tr.cards; winner = tr.winner;
    label = v.config.variant ? t("{name} won with {card} and chooses the pile", { name: nameOf(tr.winner), card: cardText(tr.cards.find(([s]) => s === tr.winner)?.[1] ?? "") })
      : t("{name} won with +½ and chooses the pile", { name: nameOf(tr.winner) });
  } else if (v.led_suit) label = t("led: {suit}", { suit: SUIT_SYMBOL[v.led_suit] });
  else if (cards.length && isWild(cards[0][1])) label = t("a wild was led: the next ordinary card sets the suit");
  let before = null;
  const live = cards === v.current_trick;
  for (const [seat, code] of cards) {
    const [x, y] = spotOf(seat, n);
    const wrap = document.createElement("div");
    wrap.className = "played";
    if (live && seat === S.newCard && cards[cards.length - 1][0] === seat) wrap.classList.add("new");
    if (seat === winner) wrap.classList.add("winner");
    wrap.dataset.seat = seat;
    wrap.style.left = `${x}%`; wrap.style.top = `${y}%`;
    wrap.append(cardEl(code, { half: v.half, edition: v.config.edition, previous: before }));
    before = playedValue(code, v.half, v.config.edition, before);
    trick.append(wrap);
  }
  if (sweepTo) {
    // slide the four cards to the winner's name box (and so to their H or V pile)
    const to = sweepTo.getBoundingClientRect();
    for (const w of trick.children) {
      const r = w.getBoundingClientRect();
      const dx = to.left + to.width / 2 - (r.left + r.width / 2), dy = to.top + to.height / 2 - (r.top + r.height / 2);
      w.classList.add("sweep");
      w.style.transform = "translate(-50%, -50%)";
      requestAnimationFrame(() => { w.style.transform = `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px)) scale(.4)`; w.style.opacity = "0"; });
    }
  }
  $("trick-label").innerHTML = "";
  const where = document.createElement("span");
  where.className = "muted";
  where.textContent = t("trick {n} · half {half} · round {round}", { n: Math.min(v.trick_number, size().hand), half: v.half, round: v.round });
  $("trick-label").append(where);
  if (label) {
    const l = document.createElement("strong");
    l.id = "takes"; l.textContent = label;
    $("trick-label").append(" ", l);
  }
}

// Where this seat (or team) stands: H, V, tricks left in the half, and what it means.
function renderBalance(v) {
  const box = $("balance");
  if (me() == null || v.is_over || v.phase === "split" || S.summary) { box.classList.add("hidden"); return; }
  const seats = v.config.partnership ? [me(), (me() + 2) % 4] : [me()];
  const h = seats.reduce((a, s) => a + v.piles[s][0], 0), vv = seats.reduce((a, s) => a + v.piles[s][1], 0);
  const done = v.tricks.length;
  const left = v.half === 1 ? Math.max(0, size().first - done) : Math.max(0, size().hand - done);
  const d = h - vv;
  let mark, meaning, cls;
  if (d === 0) { mark = t("balanced"); cls = "even"; meaning = t("If the round ended now you would score 0."); }
  else if (d > 0) { mark = t("H ahead by {n}", { n: d }); cls = "h"; meaning = t("If the round ended now you would score {n}: win V tricks in the second half to even it.", { n: d }); }
  else { mark = t("V ahead by {n}", { n: -d }); cls = "v"; meaning = t("If the round ended now you would score {n}: you have more V than H tricks.", { n: -d }); }
  box.classList.remove("hidden");
  box.dataset.h = h; box.dataset.v = vv; box.dataset.diff = d;
  box.innerHTML = `<span class="who">${esc(v.config.partnership ? t("Your team") : t("You"))}</span>` +
    `<span class="hv">H ${h} · V ${vv}</span>` +
    `<span class="left">${esc(t("{n} tricks left in this half", { n: left }))}</span>` +
    `<span class="marker ${cls}" id="balance-marker">${esc(mark)}</span>` +
    `<span class="meaning">${esc(meaning)}</span>`;
}

function renderHand(v) {
  const hand = $("hand"); hand.innerHTML = "";
  const packrow = $("packrow"); packrow.innerHTML = ""; packrow.classList.add("hidden");
  if (me() == null || v.is_over || S.summary) return;
  const splitting = v.phase === "split" && !v.split_done[me()];
  const legal = new Set(v.legal.map((a) => a.split("=")[0]));
  const hint = new Set(S.hint?.best.pack ?? []);
  for (const code of sortCards(v.hand, v.config.edition)) {
    const el = cardEl(code, { half: v.half, edition: v.config.edition, button: true });
    if (splitting) {
      el.dataset.legal = busy() ? "0" : "1";
      el.classList.toggle("selected", S.selected.has(code));
      el.classList.toggle("hint", hint.has(code));
      el.setAttribute("aria-pressed", S.selected.has(code) ? "true" : "false");
      if (busy()) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (busy()) return;
        S.selected.has(code) ? S.selected.delete(code) : S.selected.size < size().pack && S.selected.add(code);
        render();
      };
    } else {
      const ok = legal.has(code) && !busy();
      el.dataset.legal = ok ? "1" : "0";
      if (!ok) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (!ok) return;
        // a suit to declare only where the rules ask for one (not under wild_lead "next")
        if (v.legal.some((a) => a.startsWith(code + "="))) { S.declaring = code; render(); } else act(code);
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
    const title = v.config.partnership ? t("Pack from your partner (second half):") : t("Your second-half pack:");
    packrow.append(Object.assign(document.createElement("span"), { textContent: title }));
    for (const c of sortCards(shown, v.config.edition)) packrow.append(cardEl(c, { half: 2, edition: v.config.edition, small: true }));
  }
}

function button(text, props = {}) {
  return Object.assign(document.createElement("button"), { type: "button", textContent: text, ...props });
}

function renderPrompt(v) {
  const p = $("prompt"); p.innerHTML = ""; p.className = "prompt hidden"; p.id = "prompt";
  if (me() == null || v.is_over || S.summary) return;
  const show = (id) => { p.classList.remove("hidden"); p.dataset.kind = id; };
  if (v.phase === "split" && !v.split_done[me()]) {
    show("split");
    const k = size().pack;
    p.dataset.pack = k;
    const pick = k === 6 ? t("Pick 6 cards for the second half ({n}/6)", { n: S.selected.size })
      : t("Pick {k} cards for the second half ({n}/{k})", { n: S.selected.size, k });
    p.append(Object.assign(document.createElement("span"), { textContent: pick }));
    const go = button(k === 6 ? t("Keep these 6 for the second half") : t("Keep these {k} for the second half", { k }), { className: "primary", id: "split-go" });
    go.disabled = S.selected.size !== k || S.pending.size > 0;
    go.onclick = () => act("pack:" + [...S.selected].join(","));
    p.append(go);
    // the advisor advises on any ruleset's split, a variant's included
    const hint = button(t("Hint"), { id: "split-hint" });
    hint.onclick = () => send({ type: "advise", id: `adv-${S.counter++}`, pack: S.selected.size === k ? [...S.selected] : null });
    const useHint = button(t("Use hint"), { id: "split-use-hint" });
    hint.disabled = busy();
    useHint.disabled = !S.hint || busy(); useHint.onclick = () => { S.selected = new Set(S.hint.best.pack); render(); };
    p.append(hint, useHint);
    if (S.hint) p.append(Object.assign(document.createElement("div"), { className: "muted", id: "hint-text", textContent: hintText(S.hint) }));
  } else if (v.phase === "pile" && v.pending_pile === me()) {
    show("pile");
    p.append(Object.assign(document.createElement("span"), { textContent: v.config.variant ? t("You won with a special card: choose the pile for this trick") : t("You won with +½: choose the pile for this trick") }));
    for (const [a, label] of [["pile=1", t("H pile (first half)")], ["pile=2", t("V pile (second half)")]]) {
      const b = button(label, { className: "pile-choice" });
      b.dataset.action = a; b.disabled = busy(); b.onclick = () => act(a); p.append(b);
    }
  } else if (S.declaring) {
    show("declare");
    p.append(Object.assign(document.createElement("span"), { textContent: t("Lead {card}: declare the suit", { card: cardText(S.declaring) }) }));
    for (const s of "SHDC") {
      const b = button(SUIT_SYMBOL[s], { className: "declare-suit" });
      b.dataset.action = `${S.declaring}=${s}`; b.setAttribute("aria-label", t("declare {suit}", { suit: SUIT_SYMBOL[s] }));
      b.onclick = () => act(`${S.declaring}=${s}`); p.append(b);
    }
    const c = button(t("Cancel"), { id: "declare-cancel" });
    c.onclick = cancelDeclare; p.append(c);
  }
}

function sheetTable(v, { final = false } = {}) {
  const n = v.config.players, part = v.config.partnership;
  const head = `<tr><th>${esc(t("round"))}</th>${Array.from({ length: n }, (_, s) => `<th>${nameHtml(s)}</th>`).join("")}` +
    `${part ? `<th>${esc(t("teams"))}</th>` : ""}${v.victories ? `<th>${esc(t("victory"))}</th>` : ""}</tr>`;
  const rows = v.rounds.map((r, i) => {
    const vic = v.victories ? `<td>${r.victory == null ? "" : esc(part ? teamName(r.victory) : nameOf(r.victory))}</td>` : "";
    return `<tr><td>${i + 1}</td>${r.scores.map((x, s) => `<td title="H ${r.piles[s][0]} · V ${r.piles[s][1]}">${part ? `<span class="muted">${x}</span>` : x}</td>`).join("")}` +
      `${r.team_scores ? `<td>${r.team_scores.join(" : ")}</td>` : ""}${vic}</tr>`;
  }).join("");
  const win = new Set(v.winners);
  const tot = part ? "" : `<tr class="totals"><th>${esc(t("total"))}</th>${v.totals.map((x, s) => `<th class="${final && win.has(s) ? "win" : ""}">${x}</th>`).join("")}${v.victories ? "<td></td>" : ""}</tr>`;
  const vic = v.victories ? `<p class="victories">${esc(t("Victories"))}: ${v.victories.map((x, i) => `${esc(part ? teamName(i) : nameOf(i))} ${x}`).join(" · ")}</p>` : "";
  return `<table class="sheet">${head}${rows}${tot}</table>${vic}`;
}

// A seat's name for a narrow column: a bot's level on a line of its own, so that a
// wrap never leaves "(expert" on one line and ")" on the next.
function nameHtml(seat) {
  return esc(nameOf(seat)).replace(/\s*\(([^()]*)\)$/, (m, level) => ` <span class="lvl">${level}</span>`);
}

function renderSheet(v) { $("sheet").innerHTML = sheetTable(v); }

function trickLine(tr, edition) {
  const plays = tr.cards.map(([s, c]) => `${nameOf(s)} ${cardText(c, edition)}`).join(" · ");
  const declared = tr.declared ? ` (${t("suit named: {suit}", { suit: SUIT_SYMBOL[tr.declared] })})` : "";
  return { head: t("Trick {n}", { n: tr.n }), body: plays + declared, end: tr.pile ? takesText(tr) : "" };
}

function renderLog(v) {
  const log = $("log");
  log.innerHTML = "";
  const add = (cls, parts) => {
    const div = document.createElement("div");
    div.className = cls;
    for (const [c, text] of parts) if (text) div.append(Object.assign(document.createElement("span"), { className: c, textContent: text }));
    log.append(div);
  };
  let round = null;
  for (const e of S.log.slice(-160)) {
    if (e.k === "trick") {
      if (e.round !== round) { round = e.round; add("log-round", [["", t("Round {n}", { n: e.round })]]); }
      const l = trickLine(e, v.config.edition);
      add("log-trick", [["n", l.head], ["plays", l.body], ["takes", l.end]]);
    } else if (e.k === "pack") {
      add("log-note", [["", e.seat === me() ? t("You chose a pack") : t("{name} chose a pack", { name: nameOf(e.seat) })]]);
    } else if (e.k === "timeout") {
      add("log-note", [["", e.seat === me() ? t("time ran out: a bot played for you") : t("time ran out: a bot played for {name}", { name: nameOf(e.seat) })]]);
    } else if (e.k === "round") {
      const scores = e.scores.map((x, s) => `${nameOf(s)} ${x}`).join(" · ");
      add("log-end", [["", t("Round {n} over: {scores}", { n: e.round, scores })]]);
    } else if (e.k === "match") add("log-end", [["", t("Match {n} begins", { n: e.number })]]);
  }
  if (v.current_trick.length) {
    const l = trickLine({ cards: v.current_trick, n: v.tricks.length + 1, declared: null }, v.config.edition);
    add("log-trick live", [["n", l.head], ["plays", l.body + " …"]]);
  }
  log.scrollTop = log.scrollHeight;
}

function closeSummary() { S.summary = null; render(); }

// A rematch starts once every seated person has asked: who asked, who is awaited.
function askedRematch() {
  return S.rematch?.match === S.match && S.rematch.asked.includes(S.seat);
}

function rematchNote() {
  const r = S.rematch;
  if (!r || r.match !== S.match) return "";
  const names = (seats) => seats.map(nameOf).join(t(" and "));
  const text = askedRematch()
    ? t("Waiting for {names} to agree to a rematch.", { names: names(r.waiting) })
    : t("{names} asked for a rematch: press Rematch to play again.", { names: names(r.asked) });
  return `<p class="rematch-note" role="status">${esc(text)}</p>`;
}

// A rated match's end: each rated seat's new rating (? while provisional) and its change,
// fetched once the server has stored the update.
function ratingsNote() {
  if (!S.table?.rated || !S.match) return "";
  if (S.ratingsFor !== S.match) { S.ratingsFor = S.match; loadRatings(S.match, 0); }
  const r = S.ratings?.match === S.match ? S.ratings.changes : null;
  if (!r) return `<p id="ratings" class="muted">${esc(t("Ratings: being updated…"))}</p>`;
  const items = r.map((c) => {
    const d = c.after.ordinal - c.before.ordinal;
    return t("{name} {rating} ({change})", { name: nameOf(c.seat), rating: c.after.shown,
      change: `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)}` });
  });
  return `<p id="ratings" data-ready="1">${esc(t("Ratings: {list}", { list: items.join(", ") }))}</p>`;
}

async function loadRatings(match, tries) {
  try {
    const r = await api(`/api/matches/${encodeURIComponent(match)}/ratings`);
    if (r.pending && tries < 20) { setTimeout(() => loadRatings(match, tries + 1), 500); return; }
    S.ratings = { match, changes: r.changes };
    render();
  } catch { if (tries < 5) setTimeout(() => loadRatings(match, tries + 1), 2000); }
}

function renderSummary(v) {
  const box = $("summary");
  if (v.is_over) {
    const winners = v.winners.map(nameOf).join(t(" and "));
    box.classList.remove("hidden");
    box.className = "panel summary over";
    box.removeAttribute("role"); box.setAttribute("aria-labelledby", "match-over");
    const last = S.lastTrick ? `<div class="sum-trick"><h3>${esc(t("Last trick"))}</h3>${trickCards(S.lastTrick, v)}<p>${esc(takesText(S.lastTrick))}</p></div>` : "";
    box.innerHTML = `<h2 id="match-over">${esc(v.winners.length > 1 ? t("Match over — {names} win!", { names: winners }) : t("Match over — {names} wins!", { names: winners }))}</h2>` +
      `<div class="sum-grid"><div>${sheetTable(v, { final: true })}</div>${last}</div>` +
      rematchNote() + ratingsNote() +
      `<div class="row">${me() != null ? `<button class="primary" id="rematch" type="button"${askedRematch() ? " disabled" : ""}>${esc(t("Rematch"))}</button>` : ""}` +
      `<a id="download" href="/api/matches/${esc(S.match)}/record" download>${esc(t("Download the record"))}</a>` +
      `<a href="/history#${esc(S.match)}">${esc(t("Replay"))}</a></div>`;
    const b = $("rematch"); if (b) b.onclick = () => send({ type: "rematch", id: `rm-${S.counter++}` });
    return;
  }
  box.className = "panel summary";
  box.setAttribute("role", "dialog"); box.setAttribute("aria-labelledby", "round-over");
  if (!S.summary) { box.classList.add("hidden"); return; }
  const r = S.summary, part = v.config.partnership;
  const rows = r.piles.map((p, s) => `<tr><td>${nameHtml(s)}${part ? ` <span class="muted">${esc(teamName(s % 2))}</span>` : ""}</td><td>${p[0]}</td><td>${p[1]}</td><td>${part ? "" : r.scores[s]}</td></tr>`).join("");
  const teams = r.team_scores ? r.team_scores.map((x, i) => `<tr class="team"><td>${esc(teamName(i))}</td><td>${r.piles.filter((_, s) => s % 2 === i).reduce((a, p) => a + p[0], 0)}</td><td>${r.piles.filter((_, s) => s % 2 === i).reduce((a, p) => a + p[1], 0)}</td><td>${x}</td></tr>`).join("") : "";
  const vic = r.victory != null ? `<p class="victory">${esc(t("Round victory: {name}", { name: part ? teamName(r.victory) : nameOf(r.victory) }))}</p>` : "";
  const left = Math.max(0, Math.ceil((r.until - Date.now()) / 1000));
  box.classList.remove("hidden");
  box.innerHTML = `<h2 id="round-over">${esc(t("Round {n} over", { n: r.round }))}</h2>` +
    `<div class="sum-grid"><table class="sheet"><tr><th>${esc(t("player"))}</th><th>H</th><th>V</th><th>${esc(t("score"))}</th></tr>${rows}${teams}</table>` +
    (r.trick ? `<div class="sum-trick"><h3>${esc(t("Last trick"))}</h3>${trickCards(r.trick, v)}<p>${esc(takesText(r.trick))}</p></div>` : "") + `</div>${vic}` +
    `<div class="row"><button type="button" class="primary" id="summary-close">${esc(t("Next round"))}</button>` +
    `<span class="muted" id="summary-wait">${esc(t("The next deal in {s} s", { s: left }))}</span></div>`;
  $("summary-close").onclick = closeSummary;
  // the hand under the summary is gone: a keyboard player lands on its button
  if (!document.activeElement || document.activeElement === document.body) $("summary-close").focus({ preventScroll: true });
}

function trickCards(tr, v) {
  const row = document.createElement("div");
  row.className = "row trick-row";
  let before = null;
  const half = tr.n > size().first ? 2 : 1;
  for (const [s, c] of tr.cards) {
    const w = document.createElement("div");
    w.className = "mini" + (s === tr.winner ? " winner" : "");
    w.append(cardEl(c, { half, edition: v.config.edition, previous: before, small: true }));
    w.append(Object.assign(document.createElement("div"), { className: "who", textContent: nameOf(s) }));
    before = playedValue(c, half, v.config.edition, before);
    row.append(w);
  }
  return row.outerHTML;
}

function renderStatus(v) {
  let text;
  if (v.is_over) text = t("The match is over.");
  else if (S.summary) text = t("Round {n} is over.", { n: S.summary.round });
  else if (v.phase === "split") text = me() != null && !v.split_done[me()] ? (size().pack === 6 ? t("Choose your 6-card second-half pack.") : t("Choose your {k}-card second-half pack.", { k: size().pack })) : t("Waiting for the others to choose their packs…");
  else if (v.phase === "pile") text = v.pending_pile === me() ? (v.config.variant ? t("Choose the pile for the trick you won.") : t("Choose the pile for the trick you won with +½.")) : t("{name} chooses a pile…", { name: nameOf(v.pending_pile) });
  else text = v.to_move === me() ? (v.current_trick.length ? t("Your turn: follow.") : t("Your turn: lead.")) : t("{name} to play…", { name: nameOf(v.to_move) });
  const mine = !v.is_over && !S.summary && me() != null && (v.to_move === me() || v.pending_pile === me() || (v.phase === "split" && !v.split_done[me()]));
  if (mine && busy()) text = t("Sending your move…");
  $("status").textContent = text;
  $("status").dataset.turn = mine && !busy() ? "1" : "0";
  notifyTurn(mine && !busy());
}

// -- chat -------------------------------------------------------------------------------
const REACTION = { thumbs: () => "👍", gg: () => t("good game") };

// The seats this browser muted at this table: their lines are not shown.
const MUTED = `meio:muted:${tableId}`;
function muted() { try { return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]")); } catch { return new Set(); } }
function setMuted(seat, on) {
  const all = muted(); if (on) all.add(seat); else all.delete(seat);
  localStorage.setItem(MUTED, JSON.stringify([...all])); renderChat();
}
const chatButton = (label, cls, onclick) => Object.assign(document.createElement("button"), { type: "button", className: `chat-act ${cls}`, textContent: label, onclick });

function renderChat() {
  const box = $("chat-log");
  box.innerHTML = "";
  const hidden = muted();
  for (const m of S.chat) {
    if (hidden.has(m.seat)) continue;
    const div = document.createElement("div");
    div.className = `chat-msg ${m.kind}`;
    const who = Object.assign(document.createElement("span"), { className: "who", textContent: `${nameOf(m.seat)}: ` });
    const text = m.kind === "react" ? (REACTION[m.text]?.() ?? "") : m.text;
    div.append(who, Object.assign(document.createElement("span"), { className: "text", textContent: text }));
    // another seat's line: mute that seat here, or report the line to the operator
    if (me() != null && m.seat !== me()) {
      div.append(chatButton(t("Mute"), "mute", () => setMuted(m.seat, true)));
      if (m.kind === "text") {
        div.append(chatButton(t("Report"), "report", () => {
          if (send({ type: "report", id: `rp-${S.counter++}`, seat: m.seat, at: m.at })) toast(t("Reported: the server's operator will read it."));
        }));
      }
    }
    box.append(div);
  }
  for (const seat of hidden) {
    const note = Object.assign(document.createElement("div"), { className: "chat-msg muted-note" });
    note.append(Object.assign(document.createElement("span"), { className: "muted", textContent: t("You muted {name}.", { name: nameOf(seat) }) }),
      chatButton(t("Unmute"), "unmute", () => setMuted(seat, false)));
    box.append(note);
  }
  box.scrollTop = box.scrollHeight;
  const reader = me() == null;
  $("chat-form").classList.toggle("hidden", reader);
  $("chat-readonly").classList.toggle("hidden", !reader);
}

function setupChat() {
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    if (send({ type: "chat", id: `chat-${S.counter++}`, text })) $("chat-text").value = "";
  };
  for (const b of document.querySelectorAll("#chat-form .react")) {
    b.onclick = () => send({ type: "react", id: `re-${S.counter++}`, text: b.dataset.react });
  }
}

// A turn-based table: a browser notification when it becomes your turn while the page
// is not in view (the player turned it on: the Notification API asks their permission).
const NOTIFY = "meio:notify";
function notifyTurn(now) {
  if (now && S.wasTurn === false && localStorage.getItem(NOTIFY) === "1" && document.hidden &&
      "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn at MEIO"), { body: t("It is your turn to play."), tag: `meio-${tableId}` });
  }
  S.wasTurn = now;
}

function setupNotify() {
  const b = $("notify");
  const on = () => localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
  const draw = () => {
    b.classList.toggle("hidden", !S.table?.turn_based || !("Notification" in window));
    b.textContent = on() ? t("Notifications on (turn them off)") : t("Notify me when it is my turn");
    b.setAttribute("aria-pressed", on() ? "true" : "false");
  };
  b.onclick = async () => {
    if (on()) { localStorage.removeItem(NOTIFY); draw(); return; }
    const answer = await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(NOTIFY, "1");
    else toast(t("The browser did not allow notifications."));
    draw();
  };
  S.drawNotify = draw;
}

// seconds as a turn-based clock says them: hours and minutes when there are many
function clock(left) {
  if (left >= 3600) return t("{h} h {m} min", { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  if (left >= 120) return t("{m} min", { m: Math.floor(left / 60) });
  return `${left}s`;
}

setInterval(() => {
  const el = $("timer");
  if (S.summary && $("summary-wait")) {
    $("summary-wait").textContent = t("The next deal in {s} s", { s: Math.max(0, Math.ceil((S.summary.until - Date.now()) / 1000)) });
  }
  if (!S.deadline || !S.view || S.view.is_over) { el.textContent = ""; return; }
  const left = Math.max(0, Math.round(S.deadline - (Date.now() + S.skew) / 1000));
  el.textContent = `⏱ ${clock(left)}`;
  S.drawNotify?.();
}, 500);

// -- joining ----------------------------------------------------------------------------
async function showJoin(invite) {
  let tb;
  try {
    tb = await api(`/api/tables/${encodeURIComponent(tableId)}?key=${encodeURIComponent(invite)}`);
  } catch (e) {
    showProblem(e.code === "no_table" || e.status === 404 ? "no_table" : "bad_invite");
    return;
  }
  S.table = tb;
  if (tb.key !== "invite") { showProblem("bad_invite"); return; }
  if (!tb.free_seats.length) { showProblem("full"); return; }
  // the invite opens the spectator link too: kept with the seat, to pass on
  const spectate = tb.spectate;
  const offer = (seats) => {
    $("join-seat").innerHTML = seats.map((s) => `<option value="${s}">${esc(t("seat {n}", { n: s + 1 }))}</option>`).join("");
  };
  $("join").classList.remove("hidden");
  $("join-rated").classList.toggle("hidden", !tb.rated);
  const withBots = tb.rated && tb.seats.some((s) => s.kind === "bot");
  $("join-agree-row").classList.toggle("hidden", !withBots);
  $("join-agree").required = withBots;
  offer(tb.free_seats);
  render();
  const name = localStorage.getItem("meio:name"); if (name) $("join-name").value = name;
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      const res = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { invite, name: $("join-name").value, seat: Number($("join-seat").value), agree_rated: $("join-agree").checked } });
      localStorage.setItem("meio:name", $("join-name").value);
      saveSeat(tableId, { token: res.token, seat: res.seat, name: $("join-name").value, invite, spectate });
      $("join").classList.add("hidden");
      S.token = res.token; connect();
    } catch (e) {
      if (e.code === "full") { showProblem("full"); return; }
      if (e.code === "bad_invite") { showProblem("bad_invite"); return; }
      if (e.code === "seat_taken") {   // someone was quicker: offer the seats still free
        try { S.table = await api(`/api/tables/${encodeURIComponent(tableId)}?key=${encodeURIComponent(invite)}`); } catch { /* keep the old list */ }
        if (!S.table.free_seats.length) { showProblem("full"); return; }
        offer(S.table.free_seats);
      }
      toast(refusalText(e), 8000);
    }
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

async function main() {
  await loadLang();
  showAccount();
  const mine = mySeats()[tableId];
  restore();
  $("pace").value = localStorage.getItem("meio:pace") in PACES ? localStorage.getItem("meio:pace") : "normal";
  $("pace").onchange = () => localStorage.setItem("meio:pace", $("pace").value);
  $("last-trick").onclick = () => { S.showLast = !S.showLast; render(); };
  $("rules").querySelector("summary").addEventListener("click", () => { $("rules").dataset.touched = "1"; });
  $("rules-link").onclick = () => { $("rules").dataset.touched = "1"; $("rules").open = true; };
  setupChat();
  setupNotify();
  if (params.get("watch") && !(mine && params.get("as") === "player")) { S.spectate = params.get("watch"); connect(); }
  else if (mine?.token) { S.token = mine.token; S.seat = mine.seat ?? null; connect(); }
  else if (params.get("invite")) showJoin(params.get("invite"));
  else {
    try { await api(`/api/tables/${encodeURIComponent(tableId)}`); showProblem("no_link"); }
    catch (e) { showProblem(e.status === 404 ? "no_table" : e.code === "private" ? "private" : "no_link"); }
  }
  for (const b of document.querySelectorAll("button.copy")) b.onclick = () => copyLink(b);
  render();
}
main();
