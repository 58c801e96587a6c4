// This seat's hand and the choice in front of it (the pack to keep, the pile for a +½
// trick, the suit a led wild names), with the keyboard: one Tab stop for the hand,
// arrows along it, and the focus kept across redraws. `ui` carries what a click does:
// `ui.act(action)`, `ui.send(frame)`, `ui.render()`.
import { cardEl, cardText, sortCards, SUIT_SYMBOL } from "../cards.js";
import { t } from "../i18n.js";
import { nextId } from "./net.js";
import { busy } from "./state.js";
import { hintText, sizeOf } from "./text.js";

const $ = (id) => document.getElementById(id);

// Every frame redraws the hand and the prompt, so the focused control is remembered by
// what it is (a card code, a button id or action) and focused again in the new drawing.
export function focusKey(S) {
  const el = document.activeElement;
  if (!el || el === document.body) return S.lostFocus;
  if (el.closest("#hand")) return { card: el.dataset.card, index: [...$("hand").children].indexOf(el) };
  if (el.closest("#prompt")) return { id: el.id, action: el.dataset.action, prompt: $("prompt").dataset.kind };
  if (el.closest("#summary")) return { id: el.id };
  return null;
}

export function restoreFocus(S, key) {
  S.lostFocus = null;
  if (!key || (document.activeElement && document.activeElement !== document.body)) return;
  const hand = [...$("hand").children];
  const prompt = $("prompt");
  let el = null;
  if (S.declaring) el = prompt.querySelector(".declare-suit");     // the next step of a lead
  else if (!prompt.classList.contains("hidden") && prompt.dataset.kind === "pile" && key.prompt !== "pile") el = prompt.querySelector(".pile-choice");
  else if (key.card) el = hand.find((c) => c.dataset.card === key.card) ?? hand[Math.min(key.index, hand.length - 1)];
  else if (key.action) el = prompt.querySelector(`[data-action="${key.action}"]`);
  else if (key.id) el = document.getElementById(key.id);
  if (!el && key.card === undefined && key.prompt) el = hand.find((c) => c.tabIndex === 0) ?? null;
  if (el && !el.disabled) {
    if (el.parentElement === $("hand")) {
      for (const c of hand) c.tabIndex = c === el ? 0 : -1;
      S.cursor = el.dataset.card;
    }
    el.focus({ preventScroll: true });
  } else S.lostFocus = key;  // nothing to focus yet (not our turn): try again on the next frame
}

// Arrow keys move along the hand (one Tab stop); Enter or Space presses the card.
function onHandKey(S, ev) {
  const cards = [...$("hand").children];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const to = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: cards.length - 1 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  const next = cards[(to + cards.length) % cards.length];
  for (const c of cards) c.tabIndex = c === next ? 0 : -1;
  S.cursor = next.dataset.card;
  next.focus();
}

// Back from the suit choice to the card that asked for it.
export function cancelDeclare(S, ui) {
  S.cursor = S.declaring; S.declaring = null; ui.render();
  const card = [...$("hand").children].find((c) => c.dataset.card === S.cursor);
  if (card) card.focus();
}

export function renderHand(S, v, ui) {
  const hand = $("hand"); hand.innerHTML = "";
  const packrow = $("packrow"); packrow.innerHTML = ""; packrow.classList.add("hidden");
  const me = S.seat;
  if (me == null || v.is_over || S.summary) return;
  const splitting = v.phase === "split" && !v.split_done[me];
  const legal = new Set(v.legal.map((a) => a.split("=")[0]));
  const hint = new Set(S.hint?.best.pack ?? []);
  for (const code of sortCards(v.hand, v.config.edition)) {
    const el = cardEl(code, { half: v.half, edition: v.config.edition, button: true });
    if (splitting) {
      el.dataset.legal = busy(S) ? "0" : "1";
      el.classList.toggle("selected", S.selected.has(code));
      el.classList.toggle("hint", hint.has(code));
      el.setAttribute("aria-pressed", S.selected.has(code) ? "true" : "false");
      if (busy(S)) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (busy(S)) return;
        if (S.selected.has(code)) S.selected.delete(code);
        else if (S.selected.size < sizeOf(S).pack) S.selected.add(code);
        ui.render();
      };
    } else {
      const ok = legal.has(code) && !busy(S);
      el.dataset.legal = ok ? "1" : "0";
      if (!ok) el.setAttribute("aria-disabled", "true");
      el.onclick = () => {
        if (!ok) return;
        // a suit to declare only where the rules ask for one (not under wild_lead "next")
        if (v.legal.some((a) => a.startsWith(code + "="))) { S.declaring = code; ui.render(); } else ui.act(code);
      };
    }
    el.tabIndex = -1;
    el.onkeydown = (ev) => onHandKey(S, ev);
    hand.append(el);
  }
  // one Tab stop for the whole hand: the card last moved to, else the first playable one
  const cards = [...hand.children];
  const stop = cards.find((c) => c.dataset.card === S.cursor) ?? cards.find((c) => c.dataset.legal === "1") ?? cards[0];
  if (stop) stop.tabIndex = 0;
  const pack = v.phase === "split" ? [] : v.pack;
  if (v.half === 1 && (pack.length || v.received.length)) {
    packrow.classList.remove("hidden");
    const shown = v.config.partnership ? v.received : pack;
    const title = v.config.partnership ? t("Pack from your partner (second half):") : t("Your second-half pack:");
    packrow.append(Object.assign(document.createElement("span"), { textContent: title }));
    for (const c of sortCards(shown, v.config.edition)) packrow.append(cardEl(c, { half: 2, edition: v.config.edition, small: true }));
  }
}

