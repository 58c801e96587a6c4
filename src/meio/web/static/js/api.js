// Small helpers shared by the pages: HTTP calls and the seats this browser holds.
import { t } from "./i18n.js";
// The CSRF token of this browser's session (a cookie only this origin's pages read):
// a request the session cookie authorises carries it back, or the server refuses it.
function csrfToken() {
  const m = /(?:^|;\s*)meio_csrf=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}
export async function api(path, { method = "GET", body } = {}) {
  const headers = body ? { "Content-Type": "application/json" } : {};
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    // the code (and its params) is what a page translates; the detail is the server's English
    throw Object.assign(new Error(detail || `${res.status} ${res.statusText}`),
      { status: res.status, code: data.code ?? null, params: data.params ?? {},
        problems: Array.isArray(data.problems) ? data.problems : null });
  }
  return data;
}

const KEY = "meio:seats";
// { tableId: { token, seat, name } } kept in this browser only
export function mySeats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}
export function saveSeat(tableId, seat) {
  const all = mySeats(); all[tableId] = seat; localStorage.setItem(KEY, JSON.stringify(all));
}
export function myTokens() { return Object.values(mySeats()).map((s) => s.token); }

// A signed-in player's seat follows the account: on a table page this browser holds
// no seat of, the server gives it its own key to the account's seat there (if the
// account has one), before the page's script reads the seats. A guest's seats stay
// in the browser that took them. (Awaited at module load: the table page imports
// this module and reads mySeats() as it starts.)
export async function adoptAccountSeat(path = location.pathname) {
  const m = /^\/t\/([A-Za-z0-9_-]{1,32})$/.exec(path);
  if (!m || mySeats()[m[1]] || !csrfToken()) return null;
  try {
    const res = await api(`/api/tables/${m[1]}/device`, { method: "POST" });
    const seat = { token: res.token, seat: res.seat, name: res.name, invite: res.invite, spectate: res.spectate };
    saveSeat(m[1], seat);
    return seat;
  } catch { return null; } // no seat of the account here: the page goes on as before
}
await adoptAccountSeat();

// What is wrong with a username, in the page's language ("" when nothing is).
export function usernameProblem(name) {
  const v = name.trim();
  if (!v) return t("Write a username.");
  const bad = [...new Set([...v].filter((c) => !/[\p{L}\p{N}_.-]/u.test(c)))];
  if (bad.length) {
    return t("A username has no {chars}: only letters, digits, '_', '-' and '.'.",
      { chars: bad.map((c) => (c === " " ? t("spaces") : `“${c}”`)).join(" ") });
  }
  if (v.length < 3 || v.length > 24) return t("A username is 3 to 24 characters long.");
  return "";
}

// The browser's own messages for a form's fields, in the page's language (Chromium
// writes them in its own otherwise); a field may add its own check.
export function formMessages(form, checks = {}) {
  for (const input of form.querySelectorAll("input, select, textarea")) {
    const check = () => {
      input.setCustomValidity("");
      const v = input.validity;
      const own = checks[input.id]?.(input.value) ?? "";
      input.setCustomValidity(v.valueMissing ? t("Fill in this field.")
        : v.tooShort ? t("Write at least {n} characters.", { n: input.minLength })
          : v.rangeUnderflow ? t("The least is {n}.", { n: input.min })
            : v.rangeOverflow ? t("The most is {n}.", { n: input.max })
              : v.stepMismatch || v.badInput ? t("Write a whole number.") : own);
    };
    input.addEventListener("input", check);
    input.addEventListener("invalid", check);
    check();
  }
}

