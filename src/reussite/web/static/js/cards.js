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
const GOLD = "#e0aa2a";
const SKIN = "#f4d5b0";
const LINE = "#3b2516";
// The court figures' hair (and the King's beard), by rank: 11 Jack, 12 Queen, 13 King.
const HAIR = { 11: "#4a2e17", 12: "#8a4a1f", 13: "#d9d3c7" };
const FOUR_INK = { ...INK, D: "#1553b6", C: "#137a2c" };
const faces = new Map();

const pip = (s, x, yy, size, flip = false) => {
  const h = size / 2;
  const rot = flip ? ` transform="rotate(180 ${x} ${yy})"` : "";
  return `<use href="#${s}" x="${x - h}" y="${yy - h}" width="${size}" height="${size}"${rot}/>`;
};

/**
 * A court figure of our own, half-length in the card's 100×140 box (from y 44 down): a robe in
 * the suit's ink with a gold collar, a face, and what tells the three apart: the King's
 * pointed crown and white beard, the Queen's long hair, rounded crown and pearls, the Jack's
 * feathered cap and short hair.
 */
function courtFigure(r, s, ink, pips = true) {
  const hair = HAIR[r];
  const stroke = `stroke="${LINE}" stroke-width="1.2" stroke-linejoin="round"`;
  let back = "";
  let front = "";
  if (r === 12) {
    back = `<path d="M36 80C33 64 40 58 50 58S67 64 64 80L67 101H33z" fill="${hair}" ${stroke}/>`;
    front = `<path d="M38 68C38 58 44 61 44 61L50 54 56 61C56 61 62 58 62 68Q50 63 38 68z" fill="${GOLD}" ${stroke}/>`
      + `<circle cx="50" cy="60" r="2.2" fill="${ink}"/>`
      + [[40, 101], [44.5, 103], [50, 104], [55.5, 103], [60, 101]].map(([x, yy]) =>
        `<circle cx="${x}" cy="${yy}" r="1.8" fill="#fffdf8" stroke="${LINE}" stroke-width=".6"/>`)
        .join("");
  } else if (r === 13) {
    front = `<path d="M38 82Q39 99 50 101Q61 99 62 82Q57 90 50 90Q43 90 38 82z" fill="${hair}" ${stroke}/>`
      + `<path d="M42.5 87Q46 82 50 85Q54 82 57.5 87Q54 85.5 50 87Q46 85.5 42.5 87z" fill="${hair}" ${stroke}/>`
      + `<path d="M37 68V51L43.5 59 50 47 56.5 59 63 51V68z" fill="${GOLD}" ${stroke}/>`
      + `<circle cx="50" cy="63" r="2.4" fill="${ink}"/>`
      + `<circle cx="41" cy="64" r="1.6" fill="${ink}"/><circle cx="59" cy="64" r="1.6" fill="${ink}"/>`;
  } else {
    back = `<path d="M38 78C37 66 43 62 50 62S63 66 62 78z" fill="${hair}" ${stroke}/>`;
    front = `<path d="M35 68C35 56 44 53 51 53S66 57 66 66Q51 62 35 68z" fill="${ink}" ${stroke}/>`
      + `<path d="M57 58C61 50 66 47 69.5 46.5C67 51 63 55 60 60z" fill="${GOLD}" ${stroke}/>`
      + `<path d="M36 67Q51 62 66 66" fill="none" stroke="${GOLD}" stroke-width="2.4"/>`;
  }
  const mouth = r === 12 ? "#c8324a" : LINE;
  return back
    + `<path d="M21 132C21 110 33 99 50 99S79 110 79 132z" fill="${ink}" ${stroke}/>`
    + `<path d="M36 101L50 117 64 101Q57 98 50 98T36 101z" fill="${GOLD}" ${stroke}/>`
    + `<rect x="47" y="117" width="6" height="15" fill="${GOLD}"/>`
    + `<path d="M45 88h10v12H45z" fill="${SKIN}"/>`
    + `<ellipse cx="50" cy="78" rx="11.5" ry="13.5" fill="${SKIN}" ${stroke}/>`
    + `<circle cx="45.5" cy="76" r="1.5" fill="${LINE}"/><circle cx="54.5" cy="76" r="1.5" fill="${LINE}"/>`
    + (r === 13 ? "" : `<path d="M46.5 85Q50 87.5 53.5 85" fill="none" stroke="${mouth}" stroke-width="1.4" stroke-linecap="round"/>`)
    + front
    + (pips ? pip(s, 26, 54, 12) + pip(s, 74, 54, 12) : "");
}

