// The game page: loads the game as this link's seat sees it, follows it live (server-sent
// events), renders the board, the decisions and the tables, and submits the chosen options.
import { api } from "./api.js";
import { Board } from "./board.js";
import { Cover } from "./cover.js";
import { Decisions } from "./decisions.js";
import { h, clear } from "./dom.js";
import { normalizeTurn } from "./model.js";
import { AlertSettings, Chat } from "./social.js";
import { Seats } from "./seatclock.js";
import {
  renderContract, renderKit, renderLog, renderMarket, renderPlayers, renderScores, renderShares, renderStatus,
  renderTrains, shareOptions,
} from "./panels.js";
import { keptToken, showKeepNotice } from "./seats.js";

const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
// The seat's token: the link's, else the one this browser keeps for the game (a reload after
// "#decisions", or a URL without it, keeps the seat); none: an account's seat (its session
// cookie) or a spectator.
const token = new URLSearchParams(window.location.hash.slice(1)).get("token") || keptToken(gameId);
const $ = (id) => document.getElementById(id);

const state = {
  data: null,        // the last GET /api/games/{id} answer
  shared: null,      // a shared screen (the hotseat link: several human seats); null: not known yet
  viewer: null,      // shared screen: the seat confirmed at it ("I am Ann"); null while covered
  asked: null,       // shared screen: the human seat to act next in the last covered answer
  askedAt: -1,       // shared screen: the last action id of that answer
  at: null,          // action number shown read-only, or null for the live game
  boardFor: null,    // the action id the board picture shows
  boardEtag: null,   // the live board picture's ETag (null: a history picture, or none yet)
  log: [],           // the log lines received so far (each later one asked for alone)
  logDrawn: false,   // the log shown is state.log (not an error line, not yet drawn)
  busy: false,
  behind: null,      // the newest action id announced while an action was on its way
  events: null,
  hinting: false,    // a hint is being computed
  hintFor: null,     // "seat@action id" of the hint line shown
};

const board = new Board($("board"), { onHex: (hex) => decisions.hexChosen(hex) });
const decisions = new Decisions({
  body: $("decision-body"), title: $("decisions-title"), board, act, dialog: $("secret-dialog"),
  preview: (action) => api.preview(gameId, token, action, state.data && state.data.seat),
  previewRun: (action) => api.runDraft(gameId, token, action, state.data && state.data.seat),
});

const cover = new Cover($("cover"), { onConfirm: confirmed });
const chat = new Chat({
  list: $("chat-log"), form: $("chat-form"), input: $("chat-text"), status: $("chat-status"), gameId, token,
});
const alertSettings = new AlertSettings({
  card: $("alert-settings"), form: $("alert-form"), webhook: $("alert-webhook"), email: $("alert-email"),
  quiet: $("alert-quiet"), status: $("alert-status"),
  load: () => api.alerts(gameId, token), save: (body) => api.saveAlerts(gameId, token, body),
});

// The clock, the seats bots play, the requests to answer (seatclock.js).
const seats = new Seats({
  card: $("seats-card"), body: $("seats-body"), gameId, token, showError, log: $("log"),
  // A seat's token, or an account's seat by its session (no token): the controls are its.
  seat: () => (state.data && state.data.seat && !state.data.covered ? state.data.seat : null),
  // The reason a bot plays this seat arrives with the seats' state: the notice says it.
  onChange: () => {
    if (!decisions.standIn || !state.data) return;
    decisions.standIn.why = seats.why(state.data.seat);
    decisions.render();
  },
});

async function takeSeatBack() {
  await seats.post("/seats/return");
  await refresh(); // the view without the stand-in: the seat's own decisions again
}

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
  // The server names the undo this seat may take now (the entity of the last action in force);
  // it takes back the bots' replies with one's own decision (docs/web-api.md).
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
  remember(data);
  if (state.at !== null) return; // history view stays put until "return"
  if (changed || state.boardFor !== data.last_action_id) {
    // The answer names the board's picture: the one shown is asked for again only if not it.
    if (data.board_etag && data.board_etag === state.boardEtag) state.boardFor = data.last_action_id;
    else await loadBoard(null, data.last_action_id);
  }
  const focused = document.activeElement;
  render(data.turn, { readOnly: false });
  board.place(); // a new picture enters the page at the zoom the decisions gave it
  keepFocus(focused);
  loadLog();
  seats.refresh();
}

/** The control that had the keyboard focus was drawn anew (the action it took, a bot's
 * reply): the focus stays at the decisions, the next Tab reaches the next choice, instead of
 * falling back to the top of the page. */
function keepFocus(focused) {
  if (cover.shown || !focused || focused === document.body || focused.isConnected) return;
  if (document.activeElement && document.activeElement !== document.body
      && document.activeElement.isConnected) return;
  $("decisions").focus({ preventScroll: true });
}

