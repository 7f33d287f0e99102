// Card faces, drawn as SVG by this module. Each face is one small SVG document, made once per
// card, size and colour scheme, and shown as the card's background image (a data: URL): the
// browser decodes it once and paints it crisply at any size, and a card is a plain <div> with
// no SVG tree to lay out, so a table of 208 cards redraws quickly.

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";

// Suit shapes in a 100×100 box.
const SUIT_PATHS = {
  S: "M50 2C38 22 4 38 4 62c0 15 11 25 24 25 9 0 16-4 20-11-1 11-6 18-16 23h36c-10-5-15-12-16-23 4 7 11 11 20 11 13 0 24-10 24-25C96 38 62 22 50 2z",
  H: "M50 95C22 70 3 52 3 30 3 14 15 3 29 3c10 0 17 5 21 13 4-8 11-13 21-13 14 0 26 11 26 27 0 22-19 40-47 65z",
  D: "M50 2 88 50 50 98 12 50z",
  C: "M50 4a22 22 0 0 0-19 33A22 22 0 1 0 46 73c-1 10-6 17-15 24h38c-9-7-14-14-15-24a22 22 0 1 0 15-36A22 22 0 0 0 50 4z",
};

// Pip positions (x, y) in the card's 100×140 box, for ranks 2..10.
const L = 29, M = 50, R = 71, T = 53, B = 126;
const y = (f) => T + (B - T) * f;
const PIPS = {
  2: [[M, y(0)], [M, y(1)]],
  3: [[M, y(0)], [M, y(0.5)], [M, y(1)]],
  4: [[L, y(0)], [R, y(0)], [L, y(1)], [R, y(1)]],
  5: [[L, y(0)], [R, y(0)], [M, y(0.5)], [L, y(1)], [R, y(1)]],
  6: [[L, y(0)], [R, y(0)], [L, y(0.5)], [R, y(0.5)], [L, y(1)], [R, y(1)]],
  7: [[L, y(0)], [R, y(0)], [M, y(0.25)], [L, y(0.5)], [R, y(0.5)], [L, y(1)], [R, y(1)]],
  8: [[L, y(0)], [R, y(0)], [M, y(0.25)], [L, y(0.5)], [R, y(0.5)], [M, y(0.75)], [L, y(1)],
    [R, y(1)]],
  9: [[L, y(0)], [R, y(0)], [L, y(1 / 3)], [R, y(1 / 3)], [M, y(0.5)], [L, y(2 / 3)],
    [R, y(2 / 3)], [L, y(1)], [R, y(1)]],
  10: [[L, y(0)], [R, y(0)], [M, y(1 / 6)], [L, y(1 / 3)], [R, y(1 / 3)], [L, y(2 / 3)],
    [R, y(2 / 3)], [M, y(5 / 6)], [L, y(1)], [R, y(1)]],
};

const INK = { S: "#1d1d1f", H: "#c8102e", D: "#c8102e", C: "#1d1d1f" };
const FOUR_INK = { ...INK, D: "#1553b6", C: "#137a2c" };
const faces = new Map();

const pip = (s, x, yy, size, flip = false) => {
  const h = size / 2;
  const rot = flip ? ` transform="rotate(180 ${x} ${yy})"` : "";
  return `<use href="#${s}" x="${x - h}" y="${yy - h}" width="${size}" height="${size}"${rot}/>`;
};

function faceMarkup(code, compact, ink) {
  const r = RANKS.indexOf(code[0]) + 1;
  const s = code[1];
  const label = code[0] === "T" ? "10" : code[0];
  // The corner index: a big rank at the top left and the suit at the top right, both inside the
  // strip that stays visible when cards overlap in a pile. Compact faces (phones) enlarge the
  // index and keep one big pip in the centre: at 35 pixels wide, legibility beats ornament.
  const size = compact ? 54 : 40;
  const base = compact ? 47 : 37;
  const rankText = label === "10"
    ? `<text x="3" y="${base}" font-size="${size}" textLength="${compact ? 58 : 46}" lengthAdjust="spacingAndGlyphs">10</text>`
    : `<text x="${compact ? 5 : 7}" y="${base}" font-size="${size}">${label}</text>`;
  const corner = compact ? pip(s, 79, 26, 36) : pip(s, 80, 22, 28);
  let centre = "";
  if (compact) {
    centre = r > 10
      ? `<rect x="14" y="62" width="72" height="70" rx="6" fill="${ink}" fill-opacity="0.08" stroke="${ink}" stroke-width="2"/>`
        + pip(s, 50, 97, 44)
      : pip(s, 50, 97, 58);
  } else if (r === 1) {
    centre = pip(s, 50, 88, s === "S" ? 58 : 46);
  } else if (r <= 10) {
    const sz = r >= 9 ? 17 : 19;
    centre = PIPS[r].map(([px, py]) => pip(s, px, py, sz, py > 90)).join("");
  } else {
    // Court cards: a framed panel with a large serif letter and small suit marks.
    centre = `<rect x="16" y="44" width="68" height="88" rx="5" fill="${ink}" fill-opacity="0.08" stroke="${ink}" stroke-width="1.5"/>`
      + `<text x="50" y="108" font-size="48" text-anchor="middle" font-family="Georgia, 'Times New Roman', serif">${label}</text>`
      + pip(s, 27, 56, 14) + pip(s, 73, 120, 14, true);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140">`
    + `<defs><symbol id="${s}" viewBox="0 0 100 100"><path d="${SUIT_PATHS[s]}"/></symbol></defs>`
    + `<g fill="${ink}" stroke="none" font-family="Helvetica, Arial, sans-serif" font-weight="700">`
    + `${rankText}${corner}${centre}</g></svg>`;
}

/** The CSS background of a card's face (drawn on first use). */
export function faceImage(code, compact = false, fourColours = false) {
  const key = `${code}${compact ? "c" : ""}${fourColours ? "4" : ""}`;
  let url = faces.get(key);
  if (!url) {
    const ink = (fourColours ? FOUR_INK : INK)[code[1]];
    url = `url("data:image/svg+xml,${encodeURIComponent(faceMarkup(code, compact, ink))}")`;
    faces.set(key, url);
  }
  return url;
}

/** A card element: a face (an SVG background) or a back (CSS only). */
export function cardElement(entry, label, { compact = false, fourColours = false } = {}) {
  const el = document.createElement("div");
  el.className = "card";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  if (entry.up && entry.card) {
    el.classList.add("up", `suit-${entry.card[1]}`);
    el.dataset.card = entry.card;
    el.style.backgroundImage = faceImage(entry.card, compact, fourColours);
    // The corner index's box (its height: --idx, from layout.indexShare): what a covered card
    // must keep in view.
    const index = document.createElement("span");
    index.className = "index";
    el.append(index);
  } else {
    el.classList.add("down");
  }
  return el;
}

/** "seven of hearts", from the ui-strings pattern and names. */
export function cardName(code, t) {
  const r = RANKS.indexOf(code[0]) + 1;
  return t("card_name").replace("{rank}", t(`rank_${r}`)).replace("{suit}", t(`suit_${code[1]}`));
}

export function rankOf(code) {
  return RANKS.indexOf(code[0]) + 1;
}
