// The lobby: play now, learn, your turn (with invitations and an e-mail-free reminder),
// then start a table (advanced options behind "More options") and find open ones.
import { api, esc, formMessages, mySeats, myTokens, refusalText, showAccount, saveSeat, toast } from "./api.js";
import { cardText, SPECIALS } from "./cards.js";
import { loadLang, t } from "./i18n.js";
import { poolName } from "./pools.js";
import { botLabel, optionHelp, seatName } from "./rules.js";

const $ = (id) => document.getElementById(id);
// the bot levels offered, weakest first ({ kind, name, strength }, from the server)
let levels = [{ kind: "random", name: "beginner", strength: "plays any allowed card at random" }];
// the level a new table's other seats start at: a table starts at once, against bots
const DEFAULT_BOT = "heuristic";
// the bot kinds that play a variant table (from the server)
let variantBots = ["random", "heuristic"];
// the file the variant text was loaded from (cleared when the text is edited by hand)
let variantFile = null;

// Whether the host gives a variant: then its edition and options are the variant's own.
function hasVariant() { return $("c-variant").value.trim() !== ""; }
// The levels a seat may be given: at a variant table, only those that play variants.
function offered() { return hasVariant() ? levels.filter((l) => variantBots.includes(l.kind)) : levels; }

function renderSeats() {
  const n = Number($("c-players").value);
  const box = $("c-seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const shown = offered();
  const fallback = shown.some((l) => l.kind === DEFAULT_BOT) ? DEFAULT_BOT : shown[0].kind;
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.className = "field seat";
    label.append(Object.assign(document.createElement("span"), { textContent: t("Seat {n}", { n: i + 1 }) }));
    const sel = document.createElement("select");
    sel.id = `c-seat-${i}`;
    sel.innerHTML = `<option value="human"></option>` +
      shown.map((l) => `<option value="bot:${esc(l.kind)}">${esc(botLabel(l.kind))}</option>`).join("");
    const was = old[i] && [...sel.options].some((o) => o.value === old[i]) ? old[i] : null;
    // a bot that does not play variants gives way to the default level
    sel.value = was || (old[i] || i !== 0 ? `bot:${fallback}` : "human");
    sel.addEventListener("change", nameHumanSeats);
    label.append(sel);
    box.append(label);
  }
  nameHumanSeats();
  $("c-levels").innerHTML = shown.map((l) =>
    `<li><strong>${esc(botLabel(l.kind))}</strong>: ${esc(t(l.strength))}</li>`).join("");
  $("c-partnership").disabled = n !== 4;
  if (n !== 4) $("c-partnership").checked = false;
  const variant = hasVariant();
  const meio = $("c-edition").value === "meio" && !variant;
  $("c-specials-box").classList.toggle("hidden", !meio);
  $("c-options").classList.toggle("hidden", !meio);
  // a variant has its own edition, and its tables are not rated
  $("c-edition").disabled = variant;
  $("c-rated").disabled = variant;
  if (variant) $("c-rated").checked = false;
  $("c-variant-help").classList.toggle("hidden", !variant);
  renderHelp();
}

// The creator sits at the first seat kept for a person: that one is "you".
function nameHumanSeats() {
  const sels = [...$("c-seats").querySelectorAll("select")];
  const first = sels.find((s) => s.value === "human");
  for (const s of sels) s.options[0].textContent = s === first ? t("you") : t("a person (invite them)");
}

function renderSpecials() {
  $("c-specials").innerHTML = SPECIALS.map((c) =>
    `<label class="chip"><input type="checkbox" value="${esc(c)}"> ${esc(cardText(c))}</label>`).join("");
  for (const box of $("c-specials").querySelectorAll("input")) {
    box.onchange = () => { document.querySelector('input[name="spmode"][value="pick"]').checked = true; };
  }
}

function renderHelp() {
  $("c-edition-help").textContent = optionHelp("edition", $("c-edition").value);
  $("c-partnership-help").textContent = optionHelp("partnership", true);
  $("c-wild-lead-help").textContent = optionHelp("wild_lead", $("c-wild-lead").value);
  $("c-reveal-help").textContent = optionHelp("reveal_specials", $("c-reveal").checked);
}

