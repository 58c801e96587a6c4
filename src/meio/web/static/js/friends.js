// Friends: follow players by name, see who of them is online, invite them by name to
// a table where you hold a seat (the invitation waits in their lobby, on any device).
import { api, esc, formMessages, myTokens, refusalText, showAccount, toast, usernameProblem } from "./api.js";
import { loadLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
// the tables you may invite to: yours (a seat), open, with a seat free
let tables = [];

async function loadTables() {
  try {
    const mine = await api("/api/mine", { method: "POST", body: { tokens: myTokens() } });
    tables = mine.tables.filter((tb) => !tb.closed && tb.free_seats.length);
  } catch { tables = []; }
}

function tableLabel(tb) {
  return t("{edition}, {n} players, {free} free", { edition: tb.edition === "meio" ? "MEIO" : t("Classic"), n: tb.players, free: tb.free_seats.length });
}

async function loadFriends() {
  try {
    const { friends } = await api("/api/friends");
    const invite = tables.length ? `<select class="inv-table" data-i18n-aria="table">${tables.map((tb) =>
      `<option value="${esc(tb.id)}">${esc(tableLabel(tb))}</option>`).join("")}</select>` : "";
    $("friends").innerHTML = friends.length ? friends.map((f) =>
      `<div class="row" data-user="${esc(f.username)}"><a href="/players/${encodeURIComponent(f.username)}">${esc(f.username)}</a>` +
      `<span class="muted">${esc(f.online ? t("online") : t("away"))}${f.mutual ? ` · ${esc(t("follows you"))}` : ""}</span>` +
      (invite ? `<label class="field"><span>${esc(t("Invite to"))}</span> ${invite}</label><button type="button" class="invite">${esc(t("Invite"))}</button>` : "") +
      `<button type="button" class="unfollow">${esc(t("Stop following"))}</button></div>`).join("")
      : esc(t("You follow no one yet: write a player's username above."));
    for (const row of $("friends").querySelectorAll(".row[data-user]")) {
      const user = row.dataset.user;
      const sel = row.querySelector(".inv-table");
      if (sel) sel.setAttribute("aria-label", t("the table to invite {name} to", { name: user }));
      row.querySelector(".unfollow").onclick = async () => {
        try { await api(`/api/friends/${encodeURIComponent(user)}`, { method: "DELETE" }); } catch (e) { toast(refusalText(e)); }
        loadFriends();
      };
      const btn = row.querySelector(".invite");
      if (btn) btn.onclick = async () => {
        try {
          const res = await api(`/api/tables/${encodeURIComponent(sel.value)}/invitations`, { method: "POST", body: { username: user } });
          toast(res.new ? t("{name} is invited: it waits in their lobby.", { name: res.username }) : t("{name} was invited to this table already.", { name: res.username }));
        } catch (e) { toast(refusalText(e), 6000); }
      };
    }
  } catch (e) { toast(refusalText(e)); }
}

async function follow(ev) {
  ev.preventDefault();
  const input = $("f-name");
  $("f-problem").classList.add("hidden");
  try {
    const res = await api("/api/friends", { method: "POST", body: { username: input.value.trim() } });
    toast(res.new ? t("You follow {name}.", { name: res.username }) : t("You follow {name} already.", { name: res.username }));
    input.value = "";
    loadFriends();
  } catch (e) {
    $("f-problem").textContent = e.code === "bad_username" ? usernameProblem(input.value) || refusalText(e) : refusalText(e);
    $("f-problem").classList.remove("hidden");
  }
}

async function main() {
  await loadLang();
  const account = await showAccount();
  if (!account) return;
  $("signed-out").classList.add("hidden");
  $("signed-in").classList.remove("hidden");
  // the browser's own message for a name it refuses, in the page's language
  formMessages($("follow-form"), { "f-name": usernameProblem });
  $("follow-form").addEventListener("submit", follow);
  await loadTables();
  await loadFriends();
  setInterval(loadFriends, 30000);
}
main();
