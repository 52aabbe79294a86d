// Reads the server's turn model. A server still on the engine-view adapter (docs/web-api.md:
// `tables` {} and options without `ui`) is read too: the tables are copied from the raw view
// and an option's board data from its action's own fields. Nothing here computes a rule.

const UI_FIELDS = ["hex", "tile", "rotation", "station", "company", "source", "count", "city", "train"];

function fillUi(option) {
  const ui = { ...(option.ui || {}) };
  const action = option.action || {};
  for (const key of UI_FIELDS) {
    if (ui[key] === undefined && action[key] !== undefined) ui[key] = action[key];
  }
  if (action.type === "sell_shares" && !ui.source) ui.source = "player";
  if (action.type === "run_routes" && !ui.routes && Array.isArray(action.routes)) {
    ui.routes = action.routes.map((r) => ({
      train: r.train, mail: Boolean(r.mail),
      hexes: r.hexes.map((x) => String(x).split(":")[0]),
      revenue: null,
    }));
  }
  return { ...option, label: option.label || action.type, ui };
}

function tablesFromView(view, seat) {
  const companies = Object.entries(view.companies || {}).map(([initials, c]) => ({
    initials, name: initials, kind: c.kind, par: null, price: c.price, treasury: c.cash,
    trains: (c.trains || []).map((id) => String(id).split("-")[0]), ipo: c.ipo, pool: c.pool,
    director: c.director, controller: c.controller, floated: c.floated, formed: c.formed,
    state: c.formed ? "operating" : c.floated ? "floated" : "not floated",
  }));
  const directors = {};
  for (const c of companies) if (c.director) (directors[c.director] ||= []).push(c.initials);
  const roster = new Map();
  for (const t of view.trains || []) {
    const r = roster.get(t.card) || { type: t.card, price: null, left: 0, pool: 0 };
    if (t.where === "bank") r.left += 1;
    if (t.where === "pool") r.pool += 1;
    roster.set(t.card, r);
  }
  return {
    players: (view.players || []).map((p) => ({
      name: p.name, cash: p.cash, certificates: p.shares || {}, unredeemed: p.unredeemed || {},
      director_of: directors[p.name] || [], bond: p.bond, bond_placed: p.bond_placed,
      elephant: view.elephant === p.name, you: p.name === seat,
    })),
    companies,
    market: { values: [], markers: {} },
    trains: { roster: [...roster.values()], phase: view.phase },
    bank: view.bank,
    bank_broken: view.bank_broken,
    contract: null,
    scores: view.scores || null,
  };
}

/** The turn model with every key the page reads present. */
export function normalizeTurn(turn, seat = null) {
  const tables = turn.tables && turn.tables.players ? turn.tables : tablesFromView(turn.view || {}, seat);
  return {
    ...turn,
    tables,
    decisions: (turn.decisions || []).map((d) => ({ ...d, options: (d.options || []).map(fillUi) })),
  };
}
