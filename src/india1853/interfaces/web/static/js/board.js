// The board: the server's SVG (drawn by our renderer), zoomable and pannable, with the hexes a
// decision offers highlighted (outline and hatching, not colour alone), a tile preview, and runs.
import { h } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// One colour AND one dash pattern per train, so routes differ without colour vision.
export const ROUTE_STYLES = [
  { colour: "#e6194b", dash: "" },
  { colour: "#1f6fd1", dash: "28 12" },
  { colour: "#2e9e3f", dash: "6 10" },
  { colour: "#f58231", dash: "30 8 6 8" },
  { colour: "#911eb4", dash: "14 6" },
  { colour: "#0f8f8f", dash: "4 4" },
];
const TILE_FILL = { yellow: "#f4d63c", green: "#5fbf5a", brown: "#b9804e", grey: "#b4b4b4" };

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export class Board {
  constructor(container, { onHex } = {}) {
    this.container = container;
    this.onHex = onHex || (() => {});
    this.svg = null;
    this.natural = { width: 1, height: 1 };
    this.zoom = null;
    this.offered = new Map(); // hex -> label
    this.selected = null;
    this.installPanning();
    container.addEventListener("click", (event) => {
      if (this.dragMoved) return;
      const target = event.target.closest && event.target.closest(".hex-target");
      if (target && this.offered.has(target.dataset.hex)) this.onHex(target.dataset.hex);
    });
    container.addEventListener("keydown", (event) => {
      const target = event.target.closest && event.target.closest(".hex-target");
      if (target && (event.key === "Enter" || event.key === " ")
          && this.offered.has(target.dataset.hex)) {
        event.preventDefault();
        this.onHex(target.dataset.hex);
      }
    });
  }

  /** Replace the picture, keeping the zoom and the scroll position. The picture enters the
   * page at place() (game.js calls it once the decisions are drawn; else the next task):
   * a decision's focus() sets its zoom first, and the browser lays its hundreds of labels out
   * once, at the zoom it is shown at (issue 20: a zoom after the picture was in the page cost
   * a second full layout of it on every page load and board change). */
  show(svgText) {
    const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName !== "svg") throw new Error("the board picture could not be read");
    const box = svg.viewBox.baseVal;
    this.natural = { width: box.width || Number(svg.getAttribute("width")),
                     height: box.height || Number(svg.getAttribute("height")) };
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "The board of India");
    const defs = svgEl("defs");
    const pattern = svgEl("pattern", { id: "offer-hatch", width: 18, height: 18,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    pattern.append(svgEl("rect", { width: 18, height: 18, fill: "#ffb000", "fill-opacity": 0.18 }),
      svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 18, stroke: "#d06a00", "stroke-width": 5,
        "stroke-opacity": 0.45 }));
    defs.append(pattern);
    svg.prepend(defs);
    this.overlay = svgEl("g", { class: "ui-overlay" });
    const targets = svg.querySelector(".hex-targets");
    if (targets) svg.insertBefore(this.overlay, targets); else svg.append(this.overlay);
    // Sized before it enters the page, and moved there rather than copied: the browser lays
    // the picture out once. Its hundreds of labels are laid out again whenever its scale
    // changes, so inserting it at its natural size and zooming afterwards cost a second full
    // layout on every board change (issue 20: most of the page's CPU).
    if (this.zoom === null) this.zoom = this.fitting(this.natural);
    if (!this.unplaced) {
      const { scrollLeft, scrollTop } = this.container;
      this.unplaced = { left: scrollLeft, top: scrollTop };
      setTimeout(() => this.place(), 0);
    }
    this.svg = document.adoptNode(svg);
    this.highlight(this.offered, this.selected);
  }

  /** The picture given to show() into the page, at its zoom and scroll position. */
  place() {
    const at = this.unplaced;
    if (!at) return;
    this.unplaced = null;
    this.applyZoom();
    this.container.replaceChildren(this.svg);
    this.container.scrollLeft = at.left;
    this.container.scrollTop = at.top;
  }

  target(hex) {
    return this.svg ? this.svg.querySelector(`.hex-target[data-hex="${CSS.escape(hex)}"]`) : null;
  }

  /** Centre and radius of a hex, read from its outline in the picture. */
  geometry(hex) {
    const target = this.target(hex);
    if (!target) return null;
    const pts = target.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
    const cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
    const r = Math.hypot(pts[0][0] - cx, pts[0][1] - cy);
    return { cx, cy, r };
  }

  /** Highlight ``offered`` (Map hex -> words) as focusable buttons; ``selected`` stands out. */
  highlight(offered, selected = null) {
    this.offered = offered;
    this.selected = selected;
    if (!this.svg) return;
    // The same hexes on the same picture (a live event drawing the decisions again): each
    // hex's attributes are as they were; rewriting them restyles the picture's targets.
    const key = JSON.stringify([[...offered], selected]);
    if (this.highlighted && this.highlighted.svg === this.svg && this.highlighted.key === key) return;
    this.highlighted = { svg: this.svg, key };
    for (const el of this.svg.querySelectorAll(".hex-target")) {
      const hex = el.dataset.hex;
      const on = offered.has(hex);
      el.classList.toggle("offered", on && hex !== selected);
      el.classList.toggle("selected", hex === selected);
      if (on) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", `${el.querySelector("title")?.textContent || hex}: ${offered.get(hex)}`);
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    }
  }

  clearOverlay() {
    if (this.overlay) this.overlay.replaceChildren();
  }

  /** A tile's outline in its colour with its exits drawn from the centre, and its number. */
  preview(hex, ui) {
    this.clearOverlay();
    const g = this.geometry(hex);
    if (!g || !this.overlay) return;
    const group = svgEl("g", { class: "preview-tile", "aria-hidden": "true" });
    if (ui.picture) {
      // The renderer's own picture of the tile as it would lie (the tile choices' picture),
      // scaled to the hex (the picture's hex is 50 units from centre to corner, 2 of margin).
      const k = g.r / 50;
      const w = (50 * Math.sqrt(3) + 4) * k;
      const hgt = 104 * k;
      group.append(svgEl("image", { href: ui.picture, x: g.cx - w / 2, y: g.cy - hgt / 2, width: w, height: hgt }));
      group.append(svgEl("polygon", { points: this.corners(g, 0.98), fill: "none", stroke: "#10226b", "stroke-width": 5 }));
      this.overlay.append(group);
      return;
    }
    const corners = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (-90 + 60 * k);
      corners.push(`${g.cx + g.r * 0.96 * Math.cos(a)},${g.cy + g.r * 0.96 * Math.sin(a)}`);
    }
    group.append(svgEl("polygon", { points: corners.join(" "), fill: TILE_FILL[ui.colour] || "#ffffff",
      "fill-opacity": 0.92, stroke: "#10226b", "stroke-width": 4 }));
    for (const side of ui.exits || []) {
      const a = (Math.PI / 180) * (120 + 60 * side);
      const d = g.r * Math.sqrt(3) / 2;
      group.append(svgEl("line", { x1: g.cx, y1: g.cy, x2: g.cx + d * Math.cos(a),
        y2: g.cy + d * Math.sin(a), stroke: "#111", "stroke-width": g.r * 0.16, "stroke-linecap": "round" }));
    }
    group.append(svgEl("circle", { cx: g.cx, cy: g.cy, r: g.r * 0.2, fill: "#fff", stroke: "#111", "stroke-width": 3 }));
    group.append(svgEl("text", { x: g.cx, y: g.cy + g.r * 0.62, "text-anchor": "middle",
      "font-size": g.r * 0.26, "font-weight": "bold", fill: "#111", stroke: "#fff",
      "stroke-width": 4, "paint-order": "stroke" }, `#${ui.tile} r${ui.rotation}`));
    this.overlay.append(group);
  }

  corners(g, scale) {
    const out = [];
    for (let k = 0; k < 6; k++) {
      const a = (Math.PI / 180) * (-90 + 60 * k);
      out.push(`${g.cx + g.r * scale * Math.cos(a)},${g.cy + g.r * scale * Math.sin(a)}`);
    }
    return out.join(" ");
  }

  /** Each route as a line through its hexes' centres in its train's colour and dash. */
  routes(routes) {
    this.clearOverlay();
    if (!this.overlay) return;
    routes.forEach((route, i) => {
      const style = ROUTE_STYLES[i % ROUTE_STYLES.length];
      const points = route.hexes.map((hex) => this.geometry(hex)).filter(Boolean);
      if (!points.length) return;
      const r = points[0].r;
      const offset = (i - (routes.length - 1) / 2) * r * 0.1; // parallel routes stay visible
      const d = points.map((p, j) => `${j ? "L" : "M"}${p.cx + offset},${p.cy + offset}`).join(" ");
      this.overlay.append(svgEl("path", { d, class: "route-line", stroke: "#fff",
        "stroke-width": r * 0.22, "stroke-opacity": 0.8 }));
      this.overlay.append(svgEl("path", { d, class: "route-line", stroke: style.colour,
        "stroke-width": r * 0.14, "stroke-dasharray": style.dash }));
      for (const [j, p] of [[0, points[0]], [1, points[points.length - 1]]]) {
        const label = `${route.train}${route.mail && j === 0 ? " ✉" : ""}`;
        this.overlay.append(svgEl("text", { x: p.cx + offset, y: p.cy + offset - r * 0.3,
          "text-anchor": "middle", "font-size": r * 0.3, "font-weight": "bold", fill: style.colour,
          stroke: "#fff", "stroke-width": 5, "paint-order": "stroke", "pointer-events": "none" }, label));
      }
    });
  }

  // --- zoom and pan ---------------------------------------------------------------------

  fit() {
    this.place();
    this.zoom = this.fitting(this.natural);
    this.applyZoom();
  }

  /** The zoom at which a picture of ``size`` fills the view. */
  fitting(size) {
    const w = this.container.clientWidth || 800;
    const hgt = this.container.clientHeight || 600;
    return Math.min(w / size.width, hgt / size.height);
  }

  setZoom(zoom, anchor = null) {
    this.place();
    const old = this.zoom || 1;
    const z = Math.max(0.1, Math.min(3, zoom));
    const c = this.container;
    const ax = anchor ? anchor.x : c.clientWidth / 2;
    const ay = anchor ? anchor.y : c.clientHeight / 2;
    const px = (c.scrollLeft + ax) / old;
    const py = (c.scrollTop + ay) / old;
    this.zoom = z;
    this.applyZoom();
    c.scrollLeft = px * z - ax;
    c.scrollTop = py * z - ay;
  }

  applyZoom() {
    if (!this.svg) return;
    this.svg.setAttribute("width", String(Math.round(this.natural.width * this.zoom)));
    this.svg.setAttribute("height", String(Math.round(this.natural.height * this.zoom)));
  }

  /** Zoom and scroll so that ``hexes`` fill the view (never zooming out, at most ``max``). */
  focus(hexes, max = 0.9) {
    const points = hexes.map((hex) => this.geometry(hex)).filter(Boolean);
    if (!points.length || !this.svg) return;
    const r = points[0].r * 2;
    const left = Math.min(...points.map((p) => p.cx)) - r;
    const right = Math.max(...points.map((p) => p.cx)) + r;
    const top = Math.min(...points.map((p) => p.cy)) - r;
    const bottom = Math.max(...points.map((p) => p.cy)) + r;
    const c = this.container;
    const fitting = Math.min(c.clientWidth / (right - left), c.clientHeight / (bottom - top), max);
    if (fitting > this.zoom) {
      this.zoom = fitting;
      this.applyZoom();
    }
    const scroll = { left: ((left + right) / 2) * this.zoom - c.clientWidth / 2,
                     top: ((top + bottom) / 2) * this.zoom - c.clientHeight / 2 };
    if (this.unplaced) this.unplaced = scroll; // place() scrolls there
    else {
      c.scrollLeft = scroll.left;
      c.scrollTop = scroll.top;
    }
  }

  /** Scroll so that ``hex`` is in view. */
  reveal(hex) {
    this.place();
    const g = this.geometry(hex);
    if (!g) return;
    const c = this.container;
    const x = g.cx * this.zoom;
    const y = g.cy * this.zoom;
    if (x < c.scrollLeft || x > c.scrollLeft + c.clientWidth
        || y < c.scrollTop || y > c.scrollTop + c.clientHeight) {
      c.scrollLeft = x - c.clientWidth / 2;
      c.scrollTop = y - c.clientHeight / 2;
    }
  }

  installPanning() {
    const c = this.container;
    let start = null;
    c.addEventListener("pointerdown", (event) => {
      // Mouse and pen drag to pan; touch pans by native scrolling (pinch-zoom stays the browser's).
      if (event.pointerType === "touch" || event.button !== 0) return;
      start = { x: event.clientX, y: event.clientY, left: c.scrollLeft, top: c.scrollTop };
      this.dragMoved = false;
    });
    window.addEventListener("pointermove", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!this.dragMoved && Math.hypot(dx, dy) < 6) return;
      this.dragMoved = true;
      c.classList.add("dragging");
      c.scrollLeft = start.left - dx;
      c.scrollTop = start.top - dy;
    });
    window.addEventListener("pointerup", () => {
      start = null;
      c.classList.remove("dragging");
      setTimeout(() => { this.dragMoved = false; }, 0);
    });
    c.addEventListener("wheel", (event) => {
      if (!event.ctrlKey && !event.metaKey) return; // plain wheel scrolls (pans)
      event.preventDefault();
      const rect = c.getBoundingClientRect();
      this.setZoom(this.zoom * (event.deltaY < 0 ? 1.15 : 1 / 1.15),
        { x: event.clientX - rect.left, y: event.clientY - rect.top });
    }, { passive: false });
    c.addEventListener("keydown", (event) => {
      if (event.target !== c) return;
      if (event.key === "+" || event.key === "=") { this.setZoom(this.zoom * 1.25); event.preventDefault(); }
      if (event.key === "-") { this.setZoom(this.zoom / 1.25); event.preventDefault(); }
    });
  }
}

export function routeSwatch(i) {
  const style = ROUTE_STYLES[i % ROUTE_STYLES.length];
  const dashed = style.dash ? "dashed" : "solid";
  return h("span", { class: "swatch", "aria-hidden": "true",
    style: { borderTopColor: style.colour, borderTopStyle: dashed } });
}
