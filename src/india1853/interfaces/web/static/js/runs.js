// The run of a company's operating turn (4.5-4.6) in the decision panel: the optimal run
// offered by the turn model, and the run editor - a route drawn by clicking hexes on the board
// or typed, checked live by the engine (POST .../preview?draft=true, rules/game/run_draft.py).
// Nothing here decides what a train may run: every verdict is the engine's.
import { h, money } from "./dom.js";
import { routeSwatch } from "./board.js";

/** The run's part of the decision panel (the base of ``Decisions``, decisions.js, which holds
 * the panel's state: ``this.turn``, ``this.board``, ``this.body``, ``this.selection``,
 * ``this.runDraft``, ``this.act``, ``this.previewRun``, ``this.render``, ``this.options``). */
export class RunEditor {
  runPart(runs) {
    const sel = this.selection && this.selection.kind === "run" ? this.selection : { kind: "run", index: 0 };
    const option = runs[sel.index % runs.length];
    const routes = option.ui.routes || [];
    const draft = this.runDraftFor(option);
    // While the run is being changed the board shows the run as drawn, else the offered one.
    this.board.routes(draft.open ? this.draftRoutes(draft) : routes);
    return h("div", { class: "preview" },
      h("p", {}, h("strong", {}, runs.length > 1 ? `Run ${sel.index + 1} of ${runs.length}` : "The optimal run"),
        ` · revenue ${money(option.ui.revenue)}`, option.ui.mail ? ` + mail ${money(option.ui.mail)}` : ""),
      h("ol", { class: "routes", id: "run-routes" }, routes.map((r, i) => h("li", {}, routeSwatch(i),
        h("span", {}, h("strong", {}, `Train ${r.train}`), r.mail ? " ✉ mail" : "",
          ` · ${money(r.revenue)}`, r.mail_revenue ? ` (+${money(r.mail_revenue)} mail)` : "",
          h("br"), h("span", { class: "hint" }, r.hexes.join(" – ")))))),
      h("p", { class: "effect" }, option.effect),
      h("div", { class: "options" },
        h("button", { type: "button", id: "accept-run", class: "primary", onclick: () => this.act(option) }, "Accept this run"),
        runs.length > 1 ? h("button", { type: "button", onclick: () => {
          this.selection = { kind: "run", index: (sel.index + 1) % runs.length };
          this.runDraft = null;
          this.render();
        } }, "Another run") : null),
      this.changeRun(option, draft));
  }

  // --- the run editor: a run drawn by clicking hexes on the board, checked live -------------

  /** The run being changed for this decision (kept across answers, a refusal included: the
   * editor stays open with its text); it starts as the offered run. */
  runDraftFor(option) {
    const d = this.runDraft;
    if (d && d.nextId === this.turn.next_id && d.entity === option.action.entity) return d;
    this.runDraft = {
      nextId: this.turn.next_id, entity: option.action.entity, open: false, drawing: null,
      routes: (option.action.routes || []).map((r) => ({ train: r.train, mail: Boolean(r.mail), on: true, text: r.hexes.join(" ") })),
      answer: null, asked: 0, timer: null, joinPending: false, version: 0, answered: -1,
    };
    return this.runDraft;
  }

  draftAction(draft, option) {
    return { ...option.action, routes: draft.routes.filter((r) => r.on).map((r) => ({
      train: r.train, mail: r.mail, hexes: r.text.trim().split(/\s+/).filter(Boolean),
    })) };
  }

  /** The routes as drawn, in the board's form (hexes without the stations named). */
  draftRoutes(draft) {
    return draft.routes.filter((r) => r.on).map((r) => ({
      train: r.train, mail: r.mail, hexes: r.text.trim().split(/\s+/).filter(Boolean).map((x) => x.split(":")[0]),
    }));
  }

  drawingRun() {
    const d = this.runDraft;
    return d && d.open && d.drawing !== null && this.turn && d.nextId === this.turn.next_id ? d : null;
  }