// The games this browser has a seat in (the link's token, kept in this browser only), so the
// lobby offers "Resume" for them; a spectator's link (no seat) is not kept.
const SEATS_KEY = "india1853.seats";

let keepShown = false; // the guest's "keep this link" notice, once per page

function remember(data) {
  if (!token || !data.seats || !data.seats.length) return;
  if (!keepShown && data.seats.length === 1) {
    keepShown = true;
    showKeepNotice($("keep-link"), gameId, token, data.seats[0]);
  }
  try {
    const kept = JSON.parse(window.localStorage.getItem(SEATS_KEY) || "{}");
    const seats = data.seats.join(", ");
    if (kept[gameId] && kept[gameId].token === token && kept[gameId].seats === seats && kept[gameId].opened) return;
    kept[gameId] = { ...(kept[gameId] || {}), token, seats, opened: true };
    window.localStorage.setItem(SEATS_KEY, JSON.stringify(kept));
  } catch { /* storage refused (private mode): the lobby offers Watch */ }
}

async function loadBoard(at, id) {
  // The live board comes with an ETag naming its content: unchanged (most actions leave the
  // board as it was), the browser's copy is used (304) and the picture is not drawn again.
  const { svg, etag } = await api.boardSvg(gameId, at);
  if (at !== null || etag === null || etag !== state.boardEtag) board.show(svg);
  state.boardEtag = at === null ? etag : null;
  state.boardFor = at === null ? id : `at${at}`;
}

