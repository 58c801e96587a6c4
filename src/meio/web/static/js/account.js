// The account page: sign in, create an account (the seats this browser holds go
// with it), sign out here or everywhere, delete the account.
import { api, myTokens, refusalText, showAccount, toast } from "./api.js";
import { loadLang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function show(account) {
  $("guest").classList.toggle("hidden", !!account);
  $("member").classList.toggle("hidden", !account);
  const link = $("nav-account");
  if (account) {
    $("a-who").textContent = t("Signed in as {name}", { name: account.username });
    $("a-profile").href = `/players/${encodeURIComponent(account.username)}`;
    link.textContent = account.username; link.dataset.signedIn = "1";
  } else {
    link.textContent = t("Account"); delete link.dataset.signedIn;
  }
}

async function send(path, body, done) {
  try { const out = await api(path, { method: "POST", body }); done(out); }
  catch (e) { toast(refusalText(e)); }
}

async function main() {
  await loadLang();
  show(await showAccount());
  $("login").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/login", { username: $("l-user").value, password: $("l-pass").value, tokens: myTokens() },
      (out) => { $("l-pass").value = ""; show(out.account); });
  });
  $("signup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/signup", { username: $("s-user").value, password: $("s-pass").value, tokens: myTokens() },
      (out) => { $("s-pass").value = ""; show(out.account); });
  });
  $("a-logout").onclick = () => send("/api/account/logout", undefined, () => show(null));
  $("a-logout-all").onclick = () => send("/api/account/logout-all", undefined, () => show(null));
  $("delete").addEventListener("submit", (ev) => {
    ev.preventDefault();
    send("/api/account/delete", { password: $("d-pass").value }, () => {
      $("d-pass").value = ""; show(null); toast(t("Your account is deleted."));
    });
  });
}
main();
