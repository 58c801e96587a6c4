// The site's own page for an address it does not have, in the visitor's language.
import { showAccount } from "./api.js";
import { loadLang } from "./i18n.js";

await loadLang();
showAccount();
