// Games with open seats in the lobby: create one (your seat, bots, open seats), the invite
// link, the list of games waiting for players with Join, and the invite link's page
// (/join/ID). A guest's seat token is answered once and kept in this browser (seats.js); an
// account's seat belongs to the account (no token at all).
import { api } from "./api.js";
import { account, onAccount } from "./account.js";
import { h, clear } from "./dom.js";
import { keepSeat, keptToken } from "./seats.js";

const $ = (id) => document.getElementById(id);

function absolute(path) {
  return new URL(path, window.location.href).href;
}

function copyButton(text, what) {
  const button = h("button", { type: "button", "aria-label": `Copy ${what}` }, "Copy");
  button.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; } catch {
      button.textContent = "Select and copy";
    }
  });
  return button;
}

/** The lobby form's seats as POST /api/open-games wants them: "open" seats, bots, yours. */
export function openSeats(players) {
  return players.map((p) => {
    if (p.bot === "open") return { open: true };
    return p.bot ? { name: p.name, bot: p.bot } : { name: p.name };
  });
}

/** The page of a seat just taken: with a guest's token in the link (the page tells him to
 * keep it); an account's seat needs none. */
function seatLink(result) {
  return result.token ? `${result.link}#token=${encodeURIComponent(result.token)}` : result.link;
}

function remember(result) {
  if (result.token) keepSeat(result.id, result.token, result.seat, { opened: false });
}

/** Create a game with open seats from the lobby form's body; show the invite link. */
export async function createOpen(body) {
  const { hotseat: _shared, ...settings } = body; // never a shared screen: each seat its own
  const result = await api.createOpenGame({ ...settings, players: openSeats(body.players) });
  remember(result);
  const items = [
    h("li", {}, h("strong", {}, "Invite link"), h("code", { id: "invite-link" }, absolute(result.invite)),
      copyButton(absolute(result.invite), "the invite link")),
    // Not started yet: the game's page does not exist; My games shows it waiting.
    h("li", {}, h("a", { href: result.started ? seatLink(result) : "/my-games", id: "my-seat-link" },
      result.started ? `Play as ${result.seat}` : `Your seat: ${result.seat}`),
    result.started ? null : h("span", { class: "hint" }, " the game starts when every open seat is taken (or when you start it with bots from My games)")),
  ];
  if (result.token) {
    items.push(h("li", { class: "hint" }, "You play as a guest: this browser keeps your seat; "
      + "keep your seat's link (above) to come back from another browser, or sign in next time."));
  }
  clear($("links"), items);
  $("created").hidden = false;
  $("created").focus();
  await loadOpenGames();
  return result;
}

function seatsText(g) {
  return g.seats.map((s) => (s.open ? "(open)" : s.bot ? `${s.name} (bot)` : s.name)).join(", ");
}

async function join(id, nameInput, error) {
  error.textContent = "";
  const name = nameInput && nameInput.value.trim();
  if (!account() && !name) {
    error.textContent = "name: a guest joins under a name of his own (or sign in)";
    return;
  }
  try {
    const result = await api.join(id, account() && !name ? null : name);
    remember(result);
    if (result.started) {
      window.location.href = seatLink(result);
      return;
    }
    const box = $("join-box");
    clear(box, h("h2", {}, "Joined"),
      h("p", { role: "status", id: "joined" }, `You sit at game ${id} as ${result.seat}. `
        + "The game starts when every open seat is taken; "),
      h("p", {}, h("a", { href: "/my-games" }, "My games"), " lists it."));
    box.hidden = false;
    await loadOpenGames();
  } catch (err) {
    error.textContent = err.message;
  }
}

/** The join form for one waiting game (the invite link's page, or Join in the list). */
export function showJoin(g) {
  const box = $("join-box");
  const error = h("p", { class: "error", role: "alert" });
  const name = h("input", { type: "text", id: "join-name", maxlength: 32, autocomplete: "nickname",
    "aria-label": "Your name in this game", value: account() ? account().name : "" });
  const form = h("form", { class: "row" }, h("label", { for: "join-name" }, "Your name"), name,
    h("button", { type: "submit", class: "primary", id: "join-submit" }, "Join"));
  form.addEventListener("submit", (event) => { event.preventDefault(); join(g.id, name, error); });
  clear(box, h("h2", {}, `Join game ${g.id}`),
    h("p", {}, `${g.edition} edition${g.variants.length ? ` (${g.variants.join(", ")})` : ""}; seats: ${seatsText(g)}; `
      + `${g.open} open.`),
    form, error,
    account() ? null : h("p", { class: "hint" }, "As a guest, this browser keeps your seat; sign in (above) to keep it in every browser."));
  box.hidden = false;
  name.focus();
}

export async function loadOpenGames() {
  const status = $("open-status");
  const body = document.querySelector("#open-games tbody");
  try {
    const { games } = await api.openGames();
    status.textContent = games.length ? `${games.length} waiting for players` : "No game is waiting for players.";
    $("open-games").hidden = !games.length;
    clear(body, games.map((g) => h("tr", { dataset: { game: g.id } },
      h("td", {}, h("code", {}, g.id)),
      h("td", {}, g.edition + (g.variants.length ? ` (${g.variants.join(", ")})` : "")),
      h("td", {}, seatsText(g)),
      h("td", {}, String(g.open)),
      h("td", {}, keptToken(g.id) ? h("a", { href: "/my-games" }, "Yours: My games")
        : h("button", { type: "button", "aria-label": `Join game ${g.id}`, onclick: () => showJoin(g) }, "Join")))));
  } catch (err) {
    status.textContent = `Could not list the open games: ${err.message}`;
  }
}

/** The invite link's page (/join/ID): the join form, or the game once it has started. */
async function invited() {
  const found = window.location.pathname.match(/^\/join\/([^/]+)$/);
  if (!found) return;
  const id = decodeURIComponent(found[1]);
  try {
    const g = await api.openGame(id);
    if (g.started) {
      const token = keptToken(id);
      clear($("join-box"), h("h2", {}, `Game ${id}`), h("p", {}, "This game has started. ",
        h("a", { href: token ? `${g.link}#token=${encodeURIComponent(token)}` : g.link },
          token ? "Open your seat" : "Open the game")));
      $("join-box").hidden = false;
    } else if (g.yours || keptToken(id)) {
      // This browser (or account) sits here already: no second seat.
      clear($("join-box"), h("h2", {}, `Game ${id}`), h("p", { id: "joined" },
        `You sit in this game; it waits for ${g.open} more player${g.open === 1 ? "" : "s"}. `,
        h("a", { href: "/my-games" }, "My games"), " lists it."));
      $("join-box").hidden = false;
    } else {
      showJoin(g);
    }
  } catch (err) {
    clear($("join-box"), h("p", { class: "error" }, err.message));
    $("join-box").hidden = false;
  }
}

let first = true;
onAccount(() => {
  // The first seat's name is the account's (the creator's seat, when not hotseat).
  const input = document.querySelector("#seats .seat-name-input");
  if (account() && input) input.value = account().name;
  if (first) { first = false; invited(); }
  loadOpenGames();
});
