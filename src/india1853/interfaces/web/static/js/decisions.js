// The decision panel: the options of the turn model (turn.decisions[].options[]) as buttons,
// hex choices on the board, tile previews with their rotations, runs, and secret dialogs.
// Every option is submitted as its ``action`` exactly; nothing here decides what is legal.
import { h, clear, costWords, money } from "./dom.js";
import { RunEditor } from "./runs.js";
import { cardName, entityCard } from "./panels.js";

const TRACK = ["lay_tile", "promote_tile"];
const SHARES = ["buy_share", "sell_shares", "redeem_share"];
// MIK 2: a card actioned (with its target) or cards rejected; drawing and passing are buttons.
const CARDS = ["play_card", "reject_cards"];

function optionButton(option, act, { primary = false, label } = {}) {
  const cost = costWords(option.cost);
  return h("button", {
    type: "button", class: primary ? "primary" : "", "data-type": option.type,
    "data-kind": option.action && option.action.kind ? option.action.kind : null,
    title: option.effect + (option.note ? ` — ${option.note}` : "") + (option.warning ? ` — Warning: ${option.warning}` : ""),
    onclick: () => act(option),
  }, option.warning ? "⚠ " : null, label || option.label, cost ? h("span", { class: "option-cost" }, ` (${cost})`) : null);
}

let whyCount = 0;

/** An option that is not possible now (turn model ``decisions[].disabled``): a disabled
 * button with the engine's reason under it (also its title and aria-describedby). */
function disabledButton(option, { label, attrs = {}, reasonId = null } = {}) {
  const id = reasonId || `why-${++whyCount}`;
  return h("span", { class: "disabled-option" },
    // ``data-not-now``, not ``data-type``: a data-type button is always an offered option.
    h("button", { type: "button", disabled: true, "data-not-now": option.type,
      title: option.reason, "aria-describedby": id, ...attrs }, label || option.label),
    reasonId ? null : h("span", { class: "why", id, "data-rule": option.rule }, option.reason));
}

/** Disabled claims of one city: a button each, each distinct reason once under them. */
function disabledClaims(opts) {
  const reasons = new Map();
  for (const o of opts) if (!reasons.has(o.reason)) reasons.set(o.reason, { id: `why-${++whyCount}`, rule: o.rule });
  return [opts.map((o) => disabledButton(o, { label: `Claim for ${o.ui.company}`, reasonId: reasons.get(o.reason).id,
    attrs: { "aria-label": o.label, "data-city": o.ui.city, "data-company": o.ui.company } })),
  [...reasons.entries()].map(([reason, r]) => h("span", { class: "why", id: r.id, "data-rule": r.rule }, reason))];
}

// The tile pictures are the renderer's (GET /api/tiles/...): the same for every game, kept by
// the browser; this version is in their address, so a changed drawing is fetched anew.
const TILE_PICTURES = 1;

/** The picture of a tile option as it would lie (its tile at its rotation), ``size`` px tall. */
function tilePicture(turn, option, size) {
  return h("img", { class: "tile-picture", alt: "", width: String(Math.round(size * 0.87)), height: String(size),
    src: tileAddress(turn, option) });
}

function tileAddress(turn, option) {
  const edition = encodeURIComponent(turn.edition || "second");
  return `/api/tiles/${edition}/${encodeURIComponent(option.ui.tile)}.svg?rotation=${option.ui.rotation}&v=${TILE_PICTURES}`;
}

/** The revenue of a tile's stations (turn model ``ui.values``), e.g. "revenue £20" or
 * "revenue £10 + £10" (two towns). */
function valueWords(values) {
  if (!values || !values.length) return "no station";
  return `revenue ${values.map((v) => money(v)).join(" + ")}`;
}

function tileWords(option) {
  const verb = option.type === "promote_tile" ? "Promote to tile" : "Tile";
  return `${verb} ${option.ui.tile}, ${option.ui.colour || ""}, ${costWords(option.cost) || "free"}, ${valueWords(option.ui.values)}`;
}

/** The engine's warnings on a city's claims (a claim that leaves no company to direct), each
 * once, with the companies it applies to. */
function claimWarnings(opts, warningId) {
  const texts = new Map();
  for (const o of opts) {
    if (!texts.has(o.warning)) texts.set(o.warning, []);
    texts.get(o.warning).push(o.ui.company);
  }
  return [...texts.entries()].map(([text, companies]) => h("span", { class: "warn", id: warningId(text) },
    `⚠ Claim for ${companies.join(" or ")}: ${text}`));
}

