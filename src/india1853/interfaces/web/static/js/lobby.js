// The lobby: create a game (edition, variants, seats human or bot, seed), list games, copy links.
import { accountBox } from "./account.js";
import { seatRules } from "./seatrules.js";
import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { createOpen } from "./open.js";

// "open": a seat for a player who joins (open.js; not with Hotseat).
const BOTS = [["", "Human"], ["open", "Open: a player joins"], ["greedy", "Bot: greedy"], ["random", "Bot: random"], ["strong", "Bot: strong"]];
const DEFAULT_SEATS = [["Ann", ""], ["Bob", ""], ["Cat", ""]];
// The numbers of players each edition allows come from the server (its TABLE 3); until they
// have come, the seats stay as they are.
let playerCounts = {};

const seatsList = document.getElementById("seats");
const addSeat = document.getElementById("add-seat");
const formError = document.getElementById("form-error");

function seatRow(name, bot) {
  const index = seatsList.children.length + 1;
  const nameInput = h("input", { type: "text", value: name, "aria-label": `Seat ${index} name`,
    class: "seat-name-input", required: true, maxlength: 24, autocomplete: "off" });
  const kind = h("select", { "aria-label": `Seat ${index} played by`, class: "seat-kind" },
    BOTS.map(([value, label]) => h("option", { value, selected: value === bot }, label)));
  const remove = h("button", { type: "button", "aria-label": `Remove seat ${index}`,
    onclick: () => { row.remove(); renumber(); } }, "Remove");
  const row = h("li", {}, h("div", { class: "seat-row" }, nameInput, kind, remove));
  kind.addEventListener("change", () => { nameInput.disabled = kind.value === "open"; });
  return row;
}

function seatBounds() {
  const counts = playerCounts[document.getElementById("edition").value];
  const seats = seatsList.children.length;
  return counts && counts.length ? [Math.min(...counts), Math.max(...counts)] : [seats, seats];
}

function renumber() {
  const [fewest, most] = seatBounds();
  [...seatsList.children].forEach((li, i) => {
    li.querySelector(".seat-name-input").setAttribute("aria-label", `Seat ${i + 1} name`);
    li.querySelector(".seat-kind").setAttribute("aria-label", `Seat ${i + 1} played by`);
    li.querySelector("button").setAttribute("aria-label", `Remove seat ${i + 1}`);
    li.querySelector("button").disabled = seatsList.children.length <= fewest;
  });
  addSeat.disabled = seatsList.children.length >= most;
}

for (const [name, bot] of DEFAULT_SEATS) seatsList.append(seatRow(name, bot));
renumber();
addSeat.addEventListener("click", () => {
  const names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];
  seatsList.append(seatRow(names[seatsList.children.length] || "", "greedy"));
  renumber();
  seatsList.lastElementChild.querySelector("input").focus();
});

// The variants of each edition come from the server (the rules layer's catalogue): the lobby
// offers those of the chosen edition and never decides which may be combined - the server
// refuses a forbidden combination with the rule's number.
const variantsBox = document.getElementById("variants");
const editionSelect = document.getElementById("edition");
let variantCatalogue = {};

function showVariants() {
  const chosen = new Set([...variantsBox.querySelectorAll("input[name=variant]:checked")]
    .map((i) => i.value));
  variantsBox.querySelectorAll("label.check").forEach((label) => label.remove());
  for (const v of variantCatalogue[editionSelect.value] || []) {
    const input = h("input", { type: "checkbox", name: "variant", value: v.name,
      checked: chosen.has(v.name) });
    const excludes = v.excludes.length ? `; not with ${v.excludes.join(", ")}` : "";
    variantsBox.append(h("label", { class: "check" }, input,
      ` ${v.title} (${v.name}, rule ${v.rule}${excludes})`));
  }
}

async function loadVariants() {
  try {
    const offered = await api.variants();
    variantCatalogue = offered.editions;
    playerCounts = offered.players;
    showVariants();
    renumber();
  } catch (err) {
    formError.textContent = `variants: ${err.message}`;
  }
}
editionSelect.addEventListener("change", () => { showVariants(); renumber(); });
loadVariants();

function absolute(path) {
  return new URL(path, window.location.href).href;
}

function copyButton(text, what) {
  const button = h("button", { type: "button", "aria-label": `Copy the link for ${what}` }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
      const range = document.createRange();
      range.selectNodeContents(button.previousElementSibling);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
  });
  return button;
}

function linkItem(label, path) {
  const url = absolute(path);
  return h("li", {}, h("a", { href: path }, label), h("code", {}, url), copyButton(url, label));
}

// The games this browser has a seat in: the token of a link opened here (js/game.js keeps it)
// or of the hotseat link created here; kept in this browser only (localStorage).
const SEATS_KEY = "india1853.seats";