export function toast(text, ms = 3500) {
  let el = document.getElementById("toast");
  if (!el) { el = document.createElement("div"); el.id = "toast"; el.className = "toast"; el.setAttribute("role", "status"); document.body.append(el); }
  el.textContent = text; el.classList.remove("hidden");
  clearTimeout(el._t); el._t = setTimeout(() => el.classList.add("hidden"), ms);
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// An HTTP refusal in the page's language, by its code (the server's words are English).
export function refusalText(e) {
  const seat = e.params?.seat;
  const known = {
    full: () => t("Every seat of this table is taken."),
    seat_taken: () => t("Seat {n} is not free any more: pick another.", { n: seat }),
    no_seat: () => t("There is no seat {n} at this table.", { n: seat }),
    bad_invite: () => t("This invite link is not valid for this table."),
    no_table: () => t("There is no such table"),
    no_match: () => t("There is no such match: it may have been played on another server."),
    not_finished: () => t("The record of a match is published once the match is over."),
    closed: () => t("This table is closed: start a new one in the lobby."),
    username_taken: () => t("This username is taken: choose another."),
    bad_login: () => t("Wrong username or password."),
    // a throttled sign-in says how long to wait; the other limits a minute
    rate_limited: () => (e.params?.seconds
      ? t("Too many wrong passwords from your address: try again in {n} s.", { n: e.params.seconds })
      : t("Too many attempts: wait a minute and try again.")),
    username_confusable: () => t("This username looks like one that is taken (the same letters from another alphabet, or letters drawn alike): choose another."),
    weak_password: () => t("This password is too easy to guess: make it longer, with words that are not common and not your username."),
    too_many_quick_seats: () => t("You already have {n} quick-play seats waiting or in play: finish or leave one first.", { n: e.params?.seats }),
    csrf: () => t("This page is out of date: reload it and try again."),
    cross_site: () => t("This page is out of date: reload it and try again."),
    not_signed_in: () => t("You are not signed in."),
    sign_in_to_rate: () => t("A rated table seats signed-in players only: sign in on the Account page."),
    agree_rated: () => t("This rated table has bots: tick that you agree to a rated match with them."),
    already_seated: () => t("Your account already has a seat at this rated table."),
    no_player: () => t("There is no such player."),
    no_pool: () => t("There is no such kind of table."),
    bad_passkey: () => t("This passkey was not accepted here."),
    passkey_expired: () => t("The passkey request expired or was already answered: try again."),
    passkey_taken: () => t("This passkey is already registered."),
    no_passkey: () => t("This account has no such passkey."),
    too_many_passkeys: () => t("An account holds at most {n} passkeys: remove one first.", { n: e.params?.n }),
    bad_variant: () => t("The variant was not accepted: {reason}", { reason: e.message }),
    bad_username: () => t("This is not a username: a username is 3 to 24 letters, digits, '_', '-' and '.', with no spaces."),
    follow_self: () => t("You cannot follow yourself."),
    too_many_friends: () => t("You follow as many players as one may: stop following someone first."),
    not_following: () => t("You do not follow this player."),
    not_seated: () => t("Invite people to a table where you hold a seat."),
    already_there: () => t("This player has a seat at this table already."),
    no_invitation: () => t("This invitation is gone."),
    no_seat_here: () => t("Your account holds no seat at this table."),
    variant_unrated: () => t("A variant table is not rated: the ratings are for the standard editions."),
  }[e.code];
  if (known) return known();
  // the server's own words are English: the page says what the status means instead
  if (e.status === 429) return t("Too many tables or seats from your address: wait a minute.");
  if (e.status === 410) return t("This table is closed: start a new one in the lobby.");
  if (e.status === 422) return t("The server could not accept these choices: check them and try again.");
  if (e.status >= 500) return t("Something went wrong on the server; try again.");
  return t("The server refused: {reason}", { reason: e.message });
}

// The header's account link: the username when signed in ("Account" otherwise).
export async function showAccount() {
  const link = document.getElementById("nav-account");
  if (!link) return null;
  try {
    const { account } = await api("/api/account");
    if (account) {
      link.textContent = account.username; link.dataset.signedIn = "1";
      waiting();
      if (!showAccount.polling) showAccount.polling = setInterval(waiting, 30000);
    }
    return account;
  } catch { return null; }
}

// How many turns and invitations wait for a signed-in player, on the header's Lobby
// link of every page (asking also tells the server this player is online).
async function waiting() {
  const lobby = document.querySelector('header.top nav a[href="/"]');
  try {
    const { count } = await api("/api/notifications");
    if (!lobby) return;
    if (lobby.dataset.plain === undefined) lobby.dataset.plain = lobby.textContent;
    lobby.textContent = count ? `${lobby.dataset.plain} (${count})` : lobby.dataset.plain;
    if (count) lobby.setAttribute("aria-label", t("{page}: {n} waiting for you", { page: lobby.dataset.plain, n: count }));
    else lobby.removeAttribute("aria-label");
  } catch { /* the next look will tell */ }
}
