// The always-visible tables: players, companies and shares, market, trains, log, contract,
// scores. They render the turn model's tables (rules layer); nothing here computes a rule.
import { h, clear, money, companyBadge } from "./dom.js";

function activePlayers(turn) {
  return new Set((turn.active || []).map((a) => a.player));
}

export function renderPlayers(el, turn, bonds) {
  const t = turn.tables;
  const acting = activePlayers(turn);
  const companies = new Map(t.companies.map((c) => [c.initials, c]));
  const showBond = t.players.some((p) => (p.bond !== null && p.bond !== undefined) || p.bond_placed);
  clear(el, h("table", { class: "players" },
    h("caption", { class: "sr-only" }, "Players: cash, certificates and directorships"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cash"),
      h("th", { scope: "col" }, "Certificates"), h("th", { scope: "col" }, "Director of"),
      showBond ? h("th", { scope: "col" }, "Bond") : null)),
    h("tbody", {}, t.players.map((p) => {
      const certs = Object.entries(p.certificates || {}).filter(([, n]) => n > 0);
      const count = certs.reduce((s, [, n]) => s + n, 0);
      return h("tr", { class: [p.you ? "you" : "", acting.has(p.name) ? "acting" : ""].join(" ") },
        h("th", { scope: "row" }, p.name,
          acting.has(p.name) ? h("span", { class: "tag" }, "to act") : null,
          p.you ? h("span", { class: "tag" }, "you") : null,
          p.elephant ? h("span", { class: "tag", title: "holds the Elephant (3.1.11)" }, "Elephant") : null),
        h("td", {}, p.cash === null ? h("span", { title: "secret" }, "?") : money(p.cash)),
        h("td", { class: "certs" }, count ? `${count}: ` : "",
          certs.map(([co, n], i) => [i ? ", " : "", `${co} ${n}`,
            (p.unredeemed || {})[co] ? ` (${p.unredeemed[co]} unredeemed)` : ""])),
        h("td", {}, (p.director_of || []).map((co, i) => [i ? " " : "", companyBadge(companies.get(co))])),
        showBond ? h("td", {}, p.bond === null || p.bond === undefined
          ? (p.bond_placed ? "placed" : "—") : money(p.bond)) : null);
    })),
  ), bonds ? h("p", { class: "hint" }, bonds) : null);
}

const SHARE_ACTIONS = ["buy_share", "sell_shares", "redeem_share"];

/** What renderShares reads of the decisions: each one's step and its share options, allowed
 * and not (game.js draws the table again only when these, or the tables, changed). */
export function shareOptions(turn) {
  const share = (o) => SHARE_ACTIONS.includes(o.type);
  return (turn.decisions || []).map((d) => [d.step, (d.options || []).filter(share),
    (d.disabled || []).filter(share)]);
}

/** The share table, 18xx style, with buy and sell buttons enabled only for legal options. Each
 * company's buttons stand in a row of their own under its figures, so that the figures and the
 * players' holdings fit a laptop's side pane however many Sell buttons there are. */
