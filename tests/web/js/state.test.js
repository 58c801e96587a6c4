import { describe, expect, it } from "vitest";
import { busy, createState, myTurn, paceOf, PACES, receive, restore, saved } from "../../../src/meio/web/static/js/table/state.js";
import { event, seated, table, view } from "./fixtures.js";

const normal = { pace: PACES.normal, now: 1000 };
const instant = { pace: PACES.instant, now: 1000 };
// the first trick of round 1, won by seat 1 (the bot) for H
const TRICK = { cards: [[0, "3S"], [1, "KS"]], winner: 1, pile: 1, declared: null };

describe("receive", () => {
  it("takes a snapshot's view and number, and starts the log from its finished tricks", () => {
    const S = createState();
    const v = view({ tricks: [TRICK], piles: [[0, 1], [0, 0]] });
    expect(receive(S, { type: "snapshot", match: "m1", seq: 7, view: v }, normal)).toEqual([]);
    expect(S.view).toBe(v);
    expect(S.seq).toBe(7);
    expect(S.log).toEqual([{ k: "trick", round: 1, n: 1, ...TRICK }]);
  });

  it("ignores an event it has seen and reconnects on a gap", () => {
    const S = seated();
    const before = S.view;
    expect(receive(S, { ...event(S, "3S", 0, view()), seq: 5 }, normal)).toEqual([]);
    expect(S.view).toBe(before);
    expect(receive(S, { ...event(S, "3S", 0, view()), seq: 7 }, normal)).toEqual([{ do: "close" }]);
    expect(S.seq).toBe(5);
    expect(receive(S, { ...event(S, "3S", 0, view()), match: "m0" }, normal)).toEqual([{ do: "close" }]);
  });

  it("holds a finished trick for the pace's time, and not at all at instant pace", () => {
    const after = view({ tricks: [TRICK], piles: [[0, 0], [1, 0]], to_move: 1 });
    const S = seated();
    const fx = receive(S, event(S, "KS", 1, after, { trick: TRICK }), normal);
    expect(fx).toEqual([{ do: "hold", held: S.held, ms: PACES.normal.trick }]);
    expect(S.held.trick).toMatchObject({ ...TRICK, round: 1, n: 1 });
    expect(S.log.at(-1)).toMatchObject({ k: "trick", winner: 1 });
    const T = seated();
    expect(receive(T, event(T, "KS", 1, after, { trick: TRICK }), instant)).toEqual([]);
    expect(T.held).toBeNull();
    expect(T.lastTrick).toMatchObject({ winner: 1, n: 1 });
  });

  it("keeps a round's summary on the table, at most a quarter of a turn timer", () => {
    const r = { scores: [1, 2], piles: [[3, 4], [5, 1]], team_scores: null, victory: null };
    const after = view({ round: 2, phase: "split", rounds: [r], split_done: [false, false] });
    const S = seated();
    S.table = table({ turn_timer_s: 20 });
    const fx = receive(S, event(S, "KS", 1, after, { trick: TRICK, round_over: true }), normal);
    expect(fx).toContainEqual({ do: "summary", ms: 5000 });
    expect(S.summary).toMatchObject({ round: 1, scores: [1, 2], until: 6000 });
    expect(S.log.at(-1)).toEqual({ k: "round", round: 1, scores: [1, 2], team: null });
    // the trick of a round just over is its last one, numbered in the round it ended
    expect(S.lastTrick).toMatchObject({ round: 1, n: 13 });
  });

  it("sends a pack again at the new number when another seat's split overtook it", () => {
    const S = seated(view({ phase: "split", split_done: [false, false] }));
    S.pending.set("p1", { type: "act", id: "p1", seq: 5, action: "pack:3S,7S" });
    const snapshot = { match: "m1", seq: 6, view: view({ phase: "split", split_done: [false, true] }) };
    expect(receive(S, { type: "reject", id: "p1", code: "stale", snapshot }, normal)).toEqual([{ do: "resend", action: "pack:3S,7S" }]);
    expect(S.seq).toBe(6);
    expect(busy(S)).toBe(false);
  });

  it("says why a move was refused, with the engine's reason in the page's words", () => {
    const S = seated();
    const f = { type: "reject", id: "x", code: "illegal", reason: "must follow", reason_code: "no_such_code" };
    expect(receive(S, f, normal)).toEqual([{ do: "toast", text: "That move is not allowed: must follow" }]);
  });

  it("turns a lost table into its problem page and other errors into a toast", () => {
    const S = seated();
    expect(receive(S, { type: "error", code: "bad_token" }, normal)).toEqual([{ do: "problem", kind: "bad_token" }]);
    expect(receive(S, { type: "error", code: "what" }, normal)).toEqual([{ do: "toast", text: "The server did not understand that message." }]);
  });

  it("keeps only the chat's last 200 lines", () => {
    const S = seated();
    for (let i = 0; i < 205; i++) receive(S, { type: "chat", seat: 1, kind: "text", text: `m${i}` }, normal);
    expect(S.chat).toHaveLength(200);
    expect(S.chat[0].text).toBe("m5");
  });
});

describe("the page's own state", () => {
  it("survives a reload with the match as last drawn", () => {
    const S = seated();
    S.log = [{ k: "pack", seat: 1 }];
    const T = createState();
    restore(T, saved(S));
    expect(T).toMatchObject({ match: "m1", seq: 5, view: S.view, log: S.log });
    const U = createState();
    restore(U, "{not json");
    expect(U.view).toBeNull();
  });

  it("reads the pace this browser chose, and the tests' round wait", () => {
    const store = new Map([["meio:pace", "slow"], ["meio:round-ms", "0"]]);
    expect(paceOf({ getItem: (k) => store.get(k) ?? null })).toEqual({ trick: 2600, round: 0 });
    expect(paceOf({ getItem: () => null })).toEqual(PACES.normal);
  });

  it("knows whose turn it is: the mover, the +½ winner, every seat still to split", () => {
    expect(myTurn(seated(view({ to_move: 0 })))).toBe(true);
    expect(myTurn(seated(view({ to_move: 1 })))).toBe(false);
    expect(myTurn(seated(view({ phase: "pile", to_move: -1, pending_pile: 0 })))).toBe(true);
    expect(myTurn(seated(view({ phase: "split", to_move: -1, split_done: [false, true] })))).toBe(true);
    const spectator = seated(); spectator.seat = null;
    expect(myTurn(spectator)).toBe(false);
  });
});

describe("a finished trick held on the table", () => {
  it("gives way the moment the next card is led", () => {
    const S = seated();
    const after = view({ tricks: [TRICK], piles: [[0, 0], [1, 0]], to_move: 1 });
    receive(S, event(S, "KS", 1, after, { trick: TRICK }), normal);
    expect(S.held).not.toBeNull();
    // the bot that won leads at once: this seat must follow, and sees the lead
    const led = view({ tricks: [TRICK], current_trick: [[1, "9H"]], led_suit: "H", to_move: 0 });
    expect(receive(S, event(S, "9H", 1, led), normal)).toEqual([]);
    expect(S.held).toBeNull();
    expect(S.lastTrick).toMatchObject({ winner: 1 });
  });
});
