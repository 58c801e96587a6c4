// Small helpers shared by the pages: HTTP calls and the seats this browser holds.
export async function api(path, { method = "GET", body } = {}) {
  const res = await fetch(path, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    // the code (and its params) is what a page translates; the detail is the server's English
    throw Object.assign(new Error(detail || `${res.status} ${res.statusText}`),
      { status: res.status, code: data.code ?? null, params: data.params ?? {} });
  }
  return data;
}

const KEY = "meio:seats";
// { tableId: { token, seat, name } } kept in this browser only
export function mySeats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}
export function saveSeat(tableId, seat) {
  const all = mySeats(); all[tableId] = seat; localStorage.setItem(KEY, JSON.stringify(all));
}
export function myTokens() { return Object.values(mySeats()).map((s) => s.token); }

export function toast(text, ms = 3500) {
  let el = document.getElementById("toast");
  if (!el) { el = document.createElement("div"); el.id = "toast"; el.className = "toast"; el.setAttribute("role", "status"); document.body.append(el); }
  el.textContent = text; el.classList.remove("hidden");
  clearTimeout(el._t); el._t = setTimeout(() => el.classList.add("hidden"), ms);
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