function keptSeats() {
  try {
    return JSON.parse(window.localStorage.getItem(SEATS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function keepSeats(gameId, token, seats) {
  try {
    const kept = keptSeats();
    if (kept[gameId]) return;
    kept[gameId] = { token, seats: seats.join(", "), opened: false };
    window.localStorage.setItem(SEATS_KEY, JSON.stringify(kept));
  } catch { /* storage refused: the lobby offers Watch */ }
}

/** Play (a seat of this browser never opened yet) or Resume (opened here before), with the
 * seat's own link; else Watch, the spectators' link. */
function openLink(g, kept) {
  const mine = kept[g.id];
  if (!mine || !mine.token) {
    return h("a", { href: `/games/${g.id}`, "aria-label": `Watch game ${g.id}` }, "Watch");
  }
  const verb = g.finished ? "Review" : mine.opened ? "Resume" : "Play";
  return h("a", { href: `/games/${g.id}#token=${encodeURIComponent(mine.token)}`, class: "mine",
    "aria-label": `${verb} game ${g.id} as ${mine.seats}` }, verb,
  h("span", { class: "hint" }, ` as ${mine.seats}`));
}

function showCreated(result, hotseat) {
  const items = [];
  if (hotseat && result.hotseat_token) {
    keepSeats(result.id, result.hotseat_token, Object.keys(result.links || {}).length
      ? Object.keys(result.links) : ["every human seat"]);
    items.push(linkItem("Play here (hotseat, every human seat)",
      result.hotseat_link || `/games/${result.id}#token=${result.hotseat_token}`));
  }
  // The seats' own links stay unshown: every seat plays at this screen. Players at other
  // screens join a game with open seats, each with his own seat (docs/web-api.md).
  items.push(linkItem("Spectators", result.spectator || `/games/${result.id}`));
  clear(document.getElementById("links"), items);
  const box = document.getElementById("created");
  box.hidden = false;
  box.focus();
}

document.getElementById("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  formError.textContent = "";
  const players = [...seatsList.children].map((li) => {
    const name = li.querySelector("input").value.trim();
    const bot = li.querySelector("select").value;
    return bot ? { name, bot } : { name };
  });
  const empty = players.findIndex((p) => !p.name && p.bot !== "open");
  if (empty >= 0) {
    formError.textContent = `seat ${empty + 1}: a name is needed`;
    return;
  }
  const seedText = document.getElementById("seed").value.trim();
  if (seedText && !/^\d+$/.test(seedText)) {
    formError.textContent = "seed: a whole number of 0 or more, or empty for a random one";
    return;
  }
  if (seedText && !Number.isSafeInteger(Number(seedText))) {
    // A JavaScript number would round it: the game would get another seed than the one typed.
    formError.textContent = "seed: at most 9007199254740991 here (the API takes any integer)";
    return;
  }
  const hotseat = document.getElementById("hotseat").checked;
  const body = {
    edition: document.getElementById("edition").value,
    variants: [...document.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    ...(seedText ? { seed: Number(seedText) } : {}),
    players,
    hotseat,
    hints: document.getElementById("hints").checked,
  };
  const open = players.findIndex((p) => p.bot === "open");
  if (hotseat && open >= 0) {
    formError.textContent = `seat ${open + 1}: an open seat is for a player who joins: uncheck Hotseat`;
    return;
  }
  try {
    Object.assign(body, seatRules(document)); // the clock and the absence time (seatrules.js)
  } catch (err) {
    formError.textContent = err.message;
    return;
  }
  const submit = event.submitter || document.querySelector("#new-game button[type=submit]");
  submit.disabled = true;
  try {
    // Not hotseat: a game with open seats; nobody receives another seat's token (open.js).
    if (!hotseat) {
      await createOpen(body);
      await loadGames();
      return;
    }
    const result = await api.createGame(body);
    showCreated(result, hotseat);
    await loadGames();
  } catch (err) {
    formError.textContent = err.message;
  } finally {
    submit.disabled = false;
  }
});

async function loadGames() {
  const status = document.getElementById("list-status");
  const body = document.querySelector("#games tbody");
  try {
    const { games } = await api.listGames();
    status.textContent = games.length ? `${games.length} game${games.length === 1 ? "" : "s"}` : "No games yet.";
    // No table at all under "No games yet." (an empty header says nothing).
    document.getElementById("games").hidden = !games.length;
    const kept = keptSeats();
    clear(body, games.map((g) => h("tr", {},
      h("td", {}, h("code", {}, g.id)),
      h("td", {}, g.edition + (g.variants && g.variants.length ? ` (${g.variants.join(", ")})` : "")
        // The server's seed is committed (docs/web-api.md, "Seeds"); a creator's may be known.
        + (g.seed && g.seed.chosen_by !== "server" ? ` · ${g.seed.note}` : "")),
      h("td", {}, g.players.map((p) => p.bot ? `${p.name} (bot)` : p.name).join(", ")),
      h("td", {}, g.finished ? "finished" : String(g.round ?? "")),
      h("td", {}, String(g.actions ?? "")),
      h("td", {}, openLink(g, kept)),
    )));
  } catch (err) {
    status.textContent = `Could not list the games: ${err.message}`;
  }
}

loadGames();
accountBox(document.getElementById("account"));
