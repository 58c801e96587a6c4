// Telling a player it is their turn when they are not looking: a browser notification
// at a turn-based table (the player turned it on; the Notification API asks them).
import { toast } from "../api.js";
import { t } from "../i18n.js";

const $ = (id) => document.getElementById(id);
const NOTIFY = "meio:notify";
let wasTurn = null;

// Call on every drawing with whether it is this seat's turn now.
export function notifyTurn(tableId, now) {
  if (now && wasTurn === false && localStorage.getItem(NOTIFY) === "1" && document.hidden &&
      "Notification" in window && Notification.permission === "granted") {
    new Notification(t("Your turn at MEIO"), { body: t("It is your turn to play."), tag: `meio-${tableId}` });
  }
  wasTurn = now;
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