function faceMarkup(code, compact, ink, letters) {
  const r = RANKS.indexOf(code[0]) + 1;
  const s = code[1];
  // The court cards' letters are the page's language's (J/Q/K, V/D/R, В/Д/К).
  const label = code[0] === "T" ? "10" : r > 10 ? letters[r - 11] : code[0];
  // The corner index: a big rank at the top left and the suit at the top right, both inside the
  // strip that stays visible when cards overlap in a pile. Compact faces (phones) enlarge the
  // index and keep one big pip in the centre: at 35 pixels wide, legibility beats ornament.
  const size = compact ? 54 : 40;
  const base = compact ? 47 : 37;
  const rankText = label === "10"
    ? `<text x="3" y="${base}" font-size="${size}" textLength="${compact ? 58 : 46}" lengthAdjust="spacingAndGlyphs">10</text>`
    : `<text x="${compact ? 5 : 7}" y="${base}" font-size="${size}">${label}</text>`;
  const corner = compact ? pip(s, 79, 26, 36) : pip(s, 80, 22, 28);
  const panel = (x, yy, w, hh) => `<rect x="${x}" y="${yy}" width="${w}" height="${hh}" rx="5" fill="${ink}" fill-opacity="0.07" stroke="${ink}" stroke-width="1.5"/>`;
  let centre = "";
  if (compact) {
    // A court card shows its figure's head and shoulders, larger: a crown reads at 35 px.
    centre = r > 10
      ? `${panel(12, 60, 76, 74)}<svg x="13" y="61" width="74" height="72" viewBox="24 46 52 50">${courtFigure(r, s, ink, false)}</svg>`
      : pip(s, 50, 97, 58);
  } else if (r === 1) {
    centre = pip(s, 50, 88, s === "S" ? 58 : 46);
  } else if (r <= 10) {
    const sz = r >= 9 ? 17 : 19;
    centre = PIPS[r].map(([px, py]) => pip(s, px, py, sz, py > 90)).join("");
  } else {
    centre = `${panel(16, 44, 68, 88)}<svg x="16" y="44" width="68" height="88" viewBox="16 44 68 88">${courtFigure(r, s, ink)}</svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140">`
    + `<defs><symbol id="${s}" viewBox="0 0 100 100"><path d="${SUIT_PATHS[s]}"/></symbol></defs>`
    + `<g fill="${ink}" stroke="none" font-family="Helvetica, Arial, sans-serif" font-weight="700">`
    + `${rankText}${corner}${centre}</g></svg>`;
}

export const COURT_LETTERS = "JQK";

/** The CSS background of a card's face (drawn on first use); `letters`: the Jack's, Queen's
 * and King's letters in the page's language. */
export function faceImage(code, compact = false, fourColours = false, letters = COURT_LETTERS) {
  const key = `${code}${compact ? "c" : ""}${fourColours ? "4" : ""}${letters}`;
  let url = faces.get(key);
  if (!url) {
    const ink = (fourColours ? FOUR_INK : INK)[code[1]];
    const svg = faceMarkup(code, compact, ink, letters);
    url = `url("data:image/svg+xml,${encodeURIComponent(svg)}")`;
    faces.set(key, url);
  }
  return url;
}

/** A card element: a face (an SVG background) or a back (CSS only). */
export function cardElement(entry, label,
  { compact = false, fourColours = false, letters = COURT_LETTERS } = {}) {
  const el = document.createElement("div");
  el.className = "card";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  if (entry.up && entry.card) {
    el.classList.add("up", `suit-${entry.card[1]}`);
    el.dataset.card = entry.card;
    el.style.backgroundImage = faceImage(entry.card, compact, fourColours, letters);
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
