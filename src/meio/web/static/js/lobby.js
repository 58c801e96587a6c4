import { api, esc, mySeats, myTokens, saveSeat, toast } from "./api.js";
import { SPECIALS } from "./cards.js";

const $ = (id) => document.getElementById(id);
let botKinds = ["random"];

function renderSeats() {
  const n = Number($("c-players").value);
  const box = $("c-seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const sel = document.createElement("select");
    sel.id = `c-seat-${i}`;
    sel.setAttribute("aria-label", `seat ${i + 1}`);
    sel.innerHTML = `<option value="human">Seat ${i + 1}: human</option>` +
      botKinds.map((k) => `<option value="bot:${k}">Seat ${i + 1}: ${k} bot</option>`).join("");
    sel.value = old[i] || (i === 0 ? "human" : (i === 1 ? "human" : `bot:${botKinds[0]}`));
    box.append(sel);
  }
  $("c-partnership").disabled = n !== 4;
  if (n !== 4) $("c-partnership").checked = false;
  const sp = $("c-specials");
  sp.innerHTML = SPECIALS.map((c) => `<label class="row"><input type="checkbox" value="${esc(c)}"> ${esc(c)}</label>`).join("");
  $("c-specials-box").classList.toggle("hidden", $("c-edition").value !== "meio");
}

async function create(ev) {
  ev.preventDefault();
  const n = Number($("c-players").value);
  const seats = [...$("c-seats").querySelectorAll("select")].map((s) =>
    s.value === "human" ? { kind: "human" } : { kind: "bot", bot: s.value.slice(4) });
  const edition = $("c-edition").value;
  const pick = document.querySelector('input[name="spmode"]:checked').value === "pick";
  const specials = edition === "meio" && pick ? [...$("c-specials").querySelectorAll("input:checked")].map((i) => i.value) : null;
  const timer = $("c-timer").value ? Number($("c-timer").value) : null;
  try {
    const res = await api("/api/tables", { method: "POST", body: {
      edition, players: n, partnership: $("c-partnership").checked, specials, seats,
      turn_timer_s: timer, listed: $("c-listed").checked, name: $("c-name").value } });
    saveSeat(res.table_id, { token: res.token, seat: res.seat, name: $("c-name").value,
      invite: res.invite, spectate: res.spectate });
    location.href = `/t/${res.table_id}`;
  } catch (e) { toast(e.message); }
}

async function loadLists() {
  try {
    const open = await api("/api/lobby");
    $("open").innerHTML = open.tables.length ? open.tables.map((t) =>
      `<div class="row"><span>${esc(t.edition)} · ${t.players} players${t.partnership ? " · partnership" : ""} · ` +
      `${t.seats.map((s) => esc(s.filled ? s.name : "free")).join(", ")}</span>` +
      `<a href="${esc(t.invite_url)}">join</a></div>`).join("") : "no open table: start one";
    const mine = await api("/api/mine", { method: "POST", body: { tokens: myTokens() } });
    const seats = mySeats();
    $("mine").innerHTML = mine.tables.length ? mine.tables.map((t) =>
      `<div class="row"><a href="/t/${esc(t.id)}">${esc(t.edition)} · ${t.players} players</a>` +
      `<span class="muted">seat ${t.seat + 1} as ${esc(seats[t.id]?.name ?? "")} · ${esc(t.status)}</span></div>`).join("")
      : "none yet";
  } catch (e) { toast(e.message); }
}

async function main() {
  try { botKinds = (await api("/api/bots")).bots; } catch { /* keep random */ }
  const name = localStorage.getItem("meio:name"); if (name) $("c-name").value = name;
  $("c-name").addEventListener("change", () => localStorage.setItem("meio:name", $("c-name").value));
  ["c-players", "c-edition"].forEach((id) => $(id).addEventListener("change", renderSeats));
  renderSeats();
  $("create").addEventListener("submit", create);
  loadLists();
}
main();
