// The seats' card of the game page (docs/web-ui.md "Seats, clock and takebacks"): the chess
// clock ticking from the server's numbers, the seats bots play for the time being, the
// requests the players answer (pause, resume, takeback, an absent seat to a bot) and the
// takebacks accepted, whose undone actions stay in the log marked as a branch. Every number
// comes from GET /api/games/{id}/seats; the page only counts a running clock down between
// two answers. The asks of one moment fold into one GET: an event of the game's stream asks
// once when it arrives and once more when its view is applied (game.js), a chat message and a
// seats event too, so every page asked two or three times per event, all for the same answer.
import { request } from "./api.js";
import { h, clear } from "./dom.js";

const BOTS = ["random", "greedy", "strong"];
const TICK_MS = 250;
const POLL_MS = 15000;
// The asks within this time after the first are answered by one GET (the stream's message and
// its view applied a moment later; docs/web-ui.md).
const GATHER_MS = 200;

// api.js's request: an account's seat (no token, its session) sends the CSRF token with a write.
const call = (method, url, token, body) => request(method, url, { token, body });

/** Seconds as m:ss (h:mm:ss from an hour); none below zero. */
export function clockWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

const KIND_WORDS = {
  pause: () => "to pause the clock",
  resume: () => "to resume the clock",
  takeback: (s) => `to take the game back to action ${s.to} (${s.actions} action${s.actions === 1 ? "" : "s"} taken back)`,
  absent: (s) => `to hand ${s.seat}'s seat to the ${s.bot} bot (absent)`,
};

export class Seats {
  /** `card`/`body`: the card and its content; `seat()`: the seat this page acts as (null:
   * a spectator); `showError(message)`; `log`: the game log's list, whose undone lines
   * are marked; `onChange()`: called when the seats' state changed. */
  constructor({ card, body, gameId, token, seat, showError, log, onChange = () => {} }) {
    Object.assign(this, { card, body, gameId, token, seat, showError, log, onChange });
    this.data = null;
    this.fetchedAt = 0;
    this.loading = false;
    this.again = false;
    this.gathering = null; // the timer of the GET that answers the asks gathered so far
    this.lastExpiry = 0;
    setInterval(() => this.tick(), TICK_MS);
    setInterval(() => this.refresh(), POLL_MS);
  }

  url(path = "") {
    const seat = this.seat();
    const q = seat ? `?seat=${encodeURIComponent(seat)}` : "";
    return `/api/games/${encodeURIComponent(this.gameId)}${path}${q}`;
  }

  /** Asks for the seats' state again: one GET, GATHER_MS after the first ask, for all the
   * asks until then (and one more after an answer on its way, which may predate them). */
  refresh() {
    if (this.gathering !== null) return;
    this.gathering = setTimeout(() => {
      this.gathering = null;
      this.load();
    }, GATHER_MS);
  }

  async load() {
    if (this.loading) { this.again = true; return; }
    this.loading = true;
    try {
      this.show(await call("GET", `/api/games/${encodeURIComponent(this.gameId)}/seats`));
    } catch (err) {
      this.showError(`seats: ${err.message}`);
    } finally {
      this.loading = false;
      if (this.again) { this.again = false; this.load(); }
    }
  }

  async post(path, body) {
    try {
      this.show(await call("POST", this.url(path), this.token, body));
    } catch (err) {
      this.showError(err.message);
      await this.load();
    }
  }

  show(data) {
    this.data = data;
    this.fetchedAt = performance.now();
    // Drawn again only when something but the clocks' seconds changed (a control being
    // used is not replaced under the pointer); the seconds follow on the next tick.
    const key = JSON.stringify({ ...data, seat: this.seat(), clock: data.clock && { ...data.clock, seats: Object.fromEntries(Object.entries(data.clock.seats).map(([k, v]) => [k, { ...v, left: 0 }])) } });
    if (key !== this.key) {
      this.key = key;
      this.render();
      this.onChange();
    }
    this.tick();
    this.markLog();
  }

