// The account page: sign in, create an account (the seats this browser holds go
// with it), sign out here or everywhere, change the password (the other browsers'
// sessions end), delete the account; add, list and remove
// passkeys, and sign in with one (the browser offers the passkeys it keeps for this
// site: no username asked).
import { api, esc, formMessages, myTokens, refusalText, showAccount, toast, usernameProblem } from "./api.js";
import { loadLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const PK = "/api/account/passkeys";
const passkeysWork = !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
const when = (at) => new Date(at * 1000).toLocaleString(document.documentElement.lang);

// what the browser or the authenticator refused (cancelled, timed out, no passkey)
function passkeyError(e) {
  if (e instanceof DOMException) return t("The browser or the authenticator did not go on with the passkey.");
  return refusalText(e);
}

async function listPasskeys() {
  const { passkeys } = await api(PK);
  $("pk-list").innerHTML = passkeys.length ? passkeys.map((k, i) =>
    `<li data-id="${esc(k.id)}"><span>${esc(t("Passkey {n}, added {time}", { n: i + 1, time: when(k.created_at) }))}` +
    `${k.last_used_at ? ` · ${esc(t("last used {time}", { time: when(k.last_used_at) }))}` : ""}</span> ` +
    `<button type="button" class="pk-remove">${esc(t("Remove"))}</button></li>`).join("")
    : `<li class="muted">${esc(t("No passkey yet."))}</li>`;
  for (const b of $("pk-list").querySelectorAll(".pk-remove")) {
    b.onclick = () => send(`${PK}/remove`, { id: b.closest("li").dataset.id }, () => listPasskeys());
  }
}

async function addPasskey() {
  try {
    const options = await api(`${PK}/register/options`, { method: "POST" });
    const cred = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
    await api(`${PK}/register`, { method: "POST", body: { credential: cred.toJSON() } });
    toast(t("The passkey is added."));
    await listPasskeys();
  } catch (e) { toast(passkeyError(e)); }
}

async function passkeySignIn() {
  try {
    const options = await api(`${PK}/sign-in/options`, { method: "POST" });
    const cred = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
    const out = await api(`${PK}/sign-in`, { method: "POST", body: { credential: cred.toJSON(), tokens: myTokens() } });
    show(out.account);
  } catch (e) { toast(passkeyError(e)); }
}

function show(account) {
  $("guest").classList.toggle("hidden", !!account);
  $("member").classList.toggle("hidden", !account);
  const link = $("nav-account");
  if (account) {
    $("a-who").textContent = t("Signed in as {name}", { name: account.username });
    $("a-profile").href = `/players/${encodeURIComponent(account.username)}`;
    link.textContent = account.username; link.dataset.signedIn = "1";
    if (passkeysWork) listPasskeys().catch((e) => toast(refusalText(e)));
  } else {
    link.textContent = t("Account"); delete link.dataset.signedIn;
  }
}

async function send(path, body, done) {
  try { const out = await api(path, { method: "POST", body }); done(out); }
  catch (e) {
    // a username the server refused: say what is wrong with it
    // (a validation error has no code; a refusal with one says its own reason)
    const user = e.status === 422 && !e.code && typeof body?.username === "string"
      && JSON.stringify(e.message).includes("username") ? usernameProblem(body.username) : "";
    toast(user || refusalText(e), 6000);
  }
}

async function main() {
  await loadLang();
  for (const el of document.querySelectorAll(".passkeys")) el.classList.toggle("hidden", !passkeysWork);
  $("l-passkey").onclick = passkeySignIn;
  $("pk-add").onclick = addPasskey;
  show(await showAccount());
  $("login").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/login", { username: $("l-user").value, password: $("l-pass").value, tokens: myTokens() },
      (out) => { $("l-pass").value = ""; show(out.account); });
  });
  // the browser's own messages, and what is wrong with a username, in the page's language
  formMessages($("signup"), { "s-user": usernameProblem });
  formMessages($("login"));
  formMessages($("delete"));
  formMessages($("password"));
  $("signup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/signup", { username: $("s-user").value, password: $("s-pass").value, tokens: myTokens() },
      (out) => { $("s-pass").value = ""; show(out.account); });
  });
  $("a-logout").onclick = () => send("/api/account/logout", undefined, () => show(null));
  $("a-logout-all").onclick = () => send("/api/account/logout-all", undefined, () => show(null));
  $("password").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/password", { password: $("c-pass").value, new_password: $("c-new").value }, (out) => {
      $("c-pass").value = ""; $("c-new").value = "";
      toast(t("The password is changed. Sessions signed out elsewhere: {n}.", { n: out.sessions_ended }), 6000);
    });
  });
  $("delete").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/delete", { password: $("d-pass").value }, () => {
      $("d-pass").value = ""; show(null); toast(t("Your account is deleted."));
    });
  });
}
main();
