// The one WebSocket to the server, which holds the whole game: hello (with the seat's
// token or the spectator code, and where this page left off), frames in, actions out.
// An action carries the number of the state it was made against and an id, so that a
// resend after a reconnect is never applied twice.

// Open the socket of `tableId`; `on.frame(f)` for each frame, `on.conn(text)` for the
// connection's state in words, `on.refused(code)` when the server closes it for good.
export function connect(S, tableId, on) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  S.ws = ws; S.hello = false;
  on.conn("connecting");
  ws.onopen = () => {
    const since = S.match && S.view ? { match: S.match, seq: S.seq } : null;
    ws.send(JSON.stringify(S.token ? { type: "hello", token: S.token, since } : { type: "hello", spectate: S.spectate, since }));
  };
  ws.onmessage = (m) => on.frame(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    if ([4403, 4404].includes(ev.code)) { on.refused(ev.code); return; }
    on.conn("reconnecting");
    const wait = Math.min(5000, 300 * 2 ** S.retry++);
    setTimeout(() => connect(S, tableId, on), wait);
  };
}

// Send a frame once the server has greeted this page; false when it could not.
export function send(S, msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN && S.hello) { S.ws.send(JSON.stringify(msg)); return true; }
  return false;
}

// A fresh id for a frame that asks something of the server (`kind`: a short prefix).
export const nextId = (S, kind) => `${kind}-${S.counter++}`;

// Make a move: remembered until the server answers (and resent after a reconnect).
export function act(S, action) {
  const id = `${S.seat}-${Date.now().toString(36)}-${S.counter++}`;
  const msg = { type: "act", id, seq: S.seq, action };
  S.pending.set(id, msg);
  send(S, msg);
  S.declaring = null; S.showLast = false;
}

// After a (re)connection: what was not answered goes again, with the same ids.
export function resendPending(S) {
  for (const msg of S.pending.values()) S.ws.send(JSON.stringify(msg));
}
