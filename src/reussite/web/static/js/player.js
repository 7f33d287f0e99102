// The player's identity on the statistics page (/stats): the display name (PUT /api/me), the
// code that signs another browser in (POST /api/me/code, POST /api/me/sign-in), the list of
// the player's browsers with their sign-out buttons, and forgetting the player (DELETE
// /api/me) after a confirmation. Names are set as text, never as markup.

import { api } from "./api.js";
import { fill, readStrings } from "./strings.js";

const root = document.getElementById("stats");
const lang = root?.dataset.lang || document.documentElement.lang || "en";
const strings = readStrings("player-strings");
const t = (key, values = {}) => fill(strings[key] ?? key, values);

const say = (el, text) => { if (el) el.textContent = text; };
const failed = (e) => `${t("failed")} (${e.detail})`;

function setUpName(section) {
  const form = section.querySelector(".name-form");
  const input = form.querySelector("input");
  const status = form.querySelector(".name-status");
  const shown = section.querySelector(".display-name");
  const note = section.querySelector(".name-hidden-note");
  const save = async (name) => {
    try {
      const me = await api.setName(name);
      input.value = me.name ?? "";
      input.removeAttribute("aria-invalid");
      say(shown, me.display_name);
      note.hidden = !me.name_hidden;
      say(status, t("saved"));
    } catch (e) {
      input.setAttribute("aria-invalid", "true");
      say(status, e.detail);
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    save(input.value);
  });
  section.querySelector(".btn-clear-name").addEventListener("click", () => save(null));
}

function when(iso) {
  try {
    return new Date(iso).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  } catch (e) {
    return iso;
  }
}

function browserItem(b, list, status) {
  const li = document.createElement("li");
  li.dataset.browser = b.id;
  const what = document.createElement("span");
  what.className = "browser-name";
  what.textContent = b.description;
  const seen = document.createElement("span");
  seen.className = "browser-seen";
  seen.textContent = t("last_seen", { when: when(b.last_seen_at) });
  li.append(what, seen);
  if (b.this) {
    li.classList.add("this");
    const mark = document.createElement("strong");
    mark.className = "browser-this";
    mark.textContent = t("this_browser");
    li.append(mark);
  } else {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-sign-out";
    button.textContent = t("sign_out");
    button.setAttribute("aria-label", t("sign_out_of", { browser: b.description }));
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        showBrowsers(list, status, await api.signOut(b.id));
      } catch (e) {
        button.disabled = false;
        say(status, failed(e));
      }
    });
    li.append(button);
  }
  return li;
}

function showBrowsers(list, status, browsers) {
  list.replaceChildren(...browsers.map((b) => browserItem(b, list, status)));
  say(status, browsers.some((b) => !b.this) ? "" : t("no_browsers"));
}

function setUpDevices(section) {
  const list = section.querySelector(".browser-list");
  const status = section.querySelector(".browsers-status");
  const shown = section.querySelector(".code-shown");
  const makeButton = section.querySelector(".btn-code");
  makeButton.addEventListener("click", async () => {
    makeButton.disabled = true;
    try {
      const made = await api.makeCode();
      const code = shown.querySelector(".code");
      code.textContent = made.code;
      code.setAttribute("aria-label", `${t("code_label")}: ${made.code.split("").join(" ")}`);
      const until = new Date(made.expires_at)
        .toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
      say(shown.querySelector(".code-expiry"), t("code_expiry", { time: until }));
      shown.hidden = false;
      showBrowsers(list, status, await api.browsers());
    } catch (e) {
      say(status, failed(e));
    } finally {
      makeButton.disabled = false;
    }
  });
  const form = section.querySelector(".sign-in-form");
  const input = form.querySelector("input");
  const signInStatus = form.querySelector(".sign-in-status");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const me = await api.signIn(input.value);
      input.value = "";
      say(signInStatus, t("signed_in", { name: me.display_name }));
      // The page is the server's: drawn again for the player this browser now is.
      window.location.reload();
    } catch (e) {
      input.setAttribute("aria-invalid", "true");
      say(signInStatus, e.detail);
    }
  });
  api.browsers().then((browsers) => showBrowsers(list, status, browsers),
    (e) => say(status, failed(e)));
}

function setUpForget(section) {
  const dialog = section.querySelector(".confirm-forget");
  const status = section.querySelector(".forget-status");
  section.querySelector(".btn-forget").addEventListener("click", () => {
    dialog.returnValue = "";
    dialog.showModal();
  });
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "forget") return;
    try {
      await api.forget();
    } catch (e) {
      say(status, failed(e));
      return;
    }
    window.location.reload();
  });
}

if (root) {
  const sections = [[".identity", setUpName], [".devices", setUpDevices],
    [".forget", setUpForget]];
  for (const [selector, setUp] of sections) {
    const section = root.querySelector(selector);
    if (section) {
      section.hidden = false;
      setUp(section);
    }
  }
}