async function create(ev) {
  ev.preventDefault();
  const n = Number($("c-players").value);
  const seats = [...$("c-seats").querySelectorAll("select")].map((s) =>
    s.value === "human" ? { kind: "human" } : { kind: "bot", bot: s.value.slice(4) });
  const edition = $("c-edition").value;
  const pick = document.querySelector('input[name="spmode"]:checked').value === "pick";
  const specials = edition === "meio" && pick ? [...$("c-specials").querySelectorAll("input:checked")].map((i) => i.value) : null;
  const turnBased = $("c-turn-based").value;
  const timer = turnBased ? Number(turnBased) : $("c-timer").value ? Number($("c-timer").value) : null;
  const body = {
    edition, players: n, partnership: $("c-partnership").checked, specials, seats,
    turn_timer_s: timer, listed: $("c-listed").checked, name: $("c-name").value,
    rated: $("c-rated").checked, turn_based: !!turnBased,
  };
  if (hasVariant()) {
    // the variant sets the edition and the table options; its specials are drawn by its deck
    delete body.edition; body.specials = null; body.rated = false;
    body.variant = $("c-variant").value;
    if (variantFile) body.variant_file = variantFile;
  } else if (edition === "meio") { body.wild_lead = $("c-wild-lead").value; body.reveal_specials = $("c-reveal").checked; }
  showProblems(null);
  try {
    const res = await api("/api/tables", { method: "POST", body });
    saveSeat(res.table_id, { token: res.token, seat: res.seat, name: $("c-name").value,
      invite: res.invite, spectate: res.spectate });
    location.href = `/t/${res.table_id}`;
  } catch (e) {
    if (e.problems) showProblems(e.problems); else toast(refusalText(e));
  }
}

// A variant's problems, one a line, beside the form (the server's words: they name
// the file's keys, which are English).
function showProblems(problems) {
  const box = $("c-variant-problems");
  box.classList.toggle("hidden", !problems);
  box.innerHTML = problems ? `<strong>${esc(t("The variant has problems:"))}</strong><ul>` +
    problems.map((p) => `<li>${esc(p)}</li>`).join("") + "</ul>" : "";
  if (problems) box.scrollIntoView({ block: "nearest" });
}

// An uploaded variant file fills the text (which may then be edited).
async function loadVariantFile() {
  const file = $("c-variant-file").files[0];
  if (!file) return;
  if (file.size > 16384) { showProblems([t("{file}: {n} bytes; a variant is at most 16384 bytes of TOML", { file: file.name, n: file.size })]); return; }
  $("c-variant").value = await file.text();
  variantFile = file.name;
  showProblems(null);
  renderSeats();
}

function tableText(tb) {
  const parts = [tb.edition === "meio" ? "MEIO" : t("Classic"), t("{n} players", { n: tb.players })];
  if (tb.variant) parts.push(t("variant {name}: {hand} cards, {first} + {pack}", { name: tb.variant.name, hand: tb.variant.hand, first: tb.variant.first_half, pack: tb.variant.pack }));
  if (tb.partnership) parts.push(t("partnership"));
  if (tb.wild_lead === "next") parts.push(t("the next card sets the suit"));
  if (tb.reveal_specials === false) parts.push(t("hidden specials"));
  if (tb.rated) parts.push(t("rated"));
  if (tb.turn_based) parts.push(t("turn-based"));
  return parts.join(" · ");
}

async function loadLists() {
  try {
    const open = await api("/api/lobby");
    $("open").innerHTML = open.tables.length ? open.tables.map((tb) =>
      `<div class="row"><span>${esc(tableText(tb))} · ` +
      `${tb.seats.map((s) => esc(s.filled ? seatName(s) : t("free"))).join(", ")}</span>` +
      `<a href="${esc(tb.invite_url)}">${esc(t("join"))}</a></div>`).join("") : esc(t("No open table: start one."));
    const mine = await api("/api/mine", { method: "POST", body: { tokens: myTokens() } });
    const seats = mySeats();
    const status = { waiting: t("waiting"), playing: t("playing"), finished: t("finished") };
    $("mine").innerHTML = mine.tables.length ? mine.tables.map((tb) =>
      `<div class="row"><a href="/t/${esc(tb.id)}">${esc(tableText(tb))}</a>` +
      `<span class="muted">${esc(t("seat {n} as {name}", { n: tb.seat + 1, name: seats[tb.id]?.name ?? tb.seats[tb.seat]?.name ?? "" }))} · ${esc(status[tb.status] ?? tb.status)}</span></div>`).join("")
      : esc(t("None yet."));
    guestTurns = mine.tables.filter((tb) => tb.your_turn);
    drawTurns();
  } catch (e) { toast(refusalText(e)); }
}

// The tables where it is your turn: a guest's from this browser's seats, a signed-in
// player's from the server (on any device), with the invitations waiting for them.
let guestTurns = [];
let notes = { signed_in: false, invitations: [], your_turn: [], count: 0 };
let noted = null; // what was waiting at the last look (null: the page just opened)

