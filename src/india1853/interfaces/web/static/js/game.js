// The game page: loads the game as this link's seat sees it, follows it live (server-sent
// events), renders the board, the decisions and the tables, and submits the chosen options.
import { api } from "./api.js";
import { Board } from "./board.js";
import { Cover } from "./cover.js";
import { Decisions } from "./decisions.js";
import { h, clear } from "./dom.js";
import { normalizeTurn } from "./model.js";
import {
  renderContract, renderKit, renderLog, renderMarket, renderPlayers, renderScores, renderShares, renderStatus,
  renderTrains,
} from "./panels.js";

const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const token = new URLSearchParams(window.location.hash.slice(1)).get("token");
const $ = (id) => document.getElementById(id);

const state = {
  data: null,        // the last GET /api/games/{id} answer
  shared: null,      // a shared screen (the hotseat link: several human seats); null: not known yet
  viewer: null,      // shared screen: the seat confirmed at it ("I am Ann"); null while covered
  asked: null,       // shared screen: the human seat to act next in the last covered answer
  askedAt: -1,       // shared screen: the last action id of that answer
  at: null,          // action number shown read-only, or null for the live game
  boardFor: null,    // the action id the board picture shows
  busy: false,
  behind: null,      // the newest action id announced while an action was on its way
  events: null,
};

const board = new Board($("board"), { onHex: (hex) => decisions.hexChosen(hex) });
const decisions = new Decisions({
  body: $("decision-body"), title: $("decisions-title"), board, act, dialog: $("secret-dialog"),
  preview: (action) => api.preview(gameId, token, action, state.data && state.data.seat),
});

const cover = new Cover($("cover"), { onConfirm: confirmed });

function showError(message) {
  const el = $("error");
  el.textContent = message;
  clearTimeout(showError.timer);
  if (message) showError.timer = setTimeout(() => { el.textContent = ""; }, 8000);
}

async function act(option) {
  if (state.busy || !state.data) return;
  state.busy = true;
  showError("");
  try {
    const seat = state.data.seat;
    // A shared screen asks for the covered answer: the next seat's view is never fetched
    // before that seat confirms.
    const data = await api.act(gameId, token, option.action, seat, state.shared);
    await follow(data, { force: true });
  } catch (err) {
    showError(err.message);
    await refresh();
  } finally {
    state.busy = false;
    // A change announced while this action was on its way (another seat, a bot) is fetched now.
    if (state.behind !== null && state.data && state.behind > state.data.last_action_id) refresh();
    state.behind = null;
  }
}

async function undo() {
  const d = state.data;
  if (!d || !d.can_undo) return;
  // The server names the undo this seat may take now (the entity of the last action in force).
  if (d.undo) await act({ action: d.undo });
}

async function refresh() {
  try {
    // The first answer (and every answer at a shared screen) is asked for covered: a seat's
    // own link gets its view all the same, the hotseat link the public view and next_seat.
    const data = await api.game(gameId, token, null, state.shared !== false);
    await follow(data, {});
  } catch (err) {
    showError(err.message);
  }
}

// --- a shared (hotseat) screen: "Pass to Ann" ----------------------------------------------

/** Shows an answer; at a shared screen (a covered answer), the confirmed seat's own view when
 * no other human seat has come to act since, else the cover for the seat that must act. */
async function follow(data, { force = false }) {
  if (!data.covered) {
    state.shared = false; // a seat's own link, or a spectator: nothing to cover
    await apply(data, { force });
    return;
  }
  state.shared = true;
  if (!force && data.last_action_id < state.askedAt) return; // answers crossed: an older one
  state.askedAt = data.last_action_id;
  const next = data.next_seat; // from the engine's active entities (null: no human must act)
  const passed = next !== null && next !== state.asked;
  if (next !== null) state.asked = next;
  if (data.seats.length === 1 && !cover.shown) state.viewer = data.seats[0]; // nobody to pass to
  const viewer = state.viewer;
  if (viewer !== null && !(passed && next !== viewer)) {
    await apply(await api.game(gameId, token, viewer), { force });
    return;
  }
  const seat = passed ? next : cover.seat ?? next ?? data.seats[0];
  let why = "No human seat must decide now."; // bots think, or the game is over
  if (next === seat) why = `${seat} decides next.`;
  else if (cover.seat === seat) why = null; // the seat menu's choice: its reason stays
  await covered(seat, data, why);
}

/** The cover for `seat`, with the public view (`data`, a covered answer) drawn under it. */
async function covered(seat, data, why) {
  state.viewer = null;
  cover.show(seat, why);
  decisions.selection = null; // a half-made choice (a hex, a MIK 2 card) is the last seat's
  cover.describe(data.turn ? `${data.turn.title} — ${data.turn.headline}` : "");
  await apply(data, { force: false });
}

