// The player's settings, remembered in localStorage (no account needed).

const KEY = "reussite.settings";
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

// The card backs and table colours to choose from (drawn in css/app.css, named in looks.js).
export const BACKS = ["navy", "red", "black"];
export const FELTS = ["green", "blue", "wine", "slate"];

export const DEFAULTS = {
  fourColours: false,
  leftHanded: false,
  animation: reducedMotion ? "off" : "normal", // off | fast | normal | slow
  autoCollect: true,
  winnableOnly: false,
  scoring: "off", // off | standard | vegas: the Klondike family's scores (scoring.js)
  back: BACKS[0],
  felt: FELTS[0],
  sound: false,
};

export const SPEEDS = { off: 0, fast: 0.55, normal: 1, slow: 1.8 };
const CHOICES = {
  animation: Object.keys(SPEEDS), back: BACKS, felt: FELTS, scoring: ["off", "standard", "vegas"],
};

export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) {
      if (typeof saved[k] === typeof DEFAULTS[k]) out[k] = saved[k];
    }
    for (const [k, allowed] of Object.entries(CHOICES)) {
      if (!allowed.includes(out[k])) out[k] = DEFAULTS[k];
    }
    return out;
  } catch (e) {
    return { ...DEFAULTS };
  }
}

export function saveSettings(s) {
  try {
    localStorage.setItem(KEY, JSON.stringify(s));
  } catch (e) {
    // Private browsing may refuse storage: the settings then last for the page only.
  }
}