function button(text, props = {}) {
  return Object.assign(document.createElement("button"), { type: "button", textContent: text, ...props });
}

export function renderPrompt(S, v, ui) {
  const p = $("prompt"); p.innerHTML = ""; p.className = "prompt hidden"; p.id = "prompt";
  const me = S.seat;
  if (me == null || v.is_over || S.summary) return;
  const show = (id) => { p.classList.remove("hidden"); p.dataset.kind = id; };
  if (v.phase === "split" && !v.split_done[me]) {
    show("split");
    const k = sizeOf(S).pack;
    p.dataset.pack = k;
    const pick = k === 6 ? t("Pick 6 cards for the second half ({n}/6)", { n: S.selected.size })
      : t("Pick {k} cards for the second half ({n}/{k})", { n: S.selected.size, k });
    p.append(Object.assign(document.createElement("span"), { textContent: pick }));
    const go = button(k === 6 ? t("Keep these 6 for the second half") : t("Keep these {k} for the second half", { k }), { className: "primary", id: "split-go" });
    go.disabled = S.selected.size !== k || busy(S);
    go.onclick = () => ui.act("pack:" + [...S.selected].join(","));
    p.append(go);
    // the advisor advises on any ruleset's split, a variant's included
    const hint = button(t("Hint"), { id: "split-hint" });
    hint.onclick = () => ui.send({ type: "advise", id: nextId(S, "adv"), pack: S.selected.size === k ? [...S.selected] : null });
    const useHint = button(t("Use hint"), { id: "split-use-hint" });
    hint.disabled = busy(S);
    useHint.disabled = !S.hint || busy(S);
    useHint.onclick = () => { S.selected = new Set(S.hint.best.pack); ui.render(); };
    p.append(hint, useHint);
    if (S.hint) p.append(Object.assign(document.createElement("div"), { className: "muted", id: "hint-text", textContent: hintText(S.hint) }));
  } else if (v.phase === "pile" && v.pending_pile === me) {
    show("pile");
    p.append(Object.assign(document.createElement("span"), { textContent: v.config.variant ? t("You won with a special card: choose the pile for this trick") : t("You won with +½: choose the pile for this trick") }));
    for (const [a, label] of [["pile=1", t("H pile (first half)")], ["pile=2", t("V pile (second half)")]]) {
      const b = button(label, { className: "pile-choice" });
      b.dataset.action = a; b.disabled = busy(S); b.onclick = () => ui.act(a); p.append(b);
    }
  } else if (S.declaring) {
    show("declare");
    p.append(Object.assign(document.createElement("span"), { textContent: t("Lead {card}: declare the suit", { card: cardText(S.declaring) }) }));
    for (const s of "SHDC") {
      // each suit in its own colour, as on the cards
      const b = button(SUIT_SYMBOL[s], { className: `declare-suit${s === "H" || s === "D" ? " red" : ""}` });
      b.dataset.action = `${S.declaring}=${s}`; b.setAttribute("aria-label", t("declare {suit}", { suit: SUIT_SYMBOL[s] }));
      b.onclick = () => ui.act(`${S.declaring}=${s}`); p.append(b);
    }
    const c = button(t("Cancel"), { id: "declare-cancel" });
    c.onclick = () => cancelDeclare(S, ui); p.append(c);
  }
}