export function renderShares(el, turn, { act, readOnly }) {
  const t = turn.tables;
  const players = t.players.map((p) => p.name);
  const options = [];
  // The options that exist but are not possible now, each with the engine's reason.
  const disabled = [];
  for (const d of turn.decisions || []) {
    for (const o of d.options) if (SHARE_ACTIONS.includes(o.type)) options.push(o);
    for (const o of d.disabled || []) if (SHARE_ACTIONS.includes(o.type)) disabled.push(o);
  }
  const stock = !readOnly && ((turn.decisions || []).some((d) => d.step === "stock") || options.length > 0);
  const holdings = new Map(t.players.map((p) => [p.name, p.certificates || {}]));
  // A disabled button names the engine's reason: as its title, and in words under the row's
  // buttons (its aria-describedby). An option the engine warns about (it would leave the
  // player no company to direct) carries a mark, and the warning in words likewise.
  const button = (label, option, what, company, kind, why) => h("button", {
    type: "button", disabled: !option, "aria-label": what, "data-company": company, "data-kind": kind,
    class: option && option.warning ? "warned" : null,
    title: option ? `${option.effect}${option.note ? ` — ${option.note}` : ""}${option.warning ? ` — Warning: ${option.warning}` : ""}`
      : why ? `${what}: ${why.reason}` : `${what}: not allowed now`,
    "aria-describedby": !option && why ? `why-${company}-${kind}` : option && option.warning ? `warn-${company}-${kind}` : null,
    onclick: option ? () => act(option) : null,
  }, option && option.warning ? "⚠ " : null, label);
  const reasons = (company, whys, warned) => {
    const shown = whys.filter(([, why]) => why);
    if (!shown.length && !warned.length) return null;
    return h("span", { class: "share-why" },
      warned.map(([kind, option, words]) => h("span", { class: "warn", id: `warn-${company}-${kind}`, "data-rule": option.rule },
        `⚠ ${words}: ${option.warning}`)),
      shown.map(([kind, why, words]) =>
        h("span", { class: "why", id: `why-${company}-${kind}`, "data-rule": why.rule }, `${words}: ${why.reason}`)));
  };
  const columns = 7 + players.length;
  const floatWords = (c) => (c.float && !c.float.floated
    ? `${c.float.issued}/${c.float.qualifying} issued` : null);
  const rows = t.companies.flatMap((c) => {
    const mine = options.filter((o) => o.ui && o.ui.company === c.initials);
    const find = (type, source) => mine.find((o) => o.type === type && (!source || o.ui.source === source));
    const sells = mine.filter((o) => o.type === "sell_shares").sort((a, b) => a.ui.count - b.ui.count);
    const redeem = find("redeem_share");
    const notNow = disabled.filter((o) => o.ui && o.ui.company === c.initials);
    const whyNot = (type, source) => notNow.find((o) => o.type === type && (!source || o.ui.source === source));
    const buyIpo = find("buy_share", "ipo");
    const buyPool = find("buy_share", "pool");
    const whyIpo = buyIpo ? null : whyNot("buy_share", "ipo");
    const whyPool = buyPool ? null : whyNot("buy_share", "pool");
    const whySell = sells.length ? null : whyNot("sell_shares");
    // An un-redeemed share the player cannot pay for (2.7.4): the button, disabled, says why.
    const whyRedeem = redeem ? null : whyNot("redeem_share");
    const warned = [["buy-ipo", buyIpo, "IPO"], ["buy-pool", buyPool, "Pool"]].filter(([, o]) => o && o.warning);
    const figures = h("tr", { class: `${c.floated ? "floated" : ""}${stock ? " has-actions" : ""}`, "data-company": c.initials },
      // The kind under the badge, beside the state (no wider column).
      h("th", { scope: "row", title: `${c.name}. ${c.kind_words}` }, companyBadge(c),
        kindTag(c) || c.state !== "operating" ? h("span", { class: "co-state", title: c.float && !c.float.floated ? c.float.text : null,
          "data-float": c.initials }, kindTag(c), kindTag(c) && c.state !== "operating" ? " · " : "",
          c.state === "operating" ? "" : c.state,
          floatWords(c) ? h("span", { class: "issued" }, ` · ${floatWords(c)}`) : null) : null),
      h("td", {}, money(c.par)), h("td", {}, c.price === null ? "—" : money(c.price)),
      h("td", {}, money(c.treasury)),
      h("td", { class: "trains" }, (c.trains || []).join(", ") || "—", c.credit_train ? ` (+${c.credit_train} on credit)` : ""),
      h("td", {}, String(c.ipo)), h("td", {}, String(c.pool)),
      players.map((n) => {
        const count = holdings.get(n)[c.initials] || 0;
        const director = c.director === n;
        return h("td", { "data-player": n }, count ? String(count) : "",
          director ? h("abbr", { class: "dir", title: `${n} is the director` }, " D") : null);
      }));
    if (!stock) return [figures];
    const actions = h("tr", { class: "share-row", "data-company": c.initials },
      h("td", { colspan: String(columns) }, h("div", { class: "share-actions", role: "group",
        "aria-label": `${c.initials}: buy or sell` },
        button("Buy IPO", buyIpo, `Buy ${c.initials} from the offering`, c.initials, "buy-ipo", whyIpo),
        button("Buy pool", buyPool, `Buy ${c.initials} from the pool`, c.initials, "buy-pool", whyPool),
        button("Sell", sells[0], `Sell a share of ${c.initials}`, c.initials, "sell", whySell),
        sells.slice(1).map((o) => button(`Sell ${o.ui.count}`, o, `Sell ${o.ui.count} shares of ${c.initials}`, c.initials, `sell-${o.ui.count}`)),
        redeem || whyRedeem ? button("Redeem", redeem, `Redeem a ${c.initials} share`, c.initials, "redeem", whyRedeem) : null),
      reasons(c.initials, [["buy-ipo", whyIpo, "IPO"], ["buy-pool", whyPool, "Pool"], ["sell", whySell, "Sell"],
        ["redeem", whyRedeem, "Redeem"]], warned)));
    return [figures, actions];
  });
  // What floats a company (2.7.5 / 16.7): the engine's sentence, the same for every company
  // but for its numbers; shown once, with the first company not yet floated.
  const unfloated = t.companies.find((c) => c.float && !c.float.floated);
  clear(el, h("table", { class: `shares${stock ? " stock" : ""}` },
    h("caption", { class: "sr-only" }, "Companies: par, price, treasury, trains, shares in the offering, the pool and each player's hands"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Company"),
      h("th", { scope: "col" }, "Par"),
      h("th", { scope: "col" }, "Price"), h("th", { scope: "col", title: "treasury" }, "Cash"),
      h("th", { scope: "col" }, "Trains"), h("th", { scope: "col", title: "the offering (IPO)" }, "IPO"),
      h("th", { scope: "col" }, "Pool"),
      players.map((n) => h("th", { scope: "col", class: "holder", title: n }, n)))),
    h("tbody", {}, rows)),
  unfloated ? h("p", { class: "hint float-rule", id: "float-rule" }, "To float: ", unfloated.float.text) : null,
  h("p", { class: "hint" }, "D: director. Bank: ", h("strong", {}, money(t.bank)),
    t.bank_broken ? " — the bank is broken" : ""));
}