  /** A hex clicked (or pressed) on the board while a train's route is drawn: the next hex of
   * the route; the route's last hex again: taken back. */
  drawHex(hex) {
    const d = this.drawingRun();
    const route = d.routes[d.drawing];
    const stops = route.text.trim().split(/\s+/).filter(Boolean);
    if (stops.length && stops[stops.length - 1].split(":")[0] === hex) stops.pop();
    else stops.push(hex);
    route.text = stops.join(" ");
    route.on = true;
    d.joinPending = true; // the engine's answer fills in the track between the stations
    this.render();
    this.checkDraft();
  }

  /** Ask the engine about the run as drawn (POST .../preview?draft=true), a moment after the
   * last change; an answer older than the newest question is dropped. */
  checkDraft({ now = false } = {}) {
    const d = this.runDraft;
    if (!d || !this.previewRun) return;
    clearTimeout(d.timer);
    d.version += 1; // every change to the draft comes here: older answers are about another
    const ask = async () => {
      const option = this.options().find((o) => o.type === "run_routes");
      if (!option || this.runDraft !== d) return;
      const asked = ++d.asked;
      const version = d.version;
      let answer;
      try {
        answer = await this.previewRun(this.draftAction(d, option));
      } catch (err) {
        answer = { routes: [], option: null, refusal: err.message };
      }
      if (this.runDraft !== d || asked !== d.asked) return;
      d.answer = answer;
      d.answered = version;
      if (d.joinPending) {
        // A hex clicked while this question was out: its answer would write the older route
        // over the newer one (the hex lost); the newer question, already set, fills it in.
        if (version !== d.version) return;
        // Drawn on the board: the route becomes the engine's reading of it, the track between
        // the stations clicked filled in (rules/game/run_draft.py).
        d.joinPending = false;
        const on = d.routes.filter((r) => r.on);
        answer.routes.forEach((got, k) => { if (on[k] && Array.isArray(got.hexes)) on[k].text = got.hexes.join(" "); });
        this.render();
        return;
      }
      this.showDraftAnswer(d);
    };
    if (now) ask(); else d.timer = setTimeout(ask, 200);
  }

  /** The engine's answer in the editor: per train its stations, Large Stations against the
   * train's reach and revenue so far (or what is wrong), and the verdict on the whole run. */
  showDraftAnswer(d) {
    const verdict = this.body.querySelector("#run-verdict");
    if (!verdict) return;
    const answer = d.answer;
    if (!answer) { verdict.textContent = "Checking the run…"; verdict.className = "run-verdict"; return; }
    const onIndexes = d.routes.map((r, i) => (r.on ? i : null)).filter((i) => i !== null);
    d.routes.forEach((r, i) => {
      const line = this.body.querySelector(`#run-status-${i}`);
      if (!line) return;
      const k = onIndexes.indexOf(i);
      const got = k >= 0 ? answer.routes[k] : null;
      line.className = "route-status";
      if (!got) { line.textContent = r.on ? "" : "Left out: this train does not run."; return; }
      const reach = got.reach ? `A '${got.train}' train runs to ${got.reach}.` : "";
      if (got.refusal) {
        line.classList.add("refused");
        const stops = r.text.trim().split(/\s+/).filter(Boolean).length;
        const start = stops < 2 ? "Click the next hex along the track. " : "";
        line.textContent = `${start}${got.refusal} ${reach}`.trim();
      } else {
        line.textContent = `So far: ${got.stations} stations (${got.large} of ${got.large_limit} Large) · ${money(got.revenue)}`
          + `${got.mail_revenue ? ` + ${money(got.mail_revenue)} mail` : ""}. ${reach}`;
      }
    });
    verdict.className = `run-verdict${answer.refusal ? " refused" : ""}`;
    verdict.textContent = answer.refusal ? `Not accepted: ${answer.refusal}`
      : `Accepted: ${answer.option.effect}`;
  }