async function loadLog() {
  try {
    // Only the lines after the last one received: the log only grows (an undo is a line too).
    const last = state.log.length ? state.log[state.log.length - 1].id : 0;
    const data = await api.log(gameId, token, last);
    const held = state.log.length ? state.log[state.log.length - 1].id : 0;
    const before = state.log.length;
    state.log = state.log.concat((data.actions || []).filter((e) => e.id > held));
    // Drawn again only with new lines (a long game's log is thousands of them).
    if (state.log.length !== before || !state.logDrawn) {
      renderLog($("log"), state.log, state.logDrawn ? before : 0);
    }
    state.logDrawn = true;
    seats.markLog();
  } catch (err) {
    renderLog($("log"), [`(the log could not be loaded: ${err.message})`]);
    state.logDrawn = false;
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
  chat.setSeat(readOnly || !d ? null : d.seat); // the chat: written by the seat shown
  alertSettings.setSeat(d && d.seat, Boolean(d && d.seats && d.seats.length === 1));
  // A seat a bot plays for the time being: the bot's decisions, until "Take my seat back".
  const bot = !readOnly && d && d.seat && d.stand_ins ? d.stand_ins[d.seat] : undefined;
  decisions.standIn = bot ? { bot, why: seats.why(d.seat), takeBack: takeSeatBack } : null;
  decisions.update(turn, { readOnly });
  const shared = Boolean(d && d.seats && d.seats.length > 1);
  const seat = readOnly ? "" : (d && d.seat) || "";
  // Each table is drawn from its own part of the turn (and the seat shown) alone: an answer
  // that leaves that part as it was (most actions change a few tables; a live event, a
  // confirmation, the log's turn change none) leaves the table as it is.
  const base = [readOnly, seat, (d && d.seat) || "", shared];
  const t = rawTurn.tables || {};
  const badges = (t.companies || []).map((c) => [c.initials, c.colour, c.text_colour]);
  const from = (...parts) => JSON.stringify([base, ...parts]);
  drawn($("players"), from(t.players, badges, rawTurn.active),
    () => renderPlayers($("players"), turn));
  drawn($("status-strip"), from(t.trains, t.bank, t.players, rawTurn.active),
    () => renderStatus($("status-strip"), turn));
  drawn($("shares"), from(t.players, t.companies, t.bank, t.bank_broken, shareOptions(rawTurn)),
    () => renderShares($("shares"), turn, { act, readOnly }));
  drawn($("market"), from(t.market, badges), () => renderMarket($("market"), turn));
  drawn($("trains"), from(t.trains, t.bank), () => renderTrains($("trains"), turn));
  drawn($("contract-body"), from(t.contract), () => renderContract($("contract"), $("contract-body"), turn,
    { shared, player: (d && d.seat) || "" }));
  drawn($("kit-body"), from(rawTurn.view && rawTurn.view.kit),
    () => renderKit($("kit"), $("kit-body"), turn, { seat, shared }));
  drawn($("scores-body"), from(t.scores, Boolean(turn.finished)), () => renderScores($("scores"),
    $("scores-body"), turn, turn.finished ? `/api/games/${encodeURIComponent(gameId)}/stats.svg` : null));
  if (!readOnly && d && d.bot_error) showError(d.bot_error); // the game waits for a failed bot
  $("undo").disabled = readOnly || !(d && d.can_undo);
  // The server's count: one's own last decision and the bots' replies that followed it.
  const replies = !readOnly && d && d.can_undo ? (d.undo_takes_back || 1) - 1 : 0;
  $("undo").textContent = replies ? `Undo (and ${replies} bot move${replies > 1 ? "s" : ""})` : "Undo";
  $("redo").disabled = readOnly || !(d && d.can_redo);
  $("undo").closest(".undo-row").hidden = !(d && d.seats && d.seats.length);
  renderHint(d, rawTurn, readOnly);
  $("history-at").max = String(d ? d.last_action_id : 0);
  if (!readOnly) $("history-at").value = String(d ? d.last_action_id : 0);
}

/** Draws a table again only when what it is drawn from (`from`) changed since its last
 * drawing (issue 20: every answer redrew every table, and each drawing made chromium restyle
 * and repaint the page). `el` is the element the drawing empties: emptied elsewhere (the
 * cover, dom.js's clear), it is drawn the next time. */
function drawn(el, from, draw) {
  if (el.drawnFrom === from) return;
  draw();
  el.drawnFrom = from;
}

/** The Hint button: shown to a seat when the game has hints, enabled when the seat decides;
 * the line of an earlier position is taken away. */
function renderHint(d, rawTurn, readOnly) {
  const seat = d && d.seat;
  const on = !readOnly && Boolean(seat && d.game && d.game.hints && !(d.game.finished));
  const deciding = on && ((rawTurn && rawTurn.decisions) || []).some((x) => x.player === seat);
  $("hint").hidden = !on;
  $("hint").disabled = !deciding || state.hinting;
  const line = $("hint-line");
  if (!on || state.hintFor !== `${seat}@${d.last_action_id}`) {
    line.hidden = true;
    line.textContent = "";
  }
}

async function askHint() {
  const d = state.data;
  if (!d || !d.seat || state.hinting) return;
  state.hinting = true;
  $("hint").disabled = true;
  $("hint").textContent = "Thinking…";
  try {
    const answer = await api.hint(gameId, token, d.seat);
    const now = state.data;
    if (now && now.seat === answer.seat && now.last_action_id === answer.at) {
      state.hintFor = `${answer.seat}@${answer.at}`;
      $("hint-line").textContent = answer.hint.line;
      $("hint-line").hidden = false;
    }
  } catch (err) {
    showError(err.message);
  } finally {
    state.hinting = false;
    $("hint").textContent = "Hint";
    if (state.data) renderHint(state.data, state.data.turn, state.at !== null);
  }
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
    board.place();
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
$("hint").addEventListener("click", askHint);
$("redo").addEventListener("click", () => {
  if (state.data && state.data.redo) act({ action: state.data.redo });
});
$("board-hint").textContent = "Drag or scroll to pan; Ctrl+wheel or the buttons zoom.";

// A burst of events (an action and the bots' replies to it, each a whole view) is shown once:
// each event is held for BURST_MS, a newer one taking its place, and the newest is shown (it
// holds everything: every view carries the whole game). Each view shown draws the page, the
// log and the seats' card, and chromium lays them out and paints them, once per burst instead
// of once per event (issue 20).
const BURST_MS = 40;
const live = { id: null, data: null, timer: null };

function news(id, data) {
  live.id = id;
  live.data = data;
  if (live.timer === null) live.timer = setTimeout(showNews, BURST_MS);
}

function showNews() {
  const { id, data } = live;
  Object.assign(live, { id: null, data: null, timer: null });
  seats.refresh(); // a request, a vote or a seat handed over changes no action id
  if (state.busy) state.behind = Math.max(state.behind ?? 0, id);
  else if (state.data && (id !== state.data.last_action_id
    || (data && data.stand_ins && JSON.stringify(data.stand_ins) !== JSON.stringify(state.data.stand_ins)))) {
    // A new action, or a seat handed to a bot or taken back (no action id changes).
    // A seat's own stream (or a spectator's) carries the answer GET would give: shown as
    // it is. A shared screen asks for the covered answer instead.
    if (state.shared === false && data && data.turn) {
      follow(data, {}).catch((err) => showError(err.message));
    } else refresh();
  }
}

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
      let data = null;
      try {
        data = JSON.parse(event.data);
        id = data.last_action_id ?? id;
      } catch { /* the id alone will do */ }
      if (Number.isInteger(id)) lastId = id;
      news(id, data);
    });
    source.addEventListener("chat", (event) => {
      chat.receive(JSON.parse(event.data).messages);
      seats.refresh(); // a wake by a chat message may carry a seats change too
    });
    source.addEventListener("seats", () => seats.refresh()); // the same view, the seats changed
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