export function renderMarket(el, turn) {
  const m = turn.tables.market;
  const companies = new Map(turn.tables.companies.map((c) => [c.initials, c]));
  const spaces = (m.values || []).map((value, i) => {
    const markers = (m.markers || {})[String(i)] || [];
    const end = m.game_end_price !== undefined && m.game_end_price !== null && value >= m.game_end_price;
    const exempt = m.limit_exempt_price !== undefined && m.limit_exempt_price !== null
      && value <= m.limit_exempt_price;
    return h("li", { class: `space${end ? " end" : ""}${exempt ? " exempt" : ""}`,
      "aria-label": `£${value}${markers.length ? `: ${markers.join(", ")}` : ""}${end ? " (the game ends)" : ""}` },
      h("span", { class: "price" }, `${value}${end ? "★" : ""}`),
      markers.map((co) => {
        const spec = companies.get(co) || {};
        return h("span", { class: "marker", style: { background: spec.colour || "#ddd",
          color: spec.text_colour || "#000" } }, co);
      }));
  });
  clear(el, h("ol", { class: "market", "aria-label": "Stock market track, lowest first" }, spaces),
    h("p", { class: "hint" },
      m.game_end_price ? `★ £${m.game_end_price} or more ends the game. ` : "",
      m.limit_exempt_price ? `Green: at most £${m.limit_exempt_price}, exempt from the holding limit.` : ""));
}

