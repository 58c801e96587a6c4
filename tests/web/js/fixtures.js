// Views and tables as the server sends them (engine/wire.py's view_json), small enough
// to write by hand: two players, classic, round 1, unless a test says otherwise.
import { createState } from "../../../src/meio/web/static/js/table/state.js";

export function view(over = {}) {
  return {
    config: { edition: "classic", players: 2, partnership: false, variant: null },
    seat: 0, round: 1, half: 1, phase: "play", trick_number: 1, to_move: 0, pending_pile: -1,
    current_trick: [], led_suit: null, tricks: [], piles: [[0, 0], [0, 0]], hand_sizes: [13, 13],
    split_done: [true, true], hand: ["3S", "7S", "QS"], pack: [], received: [], legal: ["3S", "7S", "QS"],
    rounds: [], totals: [0, 0], victories: null, winners: [], is_over: false, specials: [],
    ...over,
  };
}

export function table(over = {}) {
  return {
    seats: [
      { seat: 0, kind: "human", name: "Ana", filled: true, online: true },
      { seat: 1, kind: "bot", bot: "random", filled: true, online: true },
    ],
    free_seats: [], turn_timer_s: null, rated: false, quick: false, ...over,
  };
}

// A seated page's state with a snapshot taken: match "m1" at `seq`.
export function seated(v = view(), seq = 5) {
  const S = createState();
  Object.assign(S, { seat: 0, table: table(), match: "m1", seq, view: v, hello: true });
  return S;
}

// An event frame: `action` by `actor`, the view after it.
export function event(S, action, actor, v, more = {}) {
  return { type: "event", match: S.match, seq: S.seq + 1, action, actor, view: v, ...more };
}