  /** "Change the run": the run's routes as the action states them (every hex passed, stations
   * where a hex has several), each train on or off; a route is drawn by clicking the hexes it
   * passes on the board ("Draw"), or edited as text. The engine checks the run as it is drawn
   * (its verdict, each train's reach and revenue so far) and when it is submitted; a refused
   * run leaves the editor open with its text. */
  changeRun(option, draft) {
    const rows = draft.routes.map((r, i) => {
      const on = h("input", { type: "checkbox", checked: r.on, id: `run-train-${i}` });
      on.addEventListener("change", () => { r.on = on.checked; this.render(); this.checkDraft(); });
      const hexes = h("input", { type: "text", value: r.text, id: `run-hexes-${i}`,
        "aria-label": `Hexes of train ${r.train}, separated by spaces`, spellcheck: "false", autocomplete: "off" });
      hexes.addEventListener("input", () => {
        r.text = hexes.value;
        draft.joinPending = false; // typed: the text stays as typed
        this.board.routes(this.draftRoutes(draft));
        this.checkDraft();
      });
      const drawing = draft.drawing === i;
      const draw = h("button", { type: "button", id: `run-draw-${i}`, "aria-pressed": drawing ? "true" : "false",
        onclick: () => {
          draft.drawing = drawing ? null : i;
          this.render();
          this.body.querySelector(`#run-draw-${i}`)?.focus({ preventScroll: true });
        } }, drawing ? "Stop drawing" : "Draw on the board");
      const back = h("button", { type: "button", id: `run-back-${i}`, disabled: !r.text.trim(),
        onclick: () => {
          r.text = r.text.trim().split(/\s+/).slice(0, -1).join(" ");
          this.render();
          this.checkDraft();
        } }, "Back one hex");
      const wipe = h("button", { type: "button", id: `run-clear-${i}`, disabled: !r.text.trim(),
        onclick: () => { r.text = ""; draft.drawing = i; this.render(); this.checkDraft(); } }, "Clear");
      return h("li", { class: "change-route" },
        h("label", { class: "check", for: `run-train-${i}` }, on, routeSwatch(i), `Run train ${r.train}${r.mail ? " (mail)" : ""}`),
        hexes, h("div", { class: "run-draw" }, draw, back, wipe),
        h("p", { class: "route-status", id: `run-status-${i}`, "aria-live": "polite" }));
    });
    const submit = () => {
      draft.drawing = null;
      // The run the engine accepted for this very draft (its gaps filled in), else the draft
      // as it stands: the engine then says what is wrong.
      const accepted = draft.answered === draft.version && draft.answer && draft.answer.option;
      this.act(accepted || { type: "run_routes", action: this.draftAction(draft, option) });
    };
    const reset = () => {
      this.runDraft = null;
      const fresh = this.runDraftFor(option);
      fresh.open = true;
      this.render();
      this.checkDraft({ now: true });
    };
    const details = h("details", { class: "change-run", id: "change-run", open: draft.open },
      h("summary", {}, "Change the run"),
      h("p", { class: "hint" }, draft.drawing !== null
        ? `Drawing train ${draft.routes[draft.drawing].train}'s route: click the stations it runs to on the board, in order; the engine finds the track between (click a hex on the way to choose another way; the last hex again takes it back; Esc stops).`
        : "Untick a train to leave it out; “Draw on the board” and click the stations a route runs to, or edit its hexes (e.g. M9:st2 N10:st1: a hex's stations named where it has several)."),
      h("p", { class: "run-verdict", id: "run-verdict", role: "status" }),
      h("ol", { class: "routes" }, rows),
      h("div", { class: "options" },
        h("button", { type: "button", id: "run-changed", onclick: submit }, "Run as changed"),
        h("button", { type: "button", id: "run-reset", onclick: reset }, "Back to the optimal run")));
    details.addEventListener("toggle", () => {
      if (draft.open === details.open) return;
      draft.open = details.open;
      if (!draft.open) draft.drawing = null;
      this.render();
      this.body.querySelector("#change-run summary")?.focus({ preventScroll: true });
      if (draft.open) this.checkDraft({ now: true });
    });
    // Drawn after the panel is in the page: the last answer (or a question for one).
    queueMicrotask(() => {
      if (!draft.open) return;
      if (draft.answer) this.showDraftAnswer(draft); else this.checkDraft({ now: true });
    });
    return details;
  }
}
