// The table talk of a game page: the chat (written by the seats, read by everyone, carried by
// the event stream) and a seat's own turn alerts (a webhook, an e-mail address, the quiet
// time), kept by the server (docs/web-api.md "Chat", "Turn alerts"). Text is always put in
// the page as text (dom.js's h), never as markup.
import { api } from "./api.js";
import { h, clear } from "./dom.js";

const KEEP = 200; // messages shown at most (the oldest dropped)

export class Chat {
  constructor({ list, form, input, status, gameId, token }) {
    Object.assign(this, { list, form, input, status, gameId, token });
    this.messages = [];
    this.seat = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
  }

  /** The seat writing (null: a spectator or a covered shared screen: no writing). */
  setSeat(seat) {
    this.seat = seat || null;
    this.form.hidden = this.seat === null;
  }

  /** Messages from the stream (or this page's own post): each shown once, in order. */
  receive(messages) {
    const known = new Set(this.messages.map((m) => m.id));
    const fresh = (messages || []).filter((m) => !known.has(m.id));
    if (!fresh.length) return;
    this.messages = this.messages.concat(fresh).sort((a, b) => a.id - b.id).slice(-KEEP);
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    clear(this.list, this.messages.map((m) => h("li", { dataset: { id: String(m.id) } },
      h("span", { class: "chat-seat" }, m.seat), ": ", h("span", { class: "chat-text" }, m.text))));
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }

  async send() {
    const text = this.input.value;
    if (!text.trim() || this.seat === null) return;
    this.status.textContent = "";
    try {
      const message = await api.say(this.gameId, this.token, text, this.seat);
      this.input.value = "";
      this.receive([message]);
    } catch (err) {
      this.status.textContent = err.message;
    }
  }
}

/** Alert settings: a seat's own (the game page, only with the seat's own link, not a shared
 * screen's) or an account's for all its seats ("My games"); `load()` and `save(body)` ask the
 * server. */
export class AlertSettings {
  constructor({ card, form, webhook, email, quiet, status, load, save }) {
    Object.assign(this, { card, form, webhook, email, quiet, status, load, saveTo: save });
    this.loadedFor = null;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
  }

  /** Shown to a seat's own link; the seat's settings loaded once. */
  setSeat(seat, own) {
    this.card.hidden = !(seat && own);
    if (this.card.hidden || this.loadedFor === seat) return;
    this.loadedFor = seat;
    this.load().then((s) => this.show(s))
      .catch((err) => { this.status.textContent = err.message; });
  }

  show(settings) {
    this.webhook.value = settings.webhook || "";
    this.email.value = settings.email || "";
    this.email.disabled = !settings.email_available;
    this.email.placeholder = settings.email_available ? "you@example.org" : "this server sends no e-mail";
    this.quiet.value = settings.quiet_seconds === null ? "" : String(Math.round(settings.quiet_seconds / 60));
    this.quiet.placeholder = String(Math.round(settings.default_quiet_seconds / 60));
  }

  async save() {
    const minutes = this.quiet.value.trim();
    const body = {
      webhook: this.webhook.value.trim() || null,
      email: this.email.value.trim() || null,
      quiet_seconds: minutes === "" ? null : Math.round(Number(minutes) * 60),
    };
    if (minutes !== "" && !Number.isFinite(Number(minutes))) {
      this.status.textContent = "quiet time: a number of minutes";
      return;
    }
    try {
      this.show(await this.saveTo(body));
      this.status.textContent = body.webhook || body.email ? "Saved: alerts on." : "Saved: no alerts.";
    } catch (err) {
      this.status.textContent = err.message;
    }
  }
}
