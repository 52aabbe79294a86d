// The lobby's "Chess clock and absent players" fields as POST /api/games's `clock` and
// `absent_after` (docs/web-api.md); a bad value throws one line naming the field.

function number(doc, id, field) {
  const text = doc.getElementById(id).value.trim();
  if (!text) return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${field}: a number of 0 or more, or empty`);
  return value;
}

export function seatRules(doc) {
  const out = {};
  const minutes = number(doc, "clock-minutes", "clock minutes");
  if (minutes) {
    out.clock = {
      bank: minutes * 60,
      increment: number(doc, "clock-increment", "clock increment") || 0,
      at_zero: doc.getElementById("clock-at-zero").value,
      bot: doc.getElementById("clock-bot").value,
    };
  }
  const hours = number(doc, "absent-hours", "absent after");
  if (hours) out.absent_after = hours * 3600;
  return out;
}
