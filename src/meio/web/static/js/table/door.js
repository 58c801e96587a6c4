// Before and around the play: the links to pass on, the page that says why a link does
// not work, the wait for players, and taking a seat with an invite. `ui` carries the
// table's id and the page's `params`, `ui.render()` and `ui.sitDown(token)`.
import { api, esc, mySeats, refusalText, saveSeat, toast } from "../api.js";
import { t } from "../i18n.js";
import { nameOf } from "./text.js";

const $ = (id) => document.getElementById(id);

// The links to pass on: only codes this page knows are good (a wrong one has its page).
export function renderLinks(S, ui) {
  const { tableId, params } = ui;
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

export async function copyLink(button) {
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
export function showProblem(S, tableId, kind) {
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

// Quick play's wait as a countdown: the seconds before bots take the free seats.
export function fillText(table, now = Date.now()) {
  const s = Math.max(0, Math.ceil(table.fill_at - now / 1000));
  return t("Bots take the free seats in {s} s.", { s });
}

export function renderWaiting(S) {
  if (!S.table) return;
  // quick play: bots take the free seats when the wait is over
  const fill = S.table.quick && S.table.fill_at ? `<p id="fill-at" role="timer">${esc(fillText(S.table))}</p>` : "";
  $("waiting").innerHTML = `<h2>${esc(t("Waiting for players"))}</h2><p>${esc(t("The match starts when every seat is filled."))}</p>` + fill +
    S.table.seats.map((s) => `<div>${esc(t("Seat {n}:", { n: s.seat + 1 }))} ${s.filled ? esc(nameOf(S, s.seat)) : `<em>${esc(t("free"))}</em>`}</div>`).join("");
}

// An invite link opened: the form to take a free seat under a name.
export async function showJoin(S, ui, invite) {
  const { tableId } = ui;
  const problem = (kind) => showProblem(S, tableId, kind);
  let tb;
  try {
    tb = await api(`/api/tables/${encodeURIComponent(tableId)}?key=${encodeURIComponent(invite)}`);
  } catch (e) {
    problem(e.code === "no_table" || e.status === 404 ? "no_table" : "bad_invite");
    return;
  }
  S.table = tb;
  if (tb.key !== "invite") { problem("bad_invite"); return; }
  if (!tb.free_seats.length) { problem("full"); return; }
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
  ui.render();
  const name = localStorage.getItem("meio:name"); if (name) $("join-name").value = name;
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      const res = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, { method: "POST", body: { invite, name: $("join-name").value, seat: Number($("join-seat").value), agree_rated: $("join-agree").checked } });
      localStorage.setItem("meio:name", $("join-name").value);
      saveSeat(tableId, { token: res.token, seat: res.seat, name: $("join-name").value, invite, spectate });
      $("join").classList.add("hidden");
      ui.sitDown(res.token);
    } catch (e) {
      if (e.code === "full") { problem("full"); return; }
      if (e.code === "bad_invite") { problem("bad_invite"); return; }
      if (e.code === "seat_taken") {   // someone was quicker: offer the seats still free
        try { S.table = await api(`/api/tables/${encodeURIComponent(tableId)}?key=${encodeURIComponent(invite)}`); } catch { /* keep the old list */ }
        if (!S.table.free_seats.length) { problem("full"); return; }
        offer(S.table.free_seats);
      }
      toast(refusalText(e), 8000);
    }
  };
}
