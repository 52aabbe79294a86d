// Small DOM helpers: build elements without innerHTML (text is always text, never markup).

/** h("button", {class: "x", onclick: f}, "text", child) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "class") {
      el.className = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  delete el.drawnFrom; // emptied or drawn anew: game.js's drawn() draws it the next time
  el.replaceChildren();
  append(el, children);
  return el;
}

// One formatter for every amount: toLocaleString builds a new one at each call (a table of
// amounts took more script time than the rest of its drawing).
const POUNDS = new Intl.NumberFormat("en-GB");

export function money(value) {
  if (value === null || value === undefined) return "—";
  const sign = value < 0 ? "−" : "";
  return `${sign}£${POUNDS.format(Math.abs(value))}`;
}

/** The cost of an option in words: what the acting entity pays or receives. */
export function costWords(cost) {
  if (cost === null || cost === undefined) return "";
  if (cost === 0) return "free";
  return cost > 0 ? `costs ${money(cost)}` : `receives ${money(-cost)}`;
}

/** A company's initials on its colour, with the initials as the signal (never colour alone). */
export function companyBadge(company) {
  if (!company) return h("span", {}, "");
  return h("span", {
    class: "co",
    style: { background: company.colour || "#ddd", color: company.text_colour || "#000" },
  }, company.initials);
}