export function renderTrains(el, turn) {
  const tr = turn.tables.trains;
  clear(el,
    // The phase in the engine's words (train limit or none, the tile colours or none yet).
    h("p", { id: "phase-words" }, h("strong", {}, `Phase ${tr.phase}`), ` · ${tr.words}`,
      ` · bank ${money(turn.tables.bank)}`),
    h("table", {},
      h("caption", { class: "sr-only" }, "Train roster"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Train"), h("th", { scope: "col" }, "Gauge"),
        h("th", { scope: "col" }, "Price"), h("th", { scope: "col" }, "Left"),
        h("th", { scope: "col" }, "Pool"), h("th", { scope: "col" }, "Starts phase"))),
      h("tbody", {}, tr.roster.map((r) => h("tr", { class: (tr.available || []).includes(r.type) ? "available" : "" },
        h("th", { scope: "row" }, r.type, (tr.available || []).includes(r.type) ? h("span", { class: "tag" }, "on sale") : null),
        h("td", {}, r.gauge || ""),
        h("td", {}, r.price === null || r.price === undefined ? (r.prices || []).map(money).join(" / ") : money(r.price)),
        h("td", {}, String(r.left)), h("td", {}, String(r.pool || 0)),
        h("td", {}, r.starts_phase === null || r.starts_phase === undefined ? "" : String(r.starts_phase)))))));
}

/** The viewer's own contract (2.5, 4.3). At a shared screen (hotseat) it stays folded until
 * asked for, so that the other players at the table do not read it by chance. */
export function renderContract(section, body, turn, { shared = false, player = "" } = {}) {
  const c = turn.tables.contract;
  section.hidden = !c;
  if (!c) return;
  // The progress (the engine's, rules/game/contract_progress.py): per city whether it is joined
  // by track to another city of the bid (4.3.1), and the warning when it is out of reach.
  const progress = c.progress;
  const joined = (city) => {
    if (!progress || progress.fulfilled) return "";
    return city.connected ? ` — ✓ joined to ${city.joined_to.join(", ")}` : " — ✗ not joined yet";
  };
  const content = [
    h("p", {}, `Bond ${money(c.bond)}`, c.returned ? " (returned)" : "",
      c.uncovered !== undefined ? ` · uncovered ${money(c.uncovered)}` : ""),
    c.cities && c.cities.length
      ? h("ul", { class: "contract-cities" }, c.cities.map((city) => h("li", {
        "data-city": city.name, "data-connected": progress ? String(Boolean(city.connected)) : null },
      `${city.name} (${city.hex}), bond value ${money(city.bond_value)}`, joined(city))))
      : h("p", { class: "hint" }, "No city named yet."),
    progress ? h("p", { class: progress.warning ? "warn contract-status" : "hint contract-status",
      id: "contract-status", role: progress.warning ? "alert" : null },
    progress.warning ? "⚠ Contract " : "Contract: ", progress.status) : null,
  ];
  const open = body.querySelector("details")?.open && body.dataset.player === player;
  body.dataset.player = player;
  clear(body, shared
    ? h("details", { open }, h("summary", {}, `Show ${player}'s contract (only ${player} should look)`), content)
    : content);
}

export function renderScores(section, body, turn, chartsUrl) {
  const scores = turn.tables.scores;
  section.hidden = !turn.finished;
  if (!turn.finished) return;
  let rows = [];
  if (Array.isArray(scores)) {
    rows = scores.map((s) => [s.name ?? s.player, s.total ?? s.score ?? s.value, s]);
  } else if (scores && typeof scores === "object") {
    rows = Object.entries(scores).map(([name, v]) => [name, typeof v === "object" ? (v.total ?? v.score) : v, v]);
  }
  rows.sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0));
  clear(body,
    rows.length ? h("ol", { class: "scores" }, rows.map(([name, total]) =>
      h("li", {}, h("strong", {}, name), ` ${money(total)}`))) : h("p", {}, "The game is over."),
    chartsUrl ? h("div", { class: "charts" },
      h("a", { href: chartsUrl, target: "_blank", rel: "noopener", "aria-label": "The charts, full size" },
        h("img", { src: chartsUrl, alt: "Charts of the game: each player's worth and the companies' share prices by round" }))) : null);
}

