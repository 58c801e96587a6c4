// Telling a player it is their turn: a short sound (off until they turn it on; kept in
// the browser), the tab's title and icon while the tab is hidden, and a browser
// notification at a turn-based table (the Notification API asks their permission).
import { toast } from "../api.js";
import { t } from "../i18n.js";

const $ = (id) => document.getElementById(id);
const NOTIFY = "meio:notify";
const SOUND = "meio:sound";
let wasTurn = null;
let turnNow = false;
let audio = null;

// The tab's icon: the page's own (none), or a yellow dot while it is your turn.
const DOT = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><circle cx='8' cy='8' r='7' fill='#ffcc33' stroke='#1f5f3f' stroke-width='2'/></svg>");

// What the tab shows: its usual title, or "your turn" while hidden at your turn.
export function tabCue(hidden, turn, title) {
  const base = title.replace(/^● .*? — /, "");
  return hidden && turn ? { title: `● ${t("Your turn")} — ${base}`, icon: DOT } : { title: base, icon: "data:," };
}

function drawTab() {
  const cue = tabCue(document.hidden, turnNow, document.title);
  if (document.title !== cue.title) document.title = cue.title;
  const link = document.querySelector("link[rel=icon]");
  if (link && link.getAttribute("href") !== cue.icon) link.setAttribute("href", cue.icon);
}

// A short two-note chime, made on the spot (no file to fetch).
function chime() {
  try {
    audio ??= new AudioContext();
    const at = audio.currentTime;
    for (const [i, f] of [660, 880].entries()) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, at + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, at + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.12 + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(at + i * 0.12); osc.stop(at + i * 0.12 + 0.2);
    }
    window.meioChimes = (window.meioChimes ?? 0) + 1;   // for the tests: the cue was given
  } catch { /* no audio here: the other cues remain */ }
}

// Call on every drawing with whether it is this seat's turn now.
export function turnCues(tableId, now) {
  if (now && wasTurn === false) {
    if (localStorage.getItem(SOUND) === "1") chime();
    if (localStorage.getItem(NOTIFY) === "1" && document.hidden &&
        "Notification" in window && Notification.permission === "granted") {
      new Notification(t("Your turn at MEIO"), { body: t("It is your turn to play."), tag: `meio-${tableId}` });
    }
  }
  wasTurn = now; turnNow = now;
  drawTab();
}

// The sound switch: off by default, remembered in this browser.
export function setupSound() {
  const b = $("sound");
  const draw = () => b.setAttribute("aria-pressed", localStorage.getItem(SOUND) === "1" ? "true" : "false");
  b.onclick = () => {
    if (localStorage.getItem(SOUND) === "1") localStorage.removeItem(SOUND);
    else { localStorage.setItem(SOUND, "1"); chime(); }   // the click lets the page make sound
    draw();
  };
  draw();
  document.addEventListener("visibilitychange", drawTab);
}

// The notification switch (shown at turn-based tables); returns its redraw.
export function setupNotify(S) {
  const b = $("notify");
  const on = () => localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
  const draw = () => {
    b.classList.toggle("hidden", !S.table?.turn_based || !("Notification" in window));
    b.textContent = on() ? t("Notifications on (turn them off)") : t("Notify me when it is my turn");
    b.setAttribute("aria-pressed", on() ? "true" : "false");
  };
  b.onclick = async () => {
    if (on()) { localStorage.removeItem(NOTIFY); draw(); return; }
    const answer = await Notification.requestPermission();
    if (answer === "granted") localStorage.setItem(NOTIFY, "1");
    else toast(t("The browser did not allow notifications."));
    draw();
  };
  return draw;
}
