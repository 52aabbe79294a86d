// The seats this browser keeps (localStorage, this browser only): a guest's seat token per game,
// so that a reload, a changed URL or "#decisions" never loses the seat. The lobby and the game
// page share the key (the lobby offers "Resume", "My games" asks the server about each).
import { h } from "./dom.js";

const SEATS_KEY = "india1853.seats";

export function keptSeats() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(SEATS_KEY) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** Keep (or update) a game's seat token; other fields of the kept entry stay. */
export function keepSeat(gameId, token, seats, fields = {}) {
  try {
    const kept = keptSeats();
    kept[gameId] = { ...(kept[gameId] || {}), token, seats, ...fields };
    window.localStorage.setItem(SEATS_KEY, JSON.stringify(kept));
  } catch { /* storage refused (private mode): the link alone keeps the seat */ }
}

/** The token kept for a game, or null. */
export function keptToken(gameId) {
  const mine = keptSeats()[gameId];
  return mine && typeof mine.token === "string" && mine.token ? mine.token : null;
}

/** The kept seats as the body of POST /api/my-games. */
export function keptList() {
  return Object.entries(keptSeats())
    .filter(([, v]) => v && typeof v.token === "string" && v.token)
    .map(([game, v]) => ({ game, token: v.token }));
}

/** A guest's notice on the game page: the seat lives in this link (and in this browser);
 * keep the link to come back from another browser. Hidden once acknowledged. */
export function showKeepNotice(el, gameId, token, seat) {
  const mine = keptSeats()[gameId];
  if (!el || !token || (mine && mine.noticed)) return;
  const link = new URL(`/games/${encodeURIComponent(gameId)}#token=${encodeURIComponent(token)}`,
    window.location.href).href;
  const copy = h("button", { type: "button" }, "Copy the link");
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch {
      copy.textContent = "Select the link and copy it";
    }
  });
  const done = h("button", { type: "button" }, "I have kept it");
  done.addEventListener("click", () => {
    keepSeat(gameId, token, (keptSeats()[gameId] || {}).seats || seat, { noticed: true });
    el.hidden = true;
  });
  el.replaceChildren(
    h("span", {}, `Keep this link: it is ${seat ? `${seat}'s` : "your"} seat. This browser remembers it; `
      + "from another browser only the link (or signing in, for an account's seat) brings you back. "),
    h("code", { class: "keep-url" }, link), " ", copy, " ", done);
  el.hidden = false;
}