export function logWords(entry) {
  if (typeof entry === "string") return entry;
  if (!entry || typeof entry !== "object") return String(entry);
  if (Array.isArray(entry.lines)) return entry.lines.join(" ");
  return entry.text ?? entry.words ?? entry.message ?? entry.description ?? JSON.stringify(entry);
}

// A MIK 2 card's id in a sentence of the log (india1853.data.kit: DS:<company>:<n>,
// COMMODITY:<name>, DISTURBANCES:<n>).
const CARD_ID = /\b(?:DS:[A-Z]+:\d+|COMMODITY:[A-Z_]+|DISTURBANCES:\d+)\b/g;
// A new round, as the narration marks it: "— Stock round 2 —".
const ROUND_MARK = /^— (.+) —$/;

/** One sentence of the log as a reader wants it: a card named, not its id. */
export function logSentence(text) {
  return String(text).replace(CARD_ID, (id) => cardName(id));
}

/** The log, newest last: each action's sentences on its line, and each new round a heading
 * of its own (a list item holding an h3) between the actions. ``drawn`` is how many of
 * ``entries`` the list already shows (they never change: the log only grows): only the lines
 * after them are added, so a new action does not lay out a long game's thousands of lines
 * again; any other count draws the whole list anew. */
export function renderLog(el, entries, drawn = 0) {
  const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
  const from = drawn > 0 && el.logEntries === drawn ? drawn : 0;
  const items = [];
  for (const e of entries.slice(from)) {
    const lines = e && typeof e === "object" && Array.isArray(e.lines) ? e.lines : [logWords(e)];
    const words = lines.filter((line) => !ROUND_MARK.test(line)).map(logSentence);
    if (words.length) items.push(h("li", { value: e && e.id ? e.id : null }, words.join(" ")));
    for (const line of lines) {
      const mark = ROUND_MARK.exec(line);
      if (mark) items.push(h("li", { class: "round-mark" }, h("h3", {}, mark[1])));
    }
  }
  if (from) el.append(...items);
  else clear(el, items);
  el.logEntries = entries.length;
  if (atEnd) el.scrollTop = el.scrollHeight;
}

/** One line above the board that never scrolls away: the phase, the bank, each player's cash
 * (the ones to act underlined and marked), and the trains on sale. */
export function renderStatus(el, turn) {
  const t = turn.tables;
  const acting = activePlayers(turn);
  const available = t.trains.available || [];
  const onSale = (t.trains.roster || []).filter((r) => r.left > 0
    && String(r.type).split("/").some((type) => available.includes(type)));
  const price = (r) => (r.price === null || r.price === undefined
    ? (r.prices || []).map(money).join("/") : money(r.price));
  clear(el,
    h("span", {}, h("strong", {}, `Phase ${t.trains.phase}`)),
    h("span", {}, `Bank ${money(t.bank)}`),
    t.players.map((p) => h("span", { class: acting.has(p.name) ? "acting" : "" },
      acting.has(p.name) ? "▶ " : "", `${p.name} ${p.cash === null ? "?" : money(p.cash)}`)),
    onSale.length ? h("span", {}, "On sale: ", onSale.map((r) => `${r.type} ${price(r)} (${r.left} left)`).join(", ")) : null);
}

/** A company's kind as a tag ("minor"; "major or minor" while undecided), the engine's words
 * on what it means as its title; majors carry none (most companies are). */
