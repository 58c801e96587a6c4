// The names of the rating pools (edition × table size × partnership) in the page's words.
import { t } from "./i18n.js";

export function poolName(key) {
  const m = /^(meio|classic)-(\d)p(-partners)?$/.exec(key);
  if (!m) return key;
  const parts = [m[1] === "meio" ? "MEIO" : t("Classic"), t("{n} players", { n: m[2] })];
  if (m[3]) parts.push(t("partnership"));
  return parts.join(" · ");
}
