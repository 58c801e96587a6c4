// The table page's state: what the server sent (the table, this seat's view, the chat)
// and what the page keeps of its own (the log, the trick held on the table a moment,
// the cards selected). `receive` folds one frame into it and returns what the page
// must do besides drawing (a toast, a timer, a closed socket): the socket, the timers
// and the drawing live in other modules, so this one is testable without them.
import { t } from "../i18n.js";
import { sizes } from "../rules.js";
import { nameOf, rejectText } from "./text.js";

// How long a finished trick stays on the table and a round's summary waits (ms).
// "instant" is for the impatient and for tests.
export const PACES = {
  slow: { trick: 2600, round: 15000 },
  normal: { trick: 1400, round: 10000 },
  instant: { trick: 0, round: 0 },
};

// The pace this browser chose; `meio:round-ms` overrides the summary's wait (tests).
export function paceOf(storage) {
  const p = PACES[storage.getItem("meio:pace")] ?? PACES.normal;
  const raw = storage.getItem("meio:round-ms");
  const round = Number(raw);
  return { ...p, round: raw !== null && Number.isFinite(round) ? round : p.round };
}

export function createState() {
  return {
    seat: null, token: null, spectate: null, table: null,
    match: null, rematch: null, seq: 0, view: null, log: [], lastTrick: null, deadline: null, skew: 0,
    pending: new Map(), selected: new Set(), hint: null, declaring: null, summary: null,
    ws: null, retry: 0, counter: 0, hello: false, newCard: null, cursor: null, lostFocus: null,
    held: null, showLast: false, chat: [], nextMatch: null, problem: null, ratings: null, ratingsFor: null,
  };
}

// What survives a reload of the page (sessionStorage): the match as last drawn.
export function saved(S) {
  return JSON.stringify({ match: S.match, seq: S.seq, view: S.view, log: S.log.slice(-300), lastTrick: S.lastTrick });
}

export function restore(S, text) {
  try {
    const d = JSON.parse(text || "null");
    if (d && d.view) {
      Object.assign(S, { match: d.match, seq: d.seq, view: d.view, lastTrick: d.lastTrick });
      S.log = (d.log || []).filter((e) => e && typeof e === "object");
    }
  } catch { /* start afresh */ }
}

// An action of ours is on its way: the seat waits for the server's answer, not a click.
export const busy = (S) => S.pending.size > 0;

// Whether this seat has something to do now (and the page waits for it).
export function myTurn(S, v = S.view) {
  const me = S.seat;
  if (!v || v.is_over || S.summary || me == null) return false;
  return v.to_move === me || v.pending_pile === me || (v.phase === "split" && !v.split_done[me]);
}

// A page opened mid-round writes the round's finished tricks into its log.
function seedLog(S, v) {
  v.tricks.forEach((tr, i) => { if (tr.pile) S.log.push({ k: "trick", round: v.round, n: i + 1, ...tr }); });
}

function setDeadline(S, f) {
  S.deadline = f.deadline ?? null;
  if (f.now) S.skew = f.now * 1000 - Date.now();
}

// Fold one frame into the state. Returns the effects for the page to carry out, each
// `{ do, ... }`: "welcome" (resend what is pending), "close" (the socket: reconnect and
// resume), "toast", "problem", "hold" (a finished trick stays `ms`), "summary" (a
// round's summary closes in `ms`), "resend" (an action again at the new number),
// "top" (scroll up: a rematch), "chat" (only the chat changed).
export function receive(S, f, { pace, now = Date.now() }) {
  const fx = [];
  switch (f.type) {
    case "welcome":
      S.hello = true; S.retry = 0; S.table = f.table; S.seat = f.seat;
      fx.push({ do: "welcome" });
      break;
    case "table": S.table = f.table; break;
    case "snapshot":
      if (f.match !== S.match) {
        S.log = S.nextMatch ? [{ k: "match", number: S.nextMatch }] : [];
        S.lastTrick = null; S.summary = null; S.held = null;
      }
      S.match = f.match; S.seq = f.seq; S.view = f.view; setDeadline(S, f);
      if (!S.log.length && f.view) seedLog(S, f.view);
      break;
    case "match":
      // a rematch: its snapshot follows and starts the log; the page goes back to the top
      S.nextMatch = f.number; S.lastTrick = null; S.summary = null; S.held = null;
      S.selected.clear(); S.hint = null; S.rematch = null;
      if (f.match !== S.match) fx.push({ do: "top" });
      break;
    case "event": onEvent(S, f, pace, now, fx); break;
    case "ack":
      S.pending.delete(f.id);
      // a rematch asked for: the others still have to agree
      if (f.waiting) S.rematch = { match: f.match, asked: [S.seat], waiting: f.waiting };
      break;
    case "rematch": S.rematch = { match: f.match, asked: f.asked, waiting: f.waiting }; break;
    case "reject": onReject(S, f, fx); break;
    case "advice":
      // the server's one advice error: the advisor failed (its words are English)
      if (f.error) fx.push({ do: "toast", text: t("No hint now: the advisor failed. Try again.") });
      else {
        S.hint = f;
        fx.push({ do: "toast", text: t("Hint: the highlighted cards make a balanced pack."), ms: 6000 });
      }
      break;
    case "chat": S.chat.push(f); S.chat = S.chat.slice(-200); fx.push({ do: "chat" }); break;
    case "chat_log": S.chat = f.messages; fx.push({ do: "chat" }); break;
    case "error": onError(f, fx); break;
    default: break;
  }
  return fx;
}

