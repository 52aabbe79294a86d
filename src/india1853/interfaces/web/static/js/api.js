// The HTTP API of docs/web-api.md; every call returns parsed JSON or throws ApiError.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

// A signed-in write sends the session's CSRF token (the readable cookie; docs/web-api.md).
function csrfToken() {
  const found = document.cookie.split(";").map((c) => c.trim())
    .find((c) => c.startsWith("india1853_csrf="));
  return found ? decodeURIComponent(found.slice("india1853_csrf=".length)) : null;
}

async function call(method, url, { token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = method === "GET" ? null : csrfToken();
  if (csrf) headers["X-CSRF-Token"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const detail = data && data.detail !== undefined ? data.detail : text || response.statusText;
    throw new ApiError(response.status, typeof detail === "string" ? detail : JSON.stringify(detail));
  }
  return data;
}

// Any other call of the API (seatclock.js's seats, requests and votes).
export const request = call;

function query(seat, cover) {
  const q = new URLSearchParams();
  if (seat) q.set("seat", seat);
  if (cover) q.set("cover", "true");
  const text = q.toString();
  return text ? `?${text}` : "";
}

export const api = {
  listGames: () => call("GET", "/api/games"),
  variants: () => call("GET", "/api/variants"),
  createGame: (body) => call("POST", "/api/games", { body }),
  // Accounts and open seats (docs/web-api.md, "Accounts" and "Open games").
  account: () => call("GET", "/api/account"),
  signIn: (name, password) => call("POST", "/api/account/sign-in", { body: { name, password } }),
  signUp: (name, password) => call("POST", "/api/account/sign-up", { body: { name, password } }),
  signOut: () => call("POST", "/api/account/sign-out", { body: {} }),
  changePassword: (password, newPassword) => call("POST", "/api/account/password",
    { body: { password, new_password: newPassword } }),
  deleteAccount: (password) => call("POST", "/api/account/delete", { body: { password } }),
  createOpenGame: (body) => call("POST", "/api/open-games", { body }),
  openGames: () => call("GET", "/api/open-games"),
  openGame: (id) => call("GET", `/api/open-games/${encodeURIComponent(id)}`),
  join: (id, name) => call("POST", `/api/open-games/${encodeURIComponent(id)}/join`, { body: name ? { name } : {} }),
  start: (id, token, bot) => call("POST", `/api/open-games/${encodeURIComponent(id)}/start`, { token, body: { bot } }),
  myGames: (seats) => call("POST", "/api/my-games", { body: { seats } }),
  // `cover`: a shared (hotseat) screen asks for the covered answer (the public view and
  // `next_seat`) instead of a seat's view; a seat's own token gets its view as before.
  game: (id, token, seat, cover = false) =>
    call("GET", `/api/games/${encodeURIComponent(id)}${query(seat, cover)}`, { token }),
  act: (id, token, action, seat, cover = false) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/actions${query(seat, cover)}`, { token, body: action }),
  preview: (id, token, action, seat) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/preview${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`, { token, body: action }),
  // A run being drawn: each route so far and the engine's verdict (200 even when refused).
  runDraft: (id, token, action, seat) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/preview?draft=true${seat ? `&seat=${encodeURIComponent(seat)}` : ""}`, { token, body: action }),
  // The strong bot's advice for the seat (only its own view; 403 off, 409 not its decision).
  hint: (id, token, seat) =>
    call("GET", `/api/games/${encodeURIComponent(id)}/hint${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`, { token }),
  // `after`: only the lines after that action (the page keeps those it has).
  log: (id, token, after = 0) =>
    call("GET", `/api/games/${encodeURIComponent(id)}/log${after ? `?after=${after}` : ""}`, { token }),
  at: (id, n) => call("GET", `/api/games/${encodeURIComponent(id)}/at/${n}`),
  // The chat (social.js): a message written as the seat; a seat's own turn alerts.
  say: (id, token, text, seat) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/chat${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`, { token, body: { text } }),
  alerts: (id, token) => call("GET", `/api/games/${encodeURIComponent(id)}/alerts`, { token }),
  saveAlerts: (id, token, body) => call("PUT", `/api/games/${encodeURIComponent(id)}/alerts`, { token, body }),
  // The signed-in account's alerts: one webhook and e-mail address for all its seats.
  accountAlerts: () => call("GET", "/api/account/alerts"),
  saveAccountAlerts: (body) => call("PUT", "/api/account/alerts", { body }),
  // The board picture and its ETag (the live board's; the browser revalidates its copy).
  async boardSvg(id, at) {
    const url = `/api/games/${encodeURIComponent(id)}/board.svg${at === null || at === undefined ? "" : `?at=${at}`}`;
    const response = await fetch(url);
    if (!response.ok) throw new ApiError(response.status, `board: ${response.statusText}`);
    return { svg: await response.text(), etag: response.headers.get("ETag") };
  },
  // The event stream's address. A seat's stream opens with a single-use ticket asked for
  // with its token (in a header): a token never goes into a URL, where access logs keep it.
  async eventsUrl(id, token, seat, after) {
    const q = new URLSearchParams();
    if (token) {
      const path = `/api/games/${encodeURIComponent(id)}/stream-ticket${seat ? `?seat=${encodeURIComponent(seat)}` : ""}`;
      q.set("ticket", (await call("POST", path, { token })).ticket);
    }
    if (seat) q.set("seat", seat);
    if (after !== null && after !== undefined) q.set("after", String(after));
    return `/api/games/${encodeURIComponent(id)}/events?${q}`;
  },
};
