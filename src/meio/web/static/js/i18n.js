// Translations. English is the source language; another language's messages come from
// the server's gettext catalogue (PO files of the `web` domain, served as JSON).
// t(msgid, { name }) looks a message up and fills in its {name} placeholders.
// Elements marked data-i18n show the translation of their own English text, and
// data-i18n-title / -placeholder / -aria translate those attributes.
const KEY = "meio:lang";
export const LANGS = { en: "English", pt_BR: "Português (Brasil)" };
let messages = {};
// the engine's English template of each reason code a `reject` frame may carry
let reasons = {};
export let lang = "en";
// msgids looked up without a translation (the browser tests check that none are)
const missing = new Set();
window.meioMissing = missing;

// The language: the one picked with the switch, else the browser's first known one.
export function pickLang() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGS) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const low = l.toLowerCase();
    if (low.startsWith("pt")) return "pt_BR";
    if (low.startsWith("en")) return "en";
  }
  return "en";
}

export function t(id, params = {}) {
  let s = lang === "en" ? id : messages[id];
  if (s === undefined) { missing.add(id); s = id; }
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// The template (message id) of an engine reason code, or undefined.
export function reasonTemplate(code) {
  return Object.hasOwn(reasons, code) ? reasons[code] : undefined;
}

export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (el.dataset.i18nId === undefined) el.dataset.i18nId = el.textContent.trim().replace(/\s+/g, " ");
    el.textContent = t(el.dataset.i18nId);
  }
  for (const [attr, name] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAria", "aria-label"]]) {
    for (const el of root.querySelectorAll(`[data-${name === "aria-label" ? "i18n-aria" : "i18n-" + name}]`)) {
      el.setAttribute(name, t(el.dataset[attr]));
    }
  }
  const title = document.querySelector("title[data-i18n-doc]");
  if (title) document.title = `MEIO — ${t(title.dataset.i18nDoc)}`;
}

// The language switch, on every page's header.
function addSwitch() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("lang")) return;
  const sel = document.createElement("select");
  sel.id = "lang";
  sel.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGS)) {
    const o = document.createElement("option");
    o.value = code; o.textContent = name; o.lang = code === "pt_BR" ? "pt-BR" : "en";
    sel.append(o);
  }
  sel.value = lang;
  sel.onchange = () => { localStorage.setItem(KEY, sel.value); location.reload(); };
  header.append(sel);
}

// Load the catalogue, translate the page's fixed text and add the switch.
export async function loadLang() {
  lang = pickLang();
  document.documentElement.lang = lang === "pt_BR" ? "pt-BR" : "en";
  // English needs the reasons' templates too (its messages are the ids themselves)
  try {
    const res = await fetch(`/api/i18n/${lang}`);
    const body = await res.json();
    messages = body.messages || {};
    reasons = body.reasons || {};
  } catch { lang = "en"; messages = {}; reasons = {}; }
  translatePage();
  addSwitch();
}