export function kindTag(c) {
  if (c.kind === "major" || !c.kind) return null;
  return h("abbr", { class: "tag kind", "data-kind": c.kind, title: c.kind_words },
    c.kind === "minor" ? "minor" : "major or minor");
}

/** The operating company's card: treasury, trains, bases, price, and what its kind means. */
export function entityCard(turn, initials) {
  const c = turn.tables.companies.find((x) => x.initials === initials);
  if (!c) return null;
  return h("div", { class: "entity-card", "aria-label": `${c.initials} at a glance` },
    companyBadge(c), kindTag(c), h("span", {}, `Treasury ${money(c.treasury)}`),
    h("span", {}, `Trains ${(c.trains || []).join(", ") || "none"}`),
    c.base_tokens !== undefined ? h("span", {}, `Bases ${c.bases}/${c.base_tokens}`) : null,
    c.price !== null && c.price !== undefined ? h("span", {}, `Price ${money(c.price)}`) : null,
    c.kind_words ? h("span", { class: "kind-words hint" }, c.kind_words) : null);
}

// --- the MIK 2 kit (first edition, variant mik2) -------------------------------------------------

function titleCase(word) {
  return String(word).toLowerCase().replace(/(^|[\s_-])(\w)/g, (_, sep, c) => sep + c.toUpperCase());
}

/** A kit card's plain name from its id (india1853.data.kit: DS:<company>:<n>,
 * COMMODITY:<name>, DISTURBANCES:<n>); words only, no rule. */
export function cardName(id) {
  const [kind, what] = String(id).split(":");
  if (kind === "DS") return `Director's Share of ${what}`;
  if (kind === "COMMODITY") return `Commodity: ${titleCase(what)}`;
  if (kind === "DISTURBANCES") return "Disturbances";
  return String(id);
}

/** MIK 2: the viewer's own cards (its view's hand; another seat's is null in the view, so it is
 * never there to show), and for everyone the public counts: cards held per player, the stack
 * and the discard stack, the Director's Shares held and the cities closed. At a shared
 * screen (hotseat) the hand stays folded until asked for, like the contract. */
export function renderKit(section, body, turn, { seat = "", shared = false } = {}) {
  const kit = turn.view && turn.view.kit;
  section.hidden = !kit;
  if (!kit) return;
  const hand = seat && kit.hands ? kit.hands[seat] : null;
  section.querySelector("h2").textContent = Array.isArray(hand) ? "Your cards (secret)" : "MIK 2 cards";
  const parts = [];
  if (Array.isArray(hand)) {
    const cards = hand.length
      ? h("ul", { class: "hand", id: "kit-hand", "aria-label": `${seat}'s cards` },
        hand.map((id) => h("li", { class: "kit-card", "data-card": id }, cardName(id))))
      : h("p", { class: "hint", id: "kit-hand" }, "You hold no card.");
    const open = body.querySelector("details")?.open && body.dataset.player === seat;
    parts.push(shared ? h("details", { open }, h("summary", {}, `Show ${seat}'s cards (only ${seat} should look)`), cards) : cards);
  }
  body.dataset.player = seat;
  const sizes = kit.hand_sizes || {};
  const directors = kit.directors_shares || {};
  parts.push(
    h("table", { class: "kit-counts" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cards held"),
        h("th", { scope: "col" }, "Director's Shares held"))),
      h("tbody", {}, Object.keys(sizes).map((p) => h("tr", { class: p === seat ? "you" : "", "data-player": p },
        h("th", { scope: "row" }, p), h("td", { "data-player": p }, String(sizes[p])),
        h("td", {}, (directors[p] || []).map((id) => String(id).split(":")[1]).join(", ")))))),
    h("p", { id: "kit-stacks" }, `Stack ${kit.deck} · discard ${kit.discard}`,
      kit.closed ? ` · closed this railway round: ${kit.closed}` : "",
      kit.disturbed && kit.disturbed.length ? ` · disturbed: ${kit.disturbed.join(", ")}` : ""));
  clear(body, parts);
}