async function confirmed(seat) {
  state.viewer = seat;
  try {
    await apply(await api.game(gameId, token, seat), { force: true });
    $("decisions").focus({ preventScroll: true });
  } catch (err) {
    showError(err.message);
  }
}

async function apply(data, { force }) {
  // A shared screen shows a seat's view only to the seat confirmed at it (an answer asked for
  // before the screen was covered is dropped).
  if (state.shared && data.seat && data.seat !== state.viewer) return;
  // Answers may cross: never go back to an older state of the same seat.
  if (!force && state.data && data.seat === state.data.seat
      && data.last_action_id < state.data.last_action_id) return;
  const changed = force || !state.data || state.data.last_action_id !== data.last_action_id
    || state.data.seat !== data.seat;
  state.data = data;
  if (state.at !== null) return; // history view stays put until "return"
  if (changed || state.boardFor !== data.last_action_id) {
    await loadBoard(null, data.last_action_id);
  }
  render(data.turn, { readOnly: false });
  loadLog();
}

async function loadBoard(at, id) {
  const svg = await api.boardSvg(gameId, at);
  board.show(svg);
  state.boardFor = at === null ? id : `at${at}`;
}

async function loadLog() {
  try {
    const data = await api.log(gameId, token);
    const entries = Array.isArray(data) ? data : data.actions || data.entries || [];
    renderLog($("log"), entries);
  } catch (err) {
    renderLog($("log"), [`(the log could not be loaded: ${err.message})`]);
  }
}

function render(rawTurn, { readOnly }) {
  const d = state.data;
  const turn = normalizeTurn(rawTurn);
  // The viewer decides now (the turn model lists decisions only for the seat's own entities).
  const mine = !readOnly && (turn.decisions || []).length > 0;
  document.title = `${mine ? "(Your turn) " : ""}1853 — ${turn.title}`;
  if (!readOnly) alertTurn(turn, mine);
  $("title").textContent = `${turn.title} · phase ${turn.phase}${readOnly ? ` · action ${state.at}` : ""}`;
  $("headline").textContent = turn.headline;
  document.body.dataset.viewer = readOnly || !d || !d.seat ? "" : d.seat;
  renderSeat(d, readOnly);
  decisions.update(turn, { readOnly });
  renderPlayers($("players"), turn);
  renderStatus($("status-strip"), turn);
  renderShares($("shares"), turn, { act, readOnly });
  renderMarket($("market"), turn);
  renderTrains($("trains"), turn);
  renderContract($("contract"), $("contract-body"), turn,
    { shared: Boolean(d && d.seats && d.seats.length > 1), player: (d && d.seat) || "" });
  renderKit($("kit"), $("kit-body"), turn,
    { seat: readOnly ? "" : (d && d.seat) || "", shared: Boolean(d && d.seats && d.seats.length > 1) });
  renderScores($("scores"), $("scores-body"), turn,
    turn.finished ? `/api/games/${encodeURIComponent(gameId)}/stats.svg` : null);
  if (!readOnly && d && d.bot_error) showError(d.bot_error); // the game waits for a failed bot
  $("undo").disabled = readOnly || !(d && d.can_undo);
  $("redo").disabled = readOnly || !(d && d.can_redo);
  $("undo").closest(".undo-row").hidden = !(d && d.seats && d.seats.length);
  $("history-at").max = String(d ? d.last_action_id : 0);
  if (!readOnly) $("history-at").value = String(d ? d.last_action_id : 0);
}

function renderSeat(d, readOnly) {
  const select = $("seat-select");
  const seats = (d && d.seats) || [];
  const name = $("seat-name");
  if (seats.length > 1 && !readOnly) {
    select.hidden = false;
    name.textContent = "";
    clear(select, seats.map((s) => h("option", { value: s, selected: s === d.seat }, s)));
    $("seat-label").hidden = false;
  } else {
    select.hidden = true;
    $("seat-label").hidden = true;
    name.textContent = readOnly ? "history" : d && d.seat ? d.seat : "spectator";
  }
}

$("seat-select").addEventListener("change", (event) => {
  const seat = event.target.value;
  if (!state.shared || seat === state.viewer) return;
  // Covered at once (the shown seat's secrets emptied), then the public view under the cover.
  state.viewer = null;
  cover.show(seat, `${seat} was chosen in the seat menu.`);
  decisions.selection = null;
  refresh();
});

// --- turn alerts: a sound and a browser notification, off unless switched on ---------------------

const ALERTS_KEY = "india1853.turn-alerts";
const alerts = { on: false, mine: null, audio: null };
try { alerts.on = window.localStorage.getItem(ALERTS_KEY) === "on"; } catch { /* storage blocked */ }
$("alerts-toggle").checked = alerts.on;
$("alerts-toggle").addEventListener("change", async (event) => {
  alerts.on = event.target.checked;
  try { window.localStorage.setItem(ALERTS_KEY, alerts.on ? "on" : "off"); } catch { /* not kept */ }
  if (!alerts.on) return;
  // Sound may start only after a gesture: this click is one.
  if (!alerts.audio && window.AudioContext) alerts.audio = new AudioContext();
  if (window.Notification && Notification.permission === "default") {
    try { await Notification.requestPermission(); } catch { /* refused: sound only */ }
  }
});

