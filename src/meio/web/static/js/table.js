// The table page. The server holds the whole game; every frame carries this seat's view.
// This module wires the page together: the socket (table/net.js) feeds frames to the
// state (table/state.js), and every change redraws the page from that state (board,
// hand, sheet, chat: one module each under table/). It also paces what just happened
// (a finished trick stays on the table a moment, a round's summary waits for a click or
// a few seconds) so that people can follow it.
//
// Plain ES modules, no build step: the browsers the site supports load them natively,
// the server ships the files as they are, and a test or a bug report reads the same
// code the browser ran.
import { api, mySeats, showAccount, toast } from "./api.js";
import { setVariant } from "./cards.js";
import { loadLang, t } from "./i18n.js";
import { rulesHtml } from "./rules.js";
import { endedRound, packing, previousTrick, renderBalance, renderBoard, timeLeft } from "./table/board.js";
import { renderChat, setupChat } from "./table/chat.js";
import { setupNotify, setupSound, turnCues } from "./table/cues.js";
import { copyLink, fillText, renderLinks, renderWaiting, showJoin, showProblem } from "./table/door.js";
import { cancelDeclare, focusKey, renderHand, renderPrompt, restoreFocus } from "./table/hand.js";
import { act, connect, resendPending, send } from "./table/net.js";
import { closeSummary, renderLog, renderSheet, renderSummary, summaryLeft } from "./table/sheet.js";
import { busy, createState, myTurn, paceOf, PACES, receive, restore, saved } from "./table/state.js";
import { sizeOf, statusText } from "./table/text.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const SAVE = `meio:view:${tableId}`;
const S = createState();
let drawNotify = null;

// What the parts of the page may ask of the whole.
const ui = {
  tableId, params, toast,
  render: () => render(),
  send: (msg) => send(S, msg),
  act: (action) => { act(S, action); render(); },
  sitDown: (token) => { S.token = token; open(); },
};

function open() {
  connect(S, tableId, {
    frame: onFrame,
    conn: (state) => { $("conn").textContent = state === "connecting" ? t("connecting…") : t("reconnecting…"); },
    refused: (code) => {
      $("conn").textContent = t("not allowed at this table");
      if (!S.problem) problem(code === 4404 ? "no_table" : S.token ? "bad_token" : "bad_code");
    },
  });
}

const problem = (kind) => showProblem(S, tableId, kind);

function onFrame(f) {
  const effects = receive(S, f, { pace: paceOf(localStorage) });
  let chatOnly = false;
  for (const e of effects) {
    if (e.do === "welcome") {
      $("conn").textContent = S.seat == null ? t("watching") : t("seat {n}", { n: S.seat + 1 });
      $("conn").dataset.seat = S.seat == null ? "" : String(S.seat);
      // resend what was not answered before the connection dropped (same ids: no doubles)
      resendPending(S);
    } else if (e.do === "close") { S.ws.close(); return; }
    else if (e.do === "problem") { problem(e.kind); return; }
    else if (e.do === "toast") toast(e.text, e.ms);
    else if (e.do === "top") window.scrollTo({ top: 0 });
    else if (e.do === "hold") hold(e.held, e.ms);
    else if (e.do === "summary") setTimeout(() => { if (S.summary && Date.now() >= S.summary.until - 50) closeSummary(S, ui); }, e.ms);
    else if (e.do === "resend") { ui.act(e.action); return; }
    else if (e.do === "chat") chatOnly = true;
  }
  if (chatOnly) { renderChat(S, ui); return; }
  sessionStorage.setItem(SAVE, saved(S));
  render();
}

// A finished trick stays on the table `ms`, then slides to its winner's box.
function hold(held, ms) {
  setTimeout(() => {
    if (S.held !== held) return;
    held.sweeping = true; render();
    setTimeout(() => { if (S.held === held) { S.held = null; render(); } }, 380);
  }, ms);
}

function render() {
  const v = S.view;
  if (S.problem) return;
  // the special cards of the variant played here (their values, suits, piles)
  setVariant(v?.config.variant ?? null);
  const focus = focusKey(S);
  $("waiting").classList.toggle("hidden", !!v);
  $("play").classList.toggle("hidden", !v);
  renderLinks(S, ui);
  renderRules(v);
  if (!v) { renderWaiting(S); return; }
  // what this page has seen, for tests and bug reports: the match and its last action
  $("play").dataset.match = S.match ?? ""; $("play").dataset.seq = S.seq;
  // choosing the pack: the hand drawn large, the pack built in the middle of the table
  $("play").classList.toggle("splitting", packing(S, v));
  // the summary of a round that is over closes by itself once the next round is under way
  if (S.summary && (v.tricks.length || v.current_trick.length || v.is_over)) S.summary = null;
  renderBoard(S, S.summary ? endedRound(v, S.summary, sizeOf(S).hand) : v);
  renderBalance(S, v); renderHand(S, v, ui); renderPrompt(S, v, ui);
  renderSheet(S, v); renderLog(S, v); renderSummary(S, v, ui); renderStatus(v);
  $("keys").classList.toggle("hidden", v.is_over || S.seat == null);
  $("last-trick").setAttribute("aria-pressed", S.showLast ? "true" : "false");
  $("last-trick").disabled = !previousTrick(S, v);
  restoreFocus(S, focus);
}

function renderStatus(v) {
  const mine = myTurn(S, v);
  $("status").textContent = mine && busy(S) ? t("Sending your move…") : statusText(S, v);
  $("status").dataset.turn = mine && !busy(S) ? "1" : "0";
  turnCues(tableId, mine && !busy(S));
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

// The clocks: the turn timer in the header and on the mover's box, the round summary's
// countdown, quick play's wait for players.
setInterval(() => {
  if (S.summary && $("summary-wait")) $("summary-wait").textContent = t("The next deal in {s} s", { s: summaryLeft(S) });
  if ($("fill-at") && S.table) $("fill-at").textContent = fillText(S.table);
  const left = timeLeft(S);
  $("timer").textContent = left ? `⏱ ${left}` : "";
  for (const el of document.querySelectorAll(".to-move[data-clock]")) el.textContent = left || t("to play");
  if (left) drawNotify?.();
}, 500);

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && S.declaring) cancelDeclare(S, ui);
});

async function main() {
  await loadLang();
  showAccount();
  const mine = mySeats()[tableId];
  restore(S, sessionStorage.getItem(SAVE));
  $("pace").value = localStorage.getItem("meio:pace") in PACES ? localStorage.getItem("meio:pace") : "normal";
  $("pace").onchange = () => localStorage.setItem("meio:pace", $("pace").value);
  $("last-trick").onclick = () => { S.showLast = !S.showLast; render(); };
  $("rules").querySelector("summary").addEventListener("click", () => { $("rules").dataset.touched = "1"; });
  $("rules-link").onclick = () => { $("rules").dataset.touched = "1"; $("rules").open = true; };
  setupChat(S, ui);
  drawNotify = setupNotify(S);
  setupSound();
  if (params.get("watch") && !(mine && params.get("as") === "player")) { S.spectate = params.get("watch"); open(); }
  else if (mine?.token) { S.token = mine.token; S.seat = mine.seat ?? null; open(); }
  else if (params.get("invite")) showJoin(S, ui, params.get("invite"));
  else {
    try { await api(`/api/tables/${encodeURIComponent(tableId)}`); problem("no_link"); }
    catch (e) { problem(e.status === 404 ? "no_table" : e.code === "private" ? "private" : "no_link"); }
  }
  for (const b of document.querySelectorAll("button.copy")) b.onclick = () => copyLink(b);
  render();
}
main();
