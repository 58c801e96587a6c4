// The table chat: seated players write, spectators read. A line is text only (set as
// textContent); a reaction travels as a code and reads in the page's language. Another
// seat's lines can be muted in this browser or reported to the server's operator.
// `ui.send(frame)` sends, `ui.toast(text)` tells.
import { t } from "../i18n.js";
import { nextId } from "./net.js";
import { nameOf } from "./text.js";

const $ = (id) => document.getElementById(id);
const REACTION = { thumbs: () => "👍", gg: () => t("good game") };

// The seats this browser muted at a table: their lines are not shown.
const mutedKey = (tableId) => `meio:muted:${tableId}`;
export function muted(tableId) {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey(tableId)) || "[]")); } catch { return new Set(); }
}
function setMuted(S, ui, seat, on) {
  const all = muted(ui.tableId);
  if (on) all.add(seat); else all.delete(seat);
  localStorage.setItem(mutedKey(ui.tableId), JSON.stringify([...all]));
  renderChat(S, ui);
}
const chatButton = (label, cls, onclick) => Object.assign(document.createElement("button"), { type: "button", className: `chat-act ${cls}`, textContent: label, onclick });

// What a chat line shows: a reaction in this page's words, a text as it was written.
export const chatText = (m) => (m.kind === "react" ? (REACTION[m.text]?.() ?? "") : m.text);

export function renderChat(S, ui) {
  const box = $("chat-log");
  box.innerHTML = "";
  const hidden = muted(ui.tableId);
  const me = S.seat;
  for (const m of S.chat) {
    if (hidden.has(m.seat)) continue;
    const div = document.createElement("div");
    div.className = `chat-msg ${m.kind}`;
    const who = Object.assign(document.createElement("span"), { className: "who", textContent: `${nameOf(S, m.seat)}: ` });
    div.append(who, Object.assign(document.createElement("span"), { className: "text", textContent: chatText(m) }));
    // another seat's line: mute that seat here, or report the line to the operator
    if (me != null && m.seat !== me) {
      div.append(chatButton(t("Mute"), "mute", () => setMuted(S, ui, m.seat, true)));
      if (m.kind === "text") {
        div.append(chatButton(t("Report"), "report", () => {
          if (ui.send({ type: "report", id: nextId(S, "rp"), seat: m.seat, at: m.at })) ui.toast(t("Reported: the server's operator will read it."));
        }));
      }
    }
    box.append(div);
  }
  for (const seat of hidden) {
    const note = Object.assign(document.createElement("div"), { className: "chat-msg muted-note" });
    note.append(Object.assign(document.createElement("span"), { className: "muted", textContent: t("You muted {name}.", { name: nameOf(S, seat) }) }),
      chatButton(t("Unmute"), "unmute", () => setMuted(S, ui, seat, false)));
    box.append(note);
  }
  box.scrollTop = box.scrollHeight;
  const reader = me == null;
  $("chat-form").classList.toggle("hidden", reader);
  $("chat-readonly").classList.toggle("hidden", !reader);
}

export function setupChat(S, ui) {
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    if (ui.send({ type: "chat", id: nextId(S, "chat"), text })) $("chat-text").value = "";
  };
  for (const b of document.querySelectorAll("#chat-form .react")) {
    b.onclick = () => ui.send({ type: "react", id: nextId(S, "re"), text: b.dataset.react });
  }
}