function byHex(options) {
  const map = new Map();
  for (const o of options) {
    const hex = o.ui && o.ui.hex;
    if (!hex) continue;
    if (!map.has(hex)) map.set(hex, []);
    map.get(hex).push(o);
  }
  return map;
}

export class Decisions extends RunEditor {
  constructor({ body, title, board, act, dialog, preview, previewRun }) {
    super();
    this.preview = preview;
    this.previewRun = previewRun; // a run being drawn: each route so far and the verdict
    this.runDraft = null; // the run editor's routes for this decision (see runDraftFor)
    this.body = body;
    this.title = title;
    this.board = board;
    this.act = act;
    this.dialog = dialog;
    this.selection = null; // {kind: "track"|"base", hex, tile, index}
    this.standIn = null; // a bot plays this seat for the time being: {bot, why, takeBack}
    this.turn = null;
    this.secretShownFor = null;
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("input, select, textarea, dialog")) return;
      if ((event.key === "r" || event.key === "R") && this.selection && this.selection.tile) {
        event.preventDefault();
        this.rotate(event.key === "R" ? -1 : 1);
      }
      if (event.key === "Escape" && this.drawingRun()) {
        this.runDraft.drawing = null;
        this.render();
        return;
      }
      if (event.key === "Escape" && this.selection) { this.cancel(); }
    });
  }

  /** The board asks: a highlighted hex was clicked or pressed. */
  hexChosen(hex) {
    if (this.drawingRun()) {
      this.drawHex(hex);
      return;
    }
    const sel = this.selection;
    if (sel && sel.kind === "card") {
      if (!this.cardOptions(sel.card).some((o) => o.ui.hex === hex)) return;
      sel.hex = hex;
      this.render();
      this.body.querySelector("#confirm")?.focus({ preventScroll: true });
      return;
    }
    if (sel && sel.hex === hex && sel.tile) {
      this.rotate(1);
      return;
    }
    const kind = this.trackOptions().length && byHex(this.trackOptions()).has(hex) ? "track" : "base";
    this.selection = { kind, hex, tile: null, index: 0 };
    const tiles = this.tilesAt(hex);
    if (kind === "track" && tiles.length === 1) this.selection.tile = tiles[0];
    this.render();
    const first = this.body.querySelector(".preview button, .options button");
    if (first) first.focus({ preventScroll: true });
  }

  trackOptions() { return this.options().filter((o) => TRACK.includes(o.type)); }
  baseOptions() { return this.options().filter((o) => o.type === "place_base"); }
  options() { return (this.turn?.decisions || []).flatMap((d) => d.options); }
  cardOptions(card) { return this.options().filter((o) => o.type === "play_card" && o.ui.card === card); }

  tilesAt(hex) {
    const seen = [];
    for (const o of byHex(this.trackOptions()).get(hex) || []) {
      if (!seen.includes(o.ui.tile)) seen.push(o.ui.tile);
    }
    return seen;
  }

  rotations() {
    const sel = this.selection;
    return (byHex(this.trackOptions()).get(sel.hex) || []).filter((o) => o.ui.tile === sel.tile)
      .sort((a, b) => a.ui.rotation - b.ui.rotation);
  }

  rotate(step) {
    const n = this.rotations().length;
    if (!n) return;
    this.selection.index = (this.selection.index + step + n) % n;
    this.render();
    const rotate = this.body.querySelector("#rotate");
    if (rotate && document.activeElement && !this.board.container.contains(document.activeElement)) rotate.focus();
  }

  cancel() {
    this.selection = null;
    this.board.clearOverlay();
    this.render();
  }

  update(turn, { readOnly }) {
    const keep = this.selection && turn && this.turn && turn.next_id === this.turn.next_id;
    this.turn = turn;
    this.readOnly = readOnly;
    if (!keep) this.selection = null;
    this.render();
  }

  render() {
    const turn = this.turn;
    const box = this.body.closest(".decisions");
    this.board.clearOverlay();
    // A tile previewed on the board: a phone's layout keeps the board in view (app.css).
    document.body.classList.toggle("previewing",
      Boolean(!this.readOnly && this.selection && this.selection.kind === "track" && this.selection.tile));
    if (!turn) return;
    if (this.readOnly) {
      box.classList.add("idle");
      this.title.textContent = "History";
      clear(this.body, h("p", {}, "A read-only view of an earlier moment. Return to the game to act."));
      this.board.highlight(new Map());
      return;
    }
    if (this.standIn) {
      const s = this.standIn;
      box.classList.add("idle");
      this.title.textContent = "A bot plays your seat";
      clear(this.body, h("div", { class: "stand-in", role: "status" },
        h("p", {}, `The ${s.bot} bot plays your seat for now${s.why ? ` (${s.why})` : ""}: it makes your decisions until you take the seat back.`),
        h("button", { type: "button", class: "primary", onclick: s.takeBack }, "Take my seat back")));
      this.board.highlight(new Map());
      return;
    }
    const decisions = turn.decisions || [];
    box.classList.toggle("idle", decisions.length === 0);
    if (!decisions.length) {
      this.title.textContent = turn.finished ? "Game over" : "Waiting";
      clear(this.body, turn.finished ? h("p", {}, "The game is over: see the final scores.")
        : h("ul", {}, (turn.active || []).map((a) => h("li", {}, `${a.what}`, a.rule ? ` (${a.rule})` : ""))));
      this.board.highlight(new Map());
      return;
    }
    this.title.textContent = "Your turn";
    const offered = new Map();
    for (const [hex, opts] of byHex(this.trackOptions())) offered.set(hex, `${opts.length} tile placements offered`);
    for (const [hex] of byHex(this.baseOptions())) if (!offered.has(hex)) offered.set(hex, "a base may be placed");
    if (this.selection && this.selection.kind === "card") {
      for (const o of this.cardOptions(this.selection.card)) {
        if (o.ui.hex) offered.set(o.ui.hex, `${cardName(o.ui.card)} may be actioned here`);
      }
    }
    const drawing = this.drawingRun();
    if (drawing) {
      // Drawing a route: every hex with track may be clicked (the engine says what is wrong).
      const train = drawing.routes[drawing.drawing].train;
      for (const hex of Object.keys(turn.view?.board?.tiles || {})) offered.set(hex, `add to train ${train}'s route`);
    }
    this.board.highlight(offered, this.selection ? this.selection.hex : null);
    clear(this.body, decisions.map((d) => this.decision(d)));
    // Once per decision, bring what it is about into view: the offered hexes, or the run.
    if (this.focusedFor !== turn.next_id) {
      this.focusedFor = turn.next_id;
      const runs = this.options().filter((o) => o.type === "run_routes");
      const hexes = runs.length ? (runs[0].ui.routes || []).flatMap((r) => r.hexes) : [...offered.keys()];
      if (hexes.length) this.board.focus(hexes);
    }
  }

  decision(d) {
    const header = h("p", { class: "what" }, d.what, d.rule ? h("span", { class: "hint" }, ` (rule ${d.rule})`) : null);
    // Bonds and city claims are the secret steps (2.5.2, 2.5.4): always in a dialog.
    const secret = d.secret || d.step === "bonds" || d.step === "claims"
      || d.options.some((o) => o.type === "place_bond" || o.type === "claim_city");
    if (secret) return h("div", { class: "decision" }, header, this.secretLauncher(d));
    const opts = d.options;
    const track = opts.filter((o) => TRACK.includes(o.type));
    const bases = opts.filter((o) => o.type === "place_base");
    const runs = opts.filter((o) => o.type === "run_routes");
    const shares = opts.filter((o) => SHARES.includes(o.type));
    const cards = opts.filter((o) => CARDS.includes(o.type));
    const offers = opts.filter((o) => o.type === "offer_elephant");
    const rest = opts.filter((o) => !TRACK.includes(o.type) && o.type !== "place_base"
      && o.type !== "run_routes" && !SHARES.includes(o.type) && !CARDS.includes(o.type)
      && o.type !== "offer_elephant");
    // Options that exist but are not possible now (shares: in the share table; cards: with
    // the cards), each with the engine's reason.
    const notNow = (d.disabled || []).filter((o) => !SHARES.includes(o.type) && !CARDS.includes(o.type));
    const cardsNotNow = (d.disabled || []).filter((o) => CARDS.includes(o.type));
    const parts = [header, d.entity_type === "company" ? entityCard(this.turn, d.entity) : null];
    if (track.length) parts.push(this.trackPart(track));
    if (bases.length) parts.push(this.basePart(bases));
    if (runs.length) parts.push(this.runPart(runs));
    if (cards.length || cardsNotNow.length) parts.push(this.cardPart(cards, cardsNotNow));
    if (offers.length) parts.push(this.elephantPart(offers));
    if (shares.length) {
      parts.push(h("p", { class: "hint" }, `${shares.length} share options: use the Buy and Sell buttons in the share table.`),
        h("details", {}, h("summary", {}, "or choose from the list"),
          h("div", { class: "options column" }, shares.map((o) => optionButton(o, this.act)))));
    }
    if (rest.length) {
      parts.push(h("div", { class: `options${rest.length > 4 ? " column" : ""}` },
        rest.map((o) => optionButton(o, this.act, { primary: o.type === "dividend" && o.action.kind === "payout" }))));
      const effects = rest.filter((o) => o.type === "dividend");
      for (const o of effects) parts.push(h("p", { class: "effect" }, `${o.label}: ${o.effect}`));
    }
    if (notNow.length) {
      parts.push(h("div", { class: "options not-now", role: "group", "aria-label": "Not possible now" },
        notNow.map((o) => disabledButton(o))));
    }
    return h("div", { class: "decision" }, parts);
  }

  trackPart(track) {
    const sel = this.selection && this.selection.kind === "track" ? this.selection : null;
    const hexes = byHex(track);
    if (!sel) {
      return h("div", {},
        h("p", {}, `Choose a highlighted hex on the board (${hexes.size} offered), or here:`),
        h("div", { class: "options hexes" }, [...hexes.entries()].map(([hex, opts]) =>
          h("button", { type: "button", onclick: () => { this.board.reveal(hex); this.hexChosen(hex); },
            "aria-label": `Hex ${hex}${opts[0].note ? ` ${opts[0].note}` : ""}: ${opts.length} placements` },
          hex, opts[0].note ? h("span", { class: "hint" }, ` ${opts[0].note}`) : null))));
    }
    const tiles = this.tilesAt(sel.hex);
    const here = hexes.get(sel.hex);
    const parts = [h("p", {}, `Hex ${sel.hex}: choose a tile`),
      h("div", { class: "options tiles", role: "group", "aria-label": `Tiles for ${sel.hex}` }, tiles.map((tile) => {
        const ways = here.filter((o) => o.ui.tile === tile).sort((a, b) => a.ui.rotation - b.ui.rotation);
        const chosen = sel.tile === tile;
        // The tile as it would lie: the rotation chosen for it, else its first legal one.
        const shown = chosen ? ways[sel.index % ways.length] : ways[0];
        return h("button", { type: "button", class: `tile-choice${chosen ? " chosen" : ""}`,
          "aria-pressed": chosen ? "true" : "false", "data-tile": tile,
          "aria-label": `${tileWords(shown)}: ${ways.length} rotation${ways.length === 1 ? "" : "s"}`,
          onclick: () => { sel.tile = tile; sel.index = 0; this.render(); this.body.querySelector("#confirm")?.focus(); } },
        tilePicture(this.turn, shown, 64),
        h("span", { class: "tile-caption", "aria-hidden": "true" },
          h("strong", {}, `${shown.type === "promote_tile" ? "↑ " : ""}#${tile}`),
          h("span", {}, costWords(shown.cost) || "free"),
          h("span", { class: "hint" }, valueWords(shown.ui.values))));
      }))];
    if (sel.tile) {
      const rotations = this.rotations();
      const option = rotations[sel.index % rotations.length];
      this.board.preview(sel.hex, { ...option.ui, picture: tileAddress(this.turn, option) });
      parts.push(h("div", { class: "preview", role: "group", "aria-label": "Tile preview" },
        h("div", { class: "tile-preview" },
          tilePicture(this.turn, option, 96),
          h("div", {},
            h("p", { "aria-live": "polite" }, h("strong", {}, `Tile ${option.ui.tile}, rotation ${option.ui.rotation}`),
              ` (${sel.index + 1} of ${rotations.length} legal) · `, h("strong", {}, costWords(option.cost) || "free"),
              ` · ${valueWords(option.ui.values)}`),
            h("p", { class: "effect" }, option.effect),
            option.note ? h("p", { class: "note" }, option.note) : null)),
        rotations.length > 1 ? h("div", { class: "options rotations", role: "group", "aria-label": "Legal rotations" },
          rotations.map((o, i) => h("button", { type: "button", class: `tile-choice small${i === sel.index % rotations.length ? " chosen" : ""}`,
            "aria-pressed": i === sel.index % rotations.length ? "true" : "false", "data-rotation": String(o.ui.rotation),
            "aria-label": `Rotation ${o.ui.rotation}`, title: `Rotation ${o.ui.rotation}`,
            onclick: () => { sel.index = i; this.render(); this.body.querySelector(`[data-rotation="${o.ui.rotation}"]`)?.focus(); } },
          tilePicture(this.turn, o, 40)))) : null,
        h("div", { class: "options" },
          h("button", { type: "button", id: "rotate", disabled: rotations.length < 2,
            onclick: () => this.rotate(1), "aria-keyshortcuts": "R" }, "Rotate ⟳ (R)"),
          h("button", { type: "button", id: "confirm", class: "primary", onclick: () => this.act(option) }, "Confirm"),
          h("button", { type: "button", id: "cancel", onclick: () => this.cancel() }, "Cancel"))));
    } else {
      parts.push(h("div", { class: "options" }, h("button", { type: "button", onclick: () => this.cancel() }, "Cancel")));
    }
    return h("div", {}, parts);
  }

  basePart(bases) {
    const sel = this.selection && this.selection.kind === "base" ? this.selection : null;
    const hexes = byHex(bases);
    if (!sel) {
      return h("div", {},
        h("p", {}, `Place a base: choose a highlighted hex on the board (${hexes.size} offered), or here:`),
        h("div", { class: "options" }, bases.map((o) => optionButton(o, (opt) => {
          this.board.reveal(opt.ui.hex);
          this.selection = { kind: "base", hex: opt.ui.hex, option: opt };
          this.render();
          this.body.querySelector("#confirm")?.focus();
        }))));
    }
    const here = hexes.get(sel.hex) || [];
    const option = sel.option && here.includes(sel.option) ? sel.option : here.length === 1 ? here[0] : null;
    return h("div", { class: "preview" },
      h("p", {}, h("strong", {}, `Base on ${sel.hex}`), option ? ` · ${costWords(option.cost) || "free"}` : ""),
      option ? h("p", { class: "effect" }, option.effect) : h("p", {}, "Choose the city:"),
      h("div", { class: "options" },
        option ? h("button", { type: "button", id: "confirm", class: "primary", onclick: () => this.act(option) }, "Confirm")
          : here.map((o) => h("button", { type: "button", onclick: () => { sel.option = o; this.render(); } },
            o.ui.station ? `Station ${o.ui.station}` : o.label)),
        h("button", { type: "button", id: "cancel", onclick: () => this.cancel() }, "Cancel")));
  }

  /** 3.1.11: the Elephant offered to a buyer at a price - one select of the buyers and one of
   * the prices the turn model offers that buyer (its options, nothing else), one button. */
  elephantPart(offers) {
    const buyers = [...new Set(offers.map((o) => o.ui.buyer))];
    const buyer = h("select", { id: "elephant-buyer" }, buyers.map((b) => h("option", { value: b }, b)));
    const price = h("select", { id: "elephant-price" });
    const effect = h("p", { class: "effect", id: "elephant-effect", "aria-live": "polite" });
    const chosen = () => offers.find((o) => o.ui.buyer === buyer.value && String(o.ui.price) === price.value);
    const prices = () => {
      const keep = price.value;
      clear(price, offers.filter((o) => o.ui.buyer === buyer.value).map((o) =>
        h("option", { value: String(o.ui.price), selected: String(o.ui.price) === keep }, money(o.ui.price))));
      effect.textContent = chosen()?.effect || "";
    };
    buyer.addEventListener("change", prices);
    price.addEventListener("change", () => { effect.textContent = chosen()?.effect || ""; });
    prices();
    return h("div", { class: "elephant-offer" },
      h("div", { class: "bond-row" },
        h("label", { for: "elephant-buyer" }, "Offer the Elephant to"), buyer,
        h("label", { for: "elephant-price" }, "for"), price,
        h("button", { type: "button", id: "offer-elephant", class: "primary", "data-type": "offer_elephant",
          onclick: () => { const o = chosen(); if (o) this.act(o); } }, "Offer")),
      effect);
  }

  // --- MIK 2: action one card (then its target) or reject cards ------------------------------

  /** MIK 2, ACTIONING CARDS: the cards the turn model offers to action, one button each; the
   * chosen card's targets (its options): a Commodity card's hexes on the board, a Disturbances
   * card's cities in a select, a Director's Share at its cost; and the rejection as
   * checkboxes. Only offered options are ever submitted. */
  cardPart(cards, notNow = []) {
    const plays = cards.filter((o) => o.type === "play_card");
    const rejects = cards.filter((o) => o.type === "reject_cards");
    const held = [];
    for (const o of [...plays.map((p) => [p.ui.card]), ...rejects.map((r) => r.ui.cards || [])].flat()) {
      if (!held.includes(o)) held.push(o);
    }
    const sel = this.selection && this.selection.kind === "card" ? this.selection : null;
    const playable = held.filter((card) => plays.some((o) => o.ui.card === card));
    const parts = [];
    if (playable.length) {
      parts.push(h("p", {}, "Action one card:"),
        h("div", { class: "options cards", role: "group", "aria-label": "Your cards to action" },
          playable.map((card) => h("button", { type: "button", class: sel && sel.card === card ? "chosen" : "",
            "data-card": card, "aria-pressed": sel && sel.card === card ? "true" : "false",
            onclick: () => this.pickCard(card) }, cardName(card)))));
    }
    // A card held that cannot be actioned now: shown disabled, with the engine's reason.
    const unplayable = notNow.filter((o) => o.type === "play_card" && !playable.includes(o.ui.card));
    if (unplayable.length) {
      parts.push(h("div", { class: "options cards not-now", role: "group", "aria-label": "Cards that cannot be actioned now" },
        unplayable.map((o) => disabledButton(o, { label: cardName(o.ui.card), attrs: { "data-card": o.ui.card } }))));
    }
    if (sel) parts.push(this.cardTarget(sel));
    if (rejects.length) parts.push(this.rejectPart(rejects, held, playable.length > 0));
    return h("div", { class: "kit-step" }, parts);
  }

  pickCard(card) {
    this.selection = { kind: "card", card, hex: null };
    this.render();
    const hexes = this.cardOptions(card).map((o) => o.ui.hex).filter(Boolean);
    if (hexes.length) this.board.focus(hexes);
    this.body.querySelector("#card-target, #confirm")?.focus({ preventScroll: true });
  }

  cardTarget(sel) {
    const opts = this.cardOptions(sel.card);
    const cancel = h("button", { type: "button", id: "cancel", onclick: () => this.cancel() }, "Cancel");
    const confirm = (option, words = "Confirm") => h("button", { type: "button", id: "confirm", class: "primary",
      onclick: () => this.act(option) }, words);
    if (opts.some((o) => o.ui.hex)) {
      const option = opts.find((o) => o.ui.hex === sel.hex);
      const select = h("select", { id: "card-target", "aria-label": `Hex for ${cardName(sel.card)}` },
        h("option", { value: "" }, "—"), opts.map((o) => h("option", { value: o.ui.hex, selected: o === option }, o.ui.hex)));
      select.addEventListener("change", () => { if (select.value) { this.board.reveal(select.value); this.hexChosen(select.value); } });
      return h("div", { class: "preview" },
        h("p", {}, h("strong", {}, cardName(sel.card)), ` · choose a highlighted hex on the board (${opts.length} offered) or here: `, select),
        option ? h("p", { class: "effect" }, option.label, ": ", option.effect) : null,
        h("div", { class: "options" }, option ? confirm(option) : null, cancel));
    }
    if (opts.some((o) => o.ui.city)) {
      opts.sort((x, y) => String(x.ui.city).localeCompare(String(y.ui.city))); // easier to find
      const select = h("select", { id: "card-target", "aria-label": `City closed by ${cardName(sel.card)}` },
        opts.map((o, i) => h("option", { value: String(i) }, o.ui.city)));
      const effect = h("p", { class: "effect" }, opts[0].effect);
      select.addEventListener("change", () => { effect.textContent = opts[Number(select.value)].effect; });
      return h("div", { class: "preview" },
        h("p", {}, h("label", { for: "card-target" }, h("strong", {}, cardName(sel.card)), ` · the city to close (${opts.length} allowed): `), select),
        effect,
        h("div", { class: "options" }, h("button", { type: "button", id: "confirm", class: "primary",
          onclick: () => this.act(opts[Number(select.value)]) }, "Close this city"), cancel));
    }
    const option = opts[0];
    return h("div", { class: "preview" },
      h("p", {}, h("strong", {}, cardName(sel.card)), ` · ${costWords(option.cost) || "free"}`),
      h("p", { class: "effect" }, option.effect),
      h("div", { class: "options" }, confirm(option), cancel));
  }

  rejectPart(rejects, held, alternative) {
    const rejectable = held.filter((card) => rejects.some((o) => (o.ui.cards || []).includes(card)));
    const boxes = rejectable.map((card, i) => h("input", { type: "checkbox", id: `reject-${i}`, "data-card": card }));
    const error = h("p", { class: "error", id: "reject-error", role: "alert" });
    const submit = () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.dataset.card).sort();
      const option = rejects.find((o) => [...(o.ui.cards || [])].sort().join("|") === chosen.join("|"));
      if (!chosen.length) error.textContent = "Tick the cards to reject first.";
      else if (!option) error.textContent = "Those cards may not be rejected together now.";
      else this.act(option);
    };
    return h("fieldset", { class: "reject-cards" },
      h("legend", {}, `${alternative ? "Or reject" : "Reject"} cards (face down to the discard stack):`),
      rejectable.map((card, i) => h("label", { class: "check", for: `reject-${i}` }, boxes[i], cardName(card))),
      h("button", { type: "button", id: "reject-cards", onclick: submit }, "Reject the ticked cards"), error);
  }

  // --- secret steps: bonds and city claims, in a dialog ----------------------------------

  secretLauncher(d) {
    const open = h("button", { type: "button", class: "primary", id: "open-secret",
      onclick: () => this.openSecret(d) }, d.options.some((o) => o.type === "place_bond")
      ? "Write down your bond (secret)…" : "Name a city and claim a share (secret)…");
    return h("div", {}, h("p", { class: "hint" }, "This step is secret: it opens in a dialog that only this seat sees."), open);
  }

  // First edition 14: the player composes his own bid from the turn model's composer (cities,
  // the companies each may claim, bond values); the server prices and checks it (preview).
  bidComposer(d) {
    const c = d.composer;
    const bond = h("p", { id: "bid-bond", class: "note" }, "Choose cities and the share each claims.");
    const error = h("p", { id: "bid-error", class: "error", role: "alert" });
    const selects = c.cities.map((city) => h("select", {
      "data-city": city.name, "aria-label": `Share claimed at ${city.name}`,
    }, h("option", { value: "" }, "—"), city.companies.map((co) => h("option", { value: co }, co))));
    const action = () => ({
      type: "submit_bid", entity: d.entity, entity_type: "player",
      id: this.turn.next_id, created_at: 0,
      claims: selects.filter((s) => s.value).map((s) => ({ city: s.dataset.city, company: s.value })),
    });
    const submit = h("button", { type: "button", class: "primary", id: "submit-bid", disabled: true,
      onclick: () => { this.dialog.close(); this.act({ action: action() }); } }, "Submit this bid");
    const check = async () => {
      submit.disabled = true;
      error.textContent = "";
      const a = action();
      if (!a.claims.length) { bond.textContent = "Choose cities and the share each claims."; return; }
      try {
        const { option } = await this.preview(a);
        bond.textContent = `Bond ${money(option.cost)}: ${option.effect}`;
        submit.disabled = false;
      } catch (err) {
        bond.textContent = "";
        error.textContent = err.message;
      }
    };
    for (const s of selects) s.addEventListener("change", check);
    const rows = c.cities.map((city, i) => h("div", { class: "claim-city" },
      h("label", {}, h("strong", {}, city.name),
        h("span", { class: "hint" }, ` ${city.hex} · bond value ${money(city.bond_value)}${city.ganges_valley ? " · Ganges valley" : ""} `),
        selects[i])));
    return h("div", { class: "bid-composer" },
      h("p", { class: "hint" }, `Your own bid: ${c.min_cities} to ${c.max_cities} cities, at most ${c.ganges_limit} in the Ganges valley (rule ${c.rule}).`),
      h("div", { class: "claims" }, rows), bond, error, submit);
  }

  openSecret(d) {
    const { dialog } = this;
    const body = dialog.querySelector("#secret-body");
    dialog.querySelector("#secret-title").textContent = d.what.startsWith(d.player) ? d.what : `${d.player}: ${d.what}`;
    const bonds = d.options.filter((o) => o.type === "place_bond");
    const claims = d.options.filter((o) => o.type === "claim_city");
    const others = d.options.filter((o) => o.type !== "place_bond" && o.type !== "claim_city");
    const parts = [];
    if (bonds.length) {
      const select = h("select", { id: "bond-amount", "aria-label": "Bond amount" },
        bonds.map((o, i) => h("option", { value: String(i) }, o.label)));
      // The chosen bond's own note and effect (the engine's words for that amount), and the
      // engine's warning for a bond that leaves no company to direct (2.9.2, 3.2.1).
      const note = h("p", { class: "note", id: "bond-note" }, bonds[0].note);
      const effect = h("p", { class: "hint", id: "bond-effect", "aria-live": "polite" }, bonds[0].effect);
      const warning = h("p", { class: "warn", id: "bond-warning", hidden: !bonds[0].warning }, bonds[0].warning || "");
      select.addEventListener("change", () => {
        const chosen = bonds[Number(select.value)];
        note.textContent = chosen.note;
        effect.textContent = chosen.effect;
        warning.textContent = chosen.warning ? `⚠ ${chosen.warning}` : "";
        warning.hidden = !chosen.warning;
      });
      if (bonds[0].warning) warning.textContent = `⚠ ${bonds[0].warning}`;
      parts.push(h("div", { class: "bond-row" }, h("label", { for: "bond-amount" }, "Bond"), select,
        h("button", { type: "button", class: "primary", id: "place-bond",
          onclick: () => { dialog.close(); this.act(bonds[Number(select.value)]); } }, "Place bond")), note,
        warning, effect);
    }
    // The claims the bid may not make now stay in the list, disabled, with the engine's reason
    // (2.5.6, 2.5.7 and its look-ahead, 2.5.9, 2.5.10, 3.1.2).
    const claimsNotNow = (d.disabled || []).filter((o) => o.type === "claim_city");
    // Each distinct warning once per city, named by the claims it is about.
    const warningIds = new Map();
    const warningId = (text) => {
      if (!warningIds.has(text)) warningIds.set(text, `warn-${++whyCount}`);
      return warningIds.get(text);
    };
    if (claims.length || claimsNotNow.length) {
      const cities = new Map();
      for (const o of [...claims, ...claimsNotNow]) {
        if (!cities.has(o.ui.city)) cities.set(o.ui.city, []);
        cities.get(o.ui.city).push(o);
      }
      parts.push(h("div", { class: "claims" }, [...cities.entries()].map(([city, opts]) =>
        h("div", { class: "claim-city", "data-city": city },
          h("strong", {}, city), h("span", { class: "hint" }, opts[0].ui.hex ? ` ${opts[0].ui.hex} · bond value ${money(opts[0].ui.bond_value)}` : ""),
          opts[0].note ? h("span", { class: "note" }, ` · ${opts[0].note}`) : null,
          h("div", { class: "options" }, opts.filter((o) => !o.reason).map((o) => h("button", { type: "button",
            "aria-label": o.label, title: o.effect + (o.warning ? ` — Warning: ${o.warning}` : ""), "data-type": "claim_city",
            "data-city": o.ui.city, "data-company": o.ui.company, class: o.warning ? "warned" : null,
            "aria-describedby": o.warning ? warningId(`${city}\n${o.warning}`) : null,
            onclick: () => { dialog.close(); this.act(o); } }, o.warning ? "⚠ " : null, `Claim for ${o.ui.company}`)),
          disabledClaims(opts.filter((o) => o.reason))),
          claimWarnings(opts.filter((o) => !o.reason && o.warning), (text) => warningId(`${city}\n${text}`))))));
    }
    if (d.composer) parts.push(this.bidComposer(d));
    const othersNotNow = (d.disabled || []).filter((o) => o.type !== "claim_city");
    if (others.length || othersNotNow.length) {
      if (d.composer) parts.push(h("p", { class: "hint" }, "Or one of the engine's sample bids:"));
      parts.push(h("div", { class: "options" }, others.map((o) => optionButton(o, (opt) => { dialog.close(); this.act(opt); })),
        othersNotNow.map((o) => disabledButton(o))));
    }
    clear(body, parts);
    if (!dialog.open) dialog.showModal();
  }
}