const PROBLEM_OF = { not_found: "no_table", bad_code: "bad_code", bad_token: "bad_token" };

// What an error frame means, in the page's language (the server's words are English).
function onError(f, fx) {
  if (f.code in PROBLEM_OF) { fx.push({ do: "problem", kind: PROBLEM_OF[f.code] }); return; }
  fx.push({ do: "toast", text: {
    rate_limited: t("Slow down: a few messages at a time."),
    too_large: t("That message is too long for the server."),
    internal: t("Something went wrong on the server; try again."),
  }[f.code] ?? t("The server did not understand that message.") });
}

function onEvent(S, f, pace, now, fx) {
  if (f.match !== S.match) { fx.push({ do: "close" }); return; }
  if (f.seq <= S.seq) return;                                    // already seen: never doubled
  if (f.seq !== S.seq + 1) { fx.push({ do: "close" }); return; }  // a gap: reconnect and resume
  const old = S.view;
  S.seq = f.seq; S.view = f.view; setDeadline(S, f);
  // a fresh lead is never hidden: the trick held on the table gives way to it at once
  if (S.held && f.view.current_trick.length) S.held = null;
  if (f.source === "timeout") {
    S.log.push({ k: "timeout", seat: f.actor });
    fx.push({ do: "toast", text: f.actor === S.seat ? t("You ran out of time: a bot played for you.")
      : t("{name} ran out of time: a bot played for them", { name: nameOf(S, f.actor) }) });
  }
  if (f.action === "pack" || f.action.startsWith("pack:")) S.log.push({ k: "pack", seat: f.actor });
  else if (!f.action.startsWith("pile=")) S.newCard = f.actor;
  if (f.trick && f.trick.pile) {
    const round = f.round_over ? old?.round ?? f.view.round - 1 : f.view.round;
    const n = f.round_over ? sizes(f.view.config).hand : f.view.tricks.length;
    S.lastTrick = { ...f.trick, round, n };
    S.log.push({ k: "trick", ...S.lastTrick });
    if (pace.trick > 0) {
      S.held = { trick: S.lastTrick, sweeping: false };
      fx.push({ do: "hold", held: S.held, ms: pace.trick });
    }
  }
  if (f.round_over && S.view.rounds.length) {
    const r = S.view.rounds[S.view.rounds.length - 1];
    S.log.push({ k: "round", round: S.view.rounds.length, scores: r.scores, team: r.team_scores });
    // with a turn timer the split's clock is already running: leave most of it to the split
    const timer = S.table?.turn_timer_s;
    const wait = timer ? Math.min(pace.round, timer * 250) : pace.round;
    if (!S.view.is_over && wait > 0) {
      S.summary = { round: S.view.rounds.length, ...r, trick: S.lastTrick, until: now + wait };
      fx.push({ do: "summary", ms: wait });
    }
    S.selected.clear(); S.hint = null;
  }
  if (old && old.phase === "split" && S.view.phase !== "split") S.selected.clear();
}

function onReject(S, f, fx) {
  const pend = S.pending.get(f.id);
  S.pending.delete(f.id);
  if (f.snapshot && f.snapshot.match === S.match && f.snapshot.seq >= S.seq) {
    S.seq = f.snapshot.seq; S.view = f.snapshot.view; setDeadline(S, f.snapshot);
  } else if (f.snapshot && f.snapshot.match !== S.match) { fx.push({ do: "close" }); return; }
  // a split made while another seat split is still good: send it again at the new number
  if (f.code === "stale" && pend && pend.action.startsWith("pack:") && S.view?.phase === "split" && !S.view.split_done[S.seat]) {
    fx.push({ do: "resend", action: pend.action });
    return;
  }
  fx.push({ do: "toast", text: rejectText(S, f) });
}