  /** Why a bot plays the seat now, in words ("" if none does, or not known yet). */
  why(seat) {
    const s = this.data && this.data.stand_ins[seat];
    return s ? s.why : "";
  }

  /** The seconds a seat's clock shows now: the server's, counted down while it runs. */
  left(seat) {
    const c = this.data && this.data.clock && this.data.clock.seats[seat];
    if (!c) return null;
    return c.running ? c.left - (performance.now() - this.fetchedAt) / 1000 : c.left;
  }

  tick() {
    const clock = this.data && this.data.clock;
    if (!clock) return;
    let ranOut = false;
    for (const [seat, c] of Object.entries(clock.seats)) {
      const el = this.body.querySelector(`[data-clock="${CSS.escape(seat)}"]`);
      const left = this.left(seat);
      const words = clockWords(left);
      // Written only when the second shown changes: a write, even of the same text, makes
      // the browser lay out and paint the card again (four times a second on every page).
      if (el && el.textContent !== words) el.textContent = words;
      if (c.running && !c.flagged && left <= 0) ranOut = true;
    }
    // A clock at zero: the server takes the action at zero when asked (once, whoever asks).
    if (ranOut && !clock.paused && performance.now() - this.lastExpiry > 1000) {
      this.lastExpiry = performance.now();
      this.refresh();
    }
  }

  /** The undone actions of each accepted takeback, marked in the log as a branch. */
  markLog() {
    if (!this.log || !this.data) return;
    const undone = new Map();
    for (const b of this.data.requests.branches) {
      for (const id of (b.outcome && b.outcome.taken_back) || []) undone.set(id, b);
    }
    for (const li of this.log.querySelectorAll("li[value]")) {
      const b = undone.get(Number(li.getAttribute("value")));
      li.classList.toggle("undone", Boolean(b));
      if (b) li.title = `Taken back to action ${b.outcome.to} by consent (request ${b.id}): a branch no longer in force`;
      else li.removeAttribute("title");
    }
  }

  render() {
    const d = this.data;
    const me = this.seat();
    const parts = [];
    if (d.clock) parts.push(this.clockPart(d, me));
    const bots = Object.entries(d.stand_ins);
    if (bots.length) {
      parts.push(h("ul", { class: "stand-ins" }, bots.map(([seat, s]) => h("li", {},
        `${seat}: played by the ${s.bot} bot (${s.why})`,
        seat === me ? h("button", { type: "button", class: "primary", onclick: () => this.post("/seats/return") }, "Take my seat back") : null))));
    }
    for (const r of d.requests.open) parts.push(this.requestPart(r, me));
    const last = d.requests.resolved[0];
    if (last) {
      const by = Object.entries(last.votes).filter(([, v]) => !v).map(([s]) => s);
      const how = last.status === "refused" ? `refused by ${by.join(", ")}` : last.status === "void"
        ? `void: ${(last.outcome && last.outcome.reason) || "the game moved on"}` : "accepted";
      parts.push(h("p", { class: "hint request-done" }, `${last.asker} asked ${KIND_WORDS[last.kind](last.subject)}: ${how}.`));
    }
    if (d.requests.branches.length) {
      parts.push(h("p", { class: "hint" }, d.requests.branches.map((b) =>
        `Actions ${b.outcome.taken_back.join(", ")} were taken back to action ${b.outcome.to} (asked by ${b.asker}); they stay in the log, struck through.`).join(" ")));
    }
    if (me) parts.push(this.controls(d, me));
    this.card.hidden = parts.length === 0;
    clear(this.body, parts);
    this.tick();
  }

