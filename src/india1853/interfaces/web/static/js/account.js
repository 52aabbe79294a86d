// The account box of the lobby and "My games": sign in, sign up (a name and a password) or
// sign out; and on "My games" the account's own card: change the password, delete the account. Accounts are optional: a guest plays with links as before. The session is an
// HttpOnly cookie the page never sees; its CSRF token goes with every write (api.js).
import { api } from "./api.js";
import { h, clear } from "./dom.js";

const listeners = [];
let current = null; // { name } of the signed-in account, or null

/** Calls `f(account)` now (once known) and at every sign-in or sign-out. */
export function onAccount(f) {
  listeners.push(f);
}

export function account() {
  return current;
}

function changed(next) {
  current = next;
  for (const f of listeners) f(current);
}

function signedOutBox(box) {
  const name = h("input", { type: "text", id: "account-name", autocomplete: "username",
    "aria-label": "Account name", placeholder: "Name", maxlength: 32, required: true });
  const password = h("input", { type: "password", id: "account-password",
    autocomplete: "current-password", "aria-label": "Password (8 characters or more)",
    placeholder: "Password", required: true });
  const error = h("p", { class: "error", role: "alert", id: "account-error" });
  const submit = async (how) => {
    error.textContent = "";
    try {
      const answer = how === "in" ? await api.signIn(name.value, password.value)
        : await api.signUp(name.value, password.value);
      changed(answer.account);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const form = h("form", { class: "account-form", "aria-label": "Sign in or sign up" },
    name, password,
    // Not a submit button: the lobby's "Create game" stays the page's one (tests and
    // keyboard users find it so); Enter in the password signs in.
    h("button", { type: "button", id: "sign-in", onclick: () => submit("in") }, "Sign in"),
    h("button", { type: "button", id: "sign-up", onclick: () => submit("up") }, "Sign up"),
    error);
  form.addEventListener("submit", (event) => event.preventDefault());
  password.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); submit("in"); }
  });
  clear(box, form, h("span", { class: "hint account-why" },
    "Optional: an account keeps your seats in every browser where you sign in."));
}

function signedInBox(box) {
  const out = h("button", { type: "button", id: "sign-out" }, "Sign out");
  out.addEventListener("click", async () => {
    try { await api.signOut(); } catch { /* the cookie is cleared anyway at its expiry */ }
    changed(null);
  });
  clear(box, h("span", { class: "account-name", id: "signed-in" }, `Signed in as ${current.name}`), out);
}

/** The box in `box`, kept in step with the account. */
export async function accountBox(box) {
  onAccount(() => (current ? signedInBox(box) : signedOutBox(box)));
  try {
    changed((await api.account()).account);
  } catch {
    changed(null);
  }
}

/** The account's card on "My games" (shown while signed in): a new password (the present one
 * asked again; the other browsers are signed out) and the deletion of the account. */
export function accountSettings({ card, passwordForm, deleteForm, status }) {
  const $ = (id) => document.getElementById(id);
  onAccount((signedIn) => {
    card.hidden = !signedIn;
    if (signedIn) {
      passwordForm.hidden = false;
      deleteForm.hidden = false;
      status.textContent = "";
    }
  });
  passwordForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      await api.changePassword($("password-now").value, $("password-new").value);
      passwordForm.reset();
      status.textContent = "Password changed; every other browser of this account is signed out.";
    } catch (err) {
      status.textContent = err.message;
    }
  });
  deleteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      const done = await api.deleteAccount($("delete-password").value);
      deleteForm.reset();
      changed(null);
      const left = done.left.length ? ` A bot plays your seat on in ${done.left.length} game${done.left.length === 1 ? "" : "s"}.` : "";
      status.textContent = `Account deleted.${left}`;
      card.hidden = false; // the words stay until the page is left
      passwordForm.hidden = true;
      deleteForm.hidden = true;
    } catch (err) {
      status.textContent = err.message;
    }
  });
}
