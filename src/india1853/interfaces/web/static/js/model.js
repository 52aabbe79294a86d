// Reads the server's turn model. An option without `ui` (docs/web-api.md) is read too: its board
// data is copied from its action's own fields. Nothing here computes a rule.

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

/** The turn model with every key the page reads present. */
export function normalizeTurn(turn) {
  return {
    ...turn,
    decisions: (turn.decisions || []).map((d) => ({ ...d, options: (d.options || []).map(fillUi) })),
  };
}