function beep() {
  const ctx = alerts.audio;
  if (!ctx) return;
  const tone = ctx.createOscillator();
  const gain = ctx.createGain();
  tone.frequency.value = 880;
  gain.gain.setValueAtTime(0.15, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.3);
  tone.connect(gain).connect(ctx.destination);
  tone.start();
  tone.stop(ctx.currentTime + 0.3);
}

/** When a decision becomes the viewer's (not on the page's first showing), and the alerts are
 * on: a short tone and a browser notification naming the decision. */
function alertTurn(turn, mine) {
  const becameMine = mine && alerts.mine === false;
  alerts.mine = mine;
  if (!becameMine || !alerts.on) return;
  beep();
  if (window.Notification && Notification.permission === "granted") {
    try {
      new Notification("1853: your turn", { body: turn.headline, tag: `india1853-${gameId}` });
    } catch { /* a browser without page notifications */ }
  }
  document.body.dataset.alerted = String(turn.next_id);
}

// --- history ---------------------------------------------------------------------------------

async function viewAt(n) {
  const last = state.data ? state.data.last_action_id : 0;
  if (!Number.isInteger(n) || n < 0 || n > last) {
    showError(`view at action: a whole number from 0 to ${last}`);
    return;
  }
  if (n === last && state.at === null) return;
  try {
    const data = await api.at(gameId, n);
    state.at = n;
    await loadBoard(n);
    render(data.turn || data, { readOnly: true });
    const banner = $("history-banner");
    banner.hidden = false;
    banner.textContent = `Viewing the game as it was after action ${n} of ${last} (read-only).`;
    $("history-live").hidden = false;
    $("history-at").value = String(n);
  } catch (err) {
    showError(err.message);
  }
}

async function returnLive() {
  state.at = null;
  $("history-banner").hidden = true;
  $("history-live").hidden = true;
  state.boardFor = null;
  await refresh();
}

$("history-form").addEventListener("submit", (event) => {
  event.preventDefault();
  viewAt(Number($("history-at").value));
});
$("history-back").addEventListener("click", () => {
  const current = state.at ?? (state.data ? state.data.last_action_id : 0);
  if (current > 0) viewAt(current - 1);
});
$("history-forward").addEventListener("click", () => {
  if (state.at === null) return;
  const last = state.data ? state.data.last_action_id : 0;
  if (state.at + 1 >= last) returnLive(); else viewAt(state.at + 1);
});
$("history-live").addEventListener("click", returnLive);

// --- board tools, undo, live updates ---------------------------------------------------------

$("zoom-in").addEventListener("click", () => board.setZoom(board.zoom * 1.25));
$("zoom-out").addEventListener("click", () => board.setZoom(board.zoom / 1.25));
$("zoom-fit").addEventListener("click", () => board.fit());
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", () => {
  if (state.data && state.data.redo) act({ action: state.data.redo });
});
$("board-hint").textContent = "Drag or scroll to pan; Ctrl+wheel or the buttons zoom.";

// A ticket opens one stream, so the browser's own reconnection (same URL) would be refused:
// on any error the page closes the stream and opens a new one with a new ticket, resuming
// after the last event it had (waiting longer after each failure, up to 30 s).
const RETRY_MS = { first: 1000, most: 30000 };

function listen() {
  if (!window.EventSource) return;
  let lastId = null;
  let retry = RETRY_MS.first;
  const open = async () => {
    let url;
    try {
      // A shared screen follows the public stream: each seat's view is fetched when confirmed.
      url = await api.eventsUrl(gameId, state.shared ? null : token, null, lastId);
    } catch {
      setTimeout(open, retry);
      retry = Math.min(retry * 2, RETRY_MS.most);
      return;
    }
    const source = new EventSource(url);
    source.addEventListener("open", () => { retry = RETRY_MS.first; });
    source.addEventListener("message", (event) => {
      let id = Number(event.lastEventId);
      try { id = JSON.parse(event.data).last_action_id ?? id; } catch { /* the id alone will do */ }
      if (Number.isInteger(id)) lastId = id;
      if (state.busy) state.behind = Math.max(state.behind ?? 0, id);
      else if (state.data && id !== state.data.last_action_id) refresh();
    });
    source.addEventListener("error", () => {
      source.close();
      if (state.events !== source) return;
      setTimeout(open, retry);
      retry = Math.min(retry * 2, RETRY_MS.most);
    });
    state.events = source;
  };
  open();
}

refresh().then(listen);