function drawTurns() {
  const turns = [...notes.your_turn];
  for (const tb of guestTurns) if (!turns.some((x) => x.id === tb.id)) turns.push(tb);
  const inv = notes.invitations;
  const n = turns.length + inv.length;
  $("your-turn-box").classList.toggle("hidden", !n && !notes.signed_in);
  $("reminder").textContent = n ? t("{n} waiting for you: your turns and invitations follow your account to every device.", { n })
    : t("Nothing waits for you now. Your turns and invitations show here, on every device you sign in on.");
  document.title = (n ? `(${n}) ` : "") + document.title.replace(/^\(\d+\) /, "");
  $("invitations").innerHTML = inv.map((i) =>
    `<div class="row"><span>${esc(t("{name} invites you to a table: {table}", { name: i.from, table: tableText(i.table) }))}</span>` +
    `<a href="${esc(i.invite_url)}">${esc(t("join"))}</a>` +
    `<button type="button" data-decline="${esc(i.id)}">${esc(t("decline"))}</button></div>`).join("");
  for (const b of $("invitations").querySelectorAll("button[data-decline]")) {
    b.onclick = async () => {
      try { await api(`/api/invitations/${b.dataset.decline}`, { method: "DELETE" }); } catch (e) { toast(refusalText(e)); }
      loadNotes();
    };
  }
  $("your-turn").innerHTML = turns.map((tb) =>
    `<div class="row"><a href="/t/${esc(tb.id)}">${esc(tableText(tb))}</a>` +
    `<span class="muted">${esc(t("seat {n}", { n: tb.seat + 1 }))}${tb.deadline ? ` · ${esc(t("until {time}", { time: new Date(tb.deadline * 1000).toLocaleString(document.documentElement.lang) }))}` : ""}</span></div>`).join("");
  // a notification when something new waits while the page is out of view (the
  // permission is the one the table page asks for)
  const now = new Set([...turns.map((x) => `t:${x.id}`), ...inv.map((x) => `i:${x.id}`)]);
  const fresh = noted ? [...now].filter((k) => !noted.has(k)) : [];
  noted = now;
  if (fresh.length && document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("MEIO: {n} waiting for you", { n }));
  }
}

async function loadNotes() {
  try { notes = await api("/api/notifications"); } catch { /* keep the last look */ }
  drawTurns();
}

// Quick play: a seat at a table of the pool; rated (signed in) with people near your rating.
async function playNow(ev) {
  ev.preventDefault();
  const name = $("q-name").value.trim();
  localStorage.setItem("meio:name", name);
  try {
    const res = await api("/api/quick", { method: "POST", body: { pool: $("q-pool").value, wait_s: Number($("q-wait").value), name, rated: $("q-rated").checked } });
    saveSeat(res.table_id, { token: res.token, seat: res.seat, name, invite: res.invite, spectate: res.spectate });
    location.href = `/t/${res.table_id}`;
  } catch (e) { toast(refusalText(e), 6000); }
}

async function setupQuick(account) {
  try {
    const { pools } = await api("/api/ratings");
    $("q-pool").innerHTML = pools.map((p) => `<option value="${esc(p)}">${esc(poolName(p))}</option>`).join("");
    $("q-pool").value = "meio-4p";
  } catch { /* the form stays empty: creating a table still works */ }
  // a guest plays unrated; a signed-in player chooses (rated by default)
  $("q-rated").disabled = !account;
  $("q-rated").checked = !!account;
  $("q-name").value = localStorage.getItem("meio:name") || account?.username || "";
  $("quick-form").addEventListener("submit", playNow);
}

async function main() {
  await loadLang();
  const account = await showAccount();
  try {
    const bots = await api("/api/bots");
    levels = bots.levels; variantBots = bots.variant_bots ?? variantBots;
  } catch { /* keep the beginner */ }
  const name = localStorage.getItem("meio:name"); if (name) $("c-name").value = name;
  $("c-name").addEventListener("change", () => localStorage.setItem("meio:name", $("c-name").value));
  ["c-players", "c-edition"].forEach((id) => $(id).addEventListener("change", renderSeats));
  ["c-wild-lead", "c-reveal"].forEach((id) => $(id).addEventListener("change", renderHelp));
  $("c-variant-file").addEventListener("change", loadVariantFile);
  // typed text is no longer the uploaded file's; the seats follow whether there is one
  $("c-variant").addEventListener("input", () => { variantFile = null; renderSeats(); });
  renderSpecials();
  renderSeats();
  $("create").addEventListener("submit", create);
  setupQuick(account);
  formMessages($("quick-form")); formMessages($("create"));
  await loadLists();
  if (account) { await loadNotes(); setInterval(loadNotes, 30000); }
}
main();
