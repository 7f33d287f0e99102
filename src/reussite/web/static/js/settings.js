// The player's settings, remembered in localStorage (no account needed).

const KEY = "reussite.settings";
const reducedMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

export const DEFAULTS = {
  fourColours: false,
  leftHanded: false,
  animation: reducedMotion ? "off" : "normal", // off | fast | normal | slow
  autoCollect: true,
  winnableOnly: false,
  scoring: "off", // off | standard | vegas: the Klondike family's scores (scoring.js)
};

export const SPEEDS = { off: 0, fast: 0.55, normal: 1, slow: 1.8 };

export function loadSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    const out = { ...DEFAULTS };
    for (const k of Object.keys(DEFAULTS)) {
      if (typeof saved[k] === typeof DEFAULTS[k]) out[k] = saved[k];
    }
    if (!(out.animation in SPEEDS)) out.animation = DEFAULTS.animation;
    if (!["off", "standard", "vegas"].includes(out.scoring)) out.scoring = DEFAULTS.scoring;
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
