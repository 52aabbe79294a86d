// The cover of a shared (hotseat) screen: "Pass to Ann" hides the whole game until Ann
// confirms "I am Ann". The page shows a seat's view only to that seat: while the cover is up
// it holds the public view alone (the server's covered answer, `?cover=true`), and the seat's
// own view is fetched only after the confirmation (game.js). Who must act next comes from
// the server (`next_seat`, from the engine's active entities); nothing here decides a rule.
import { clear } from "./dom.js";

export class Cover {
  /** `root`: the cover element (game.html `#cover`); `onConfirm(seat)` after "I am <seat>". */
  constructor(root, { onConfirm }) {
    this.root = root;
    this.title = root.querySelector("#cover-title");
    this.reason = root.querySelector("#cover-reason");
    this.about = root.querySelector("#cover-about");
    this.hint = root.querySelector("#cover-hint");
    this.button = root.querySelector("#cover-confirm");
    this.seat = null; // the seat asked for while the cover is up; null when it is down
    this.button.addEventListener("click", () => {
      const seat = this.seat;
      if (seat === null) return;
      this.hide();
      onConfirm(seat);
    });
  }

  get shown() { return this.seat !== null; }

  /** Covers the screen for `seat` at once: every secret place is emptied, every control
   * behind it made inert; `why` says why the screen passes ("Bob decides next."; null: the
   * reason shown stays). */
  show(seat, why) {
    const again = this.seat !== null;
    this.seat = seat;
    this.title.textContent = `Pass to ${seat}`;
    this.button.textContent = `I am ${seat}`;
    if (why !== null) this.reason.textContent = why;
    this.hint.textContent = `The game is hidden until ${seat} confirms: secret bonds, cities, bids and cards are `
      + "shown only to their own player. Everyone else, please look away.";
    this.hideSecrets();
    for (const el of document.body.children) if (el !== this.root) el.inert = true;
    document.body.classList.add("covered");
    document.body.dataset.viewer = "";
    this.root.hidden = false;
    if (!again || !this.root.contains(document.activeElement)) this.button.focus();
  }

  /** The public headline under the title (whose turn, what is decided): for everyone. */
  describe(text) { this.about.textContent = text || ""; }

  hide() {
    this.seat = null;
    this.root.hidden = true;
    for (const el of document.body.children) if (el !== this.root) el.inert = false;
    document.body.classList.remove("covered");
  }

  /** The places a seat's secrets are drawn in outside the tables (which the public view
   * redraws): the secret dialog (bond, claims, the first edition's bid composer with its
   * priced bond), the seat's contract and MIK 2 hand, and the error line (a refusal may
   * name a secret bid's cities). */
  hideSecrets() {
    const dialog = document.getElementById("secret-dialog");
    if (dialog.open) dialog.close();
    clear(document.getElementById("secret-body"));
    // Drawn again from the public view; emptied now so no seat's cash, bond or options stay.
    for (const id of ["players", "status-strip", "shares", "decision-body"]) clear(document.getElementById(id));
    clear(document.getElementById("contract-body"));
    document.getElementById("contract").hidden = true;
    clear(document.getElementById("kit-body"));
    document.getElementById("kit").hidden = true;
    document.getElementById("error").textContent = "";
  }
}