  clockPart(d, me) {
    const c = d.clock;
    const rows = Object.entries(c.seats).map(([seat, s]) => h("li", {
      class: `clock${s.running ? " running" : ""}${s.flagged ? " flagged" : ""}${seat === me ? " mine" : ""}`,
    }, h("span", { class: "clock-seat" }, seat), " ",
    h("span", { class: "clock-time", "data-clock": seat, "aria-label": `${seat}'s time left` }, clockWords(s.left)),
    s.flagged ? h("span", { class: "flag", title: "This clock reached zero" }, " ⚑ out of time") : null,
    s.running && !c.paused ? h("span", { class: "sr-only" }, " (running)") : null));
    const rule = `${clockWords(c.bank)} each, +${c.increment}s a turn; at zero: ${c.at_zero === "bot" ? `the ${c.bot} bot takes the seat` : "a flag"}`;
    return h("div", { class: "clocks" },
      c.paused ? h("p", { class: "paused" }, "Clock paused") : null,
      !c.paused && c.held_by ? h("p", { class: "paused" }, "Clocks stopped while the takeback is decided") : null,
      h("ul", { class: "clock-list", "aria-label": "Chess clock" }, rows),
      h("p", { class: "hint" }, rule));
  }

  requestPart(r, me) {
    const waiting = r.voters.filter((v) => !(v in r.votes));
    const mine = me && r.voters.includes(me) && !(me in r.votes);
    return h("div", { class: "request", role: "status" },
      h("p", {}, h("strong", {}, r.asker), ` asks ${KIND_WORDS[r.kind](r.subject)}. `,
        waiting.length ? `Waiting for ${waiting.join(", ")}.` : ""),
      mine ? h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", onclick: () => this.post(`/requests/${r.id}`, { accept: true }) }, "Accept"),
        h("button", { type: "button", onclick: () => this.post(`/requests/${r.id}`, { accept: false }) }, "Refuse")) : null,
      me && r.asker === me ? h("div", { class: "buttons" },
        h("button", { type: "button", onclick: () => this.post(`/requests/${r.id}/withdraw`) }, "Withdraw my request")) : null);
  }

  controls(d, me) {
    const rows = [];
    if (!(me in d.stand_ins)) {
      const pick = h("select", { "aria-label": "Bot to play my seat" }, BOTS.map((b) => h("option", { value: b, selected: b === "greedy" }, b)));
      rows.push(h("div", { class: "seat-row" }, h("button", { type: "button", onclick: () => this.post("/seats/hand", { bot: pick.value }) }, "Hand my seat to a bot"), " ", pick));
    }
    if (d.clock) {
      const kind = d.clock.paused ? "resume" : "pause";
      rows.push(h("div", { class: "seat-row" }, h("button", { type: "button", onclick: () => this.post("/requests", { kind }) }, d.clock.paused ? "Ask to resume the clock" : "Ask to pause the clock")));
    }
    const typed = this.body.querySelector("#takeback-to");
    const value = typed && typed.dataset.typed ? typed.value : String(Math.max(0, d.last_action_id - 1));
    const to = h("input", { type: "number", min: "0", step: "1", inputmode: "numeric", id: "takeback-to", value, oninput: (event) => { event.target.dataset.typed = "1"; } });
    rows.push(h("form", {
      class: "seat-row takeback",
      onsubmit: (event) => {
        event.preventDefault();
        const n = Number(to.value);
        if (!Number.isInteger(n) || n < 0) { this.showError("to: a whole number, 0 or more"); return; }
        delete to.dataset.typed;
        this.post("/requests", { kind: "takeback", to: n });
      },
    }, h("label", { for: "takeback-to" }, "Take back to action"), " ", to, " ", h("button", { type: "submit" }, "Ask the others")));
    for (const seat of d.absent.filter((s) => s !== me)) {
      rows.push(h("div", { class: "seat-row" }, h("button", { type: "button", onclick: () => this.post("/requests", { kind: "absent", seat, bot: "greedy" }) }, `${seat} is absent: vote to hand the seat to a bot`)));
    }
    return h("div", { class: "seat-controls" }, rows);
  }
}
