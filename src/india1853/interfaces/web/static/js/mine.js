// "My games": every game of the signed-in account and of the seats this browser keeps, with
// whose turn it is (the server's answer, from the engine), those waiting for me first, the
// finished ones with their scores. A creator may start a waiting game with bots.
import { accountBox, accountSettings, onAccount } from "./account.js";
import { api } from "./api.js";
import { h, clear, money } from "./dom.js";
import { keptList, keptToken } from "./seats.js";
import { AlertSettings } from "./social.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 15000;

function link(g) {
  const token = keptToken(g.id);
  if (g.status === "waiting for players") return h("a", { href: g.link }, "Invite page");
  const verb = g.status === "finished" ? "Review" : g.my_turn ? "Play" : "Open";
  return h("a", { href: token ? `${g.link}#token=${encodeURIComponent(token)}` : g.link,
    class: g.my_turn ? "mine" : "", "aria-label": `${verb} game ${g.id} as ${g.seat}` }, verb);
}

function startButton(g) {
  const bot = h("select", { "aria-label": `Bots to fill the open seats of game ${g.id}` },
    [["greedy", "greedy bots"], ["random", "random bots"], ["strong", "strong bots"]]
      .map(([value, label]) => h("option", { value }, label)));
  const go = h("button", { type: "button", class: "start-bots" }, "Start now with");
  go.addEventListener("click", async () => {
    try {
      const started = await api.start(g.id, keptToken(g.id), bot.value);
      const token = keptToken(g.id);
      window.location.href = token ? `${started.link}#token=${encodeURIComponent(token)}` : started.link;
    } catch (err) {
      $("mine-error").textContent = err.message;
    }
  });
  return h("span", { class: "start" }, go, " ", bot);
}

function status(g) {
  if (g.status === "your turn") return h("span", { class: "status-word" }, "Your turn");
  if (g.status === "waiting for players") {
    return h("span", {}, h("span", { class: "status-word" }, `Waiting for players (${g.open} open)`),
      g.is_creator ? h("div", {}, startButton(g)) : null);
  }
  if (g.status === "finished") {
    return h("span", {}, h("span", { class: "status-word" }, "Finished"),
      g.scores ? h("ol", { class: "scores" }, g.scores.map((s) => h("li", {}, `${s.name} ${money(s.score)}`))) : null);
  }
  return h("span", {}, "Waiting for ", h("strong", {}, g.to_act.join(", ") || "the bots"));
}

async function load() {
  try {
    const { games } = await api.myGames(keptList());
    const waiting = games.filter((g) => g.my_turn).length;
    $("mine-status").textContent = games.length
      ? `${games.length} game${games.length === 1 ? "" : "s"}${waiting ? `, ${waiting} waiting for you` : ""}`
      : "No game yet: create one or join one in the lobby.";
    $("mine").hidden = !games.length;
    document.title = `${waiting ? `(${waiting}) ` : ""}1853 India — my games`;
    clear(document.querySelector("#mine tbody"), games.map((g) => h("tr",
      { class: g.my_turn ? "your-turn" : "", dataset: { game: g.id, status: g.status } },
      h("td", {}, h("code", {}, g.id), h("div", { class: "hint" }, `${g.edition} edition`)),
      h("td", {}, g.seat),
      h("td", {}, status(g)),
      h("td", {}, g.status === "waiting for players" ? g.seats.map((s) => (s.open ? "(open)" : s.name)).join(", ")
        : h("span", {}, g.title ? `${g.title}: ` : "", g.headline || "")),
      h("td", {}, link(g)))));
  } catch (err) {
    $("mine-status").textContent = `Could not list your games: ${err.message}`;
  }
}

const alertSettings = new AlertSettings({
  card: $("alert-settings"), form: $("alert-form"), webhook: $("alert-webhook"), email: $("alert-email"),
  quiet: $("alert-quiet"), status: $("alert-status"),
  load: () => api.accountAlerts(), save: (body) => api.saveAccountAlerts(body),
});

onAccount(load);
// The account's own alerts (social.js): shown while signed in.
onAccount((signedIn) => alertSettings.setSeat(signedIn ? signedIn.name : null, true));
accountSettings({ card: $("account-settings"), passwordForm: $("password-form"),
  deleteForm: $("delete-form"), status: $("account-status") });
accountBox($("account"));
setInterval(load, REFRESH_MS);
