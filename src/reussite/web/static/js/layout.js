// Sizing the table to the screen, and the order a pile is drawn in: pure functions of pile
// counts, screen measures and a pile's cards.

const GAP_RATIO = 0.09; // gap / card width
const MAX_CARD = 118;
const MIN_CARD = 26;
const FOUNDATIONS_PER_LINE = 8;
const COMPACT_BELOW = 54; // narrower cards get compact faces (cards.js)

/**
 * The card width and the arrangement for a game on a screen.
 * `n` counts the piles by kind; `width` is the table's width; `height` what is left of the
 * screen below the page's header and the toolbar.
 */
export function tableMetrics(n, width, height) {
  const fan = !n.tableau; // games without a tableau fan their reserves (Leap Year)
  const nf = n.foundation;
  const fCols = Math.min(nf, FOUNDATIONS_PER_LINE);
  const fLines = Math.ceil(nf / FOUNDATIONS_PER_LINE);
  const lead = n.stock + n.waste + n.cell + (fan ? 0 : n.reserve);
  const mainCols = Math.max(n.tableau, fan ? n.reserve : 0, 4);
  const fitW = (cols) => (width - 4) / (cols + (cols + 1) * GAP_RATIO);
  // The top rows plus a pile of about three card heights should fit the screen.
  const fitH = (lines) => height / ((lines + 2.4) * 1.4 + 0.3);
  let cols = Math.max(mainCols, lead + fCols + (nf ? 0.3 : 0));
  let lines = fLines;
  let wrap = false;
  if (fitW(cols) < 0.8 * Math.min(fitW(mainCols), fitH(fLines + 1)) && fitW(cols) < 70) {
    // Not enough room for one line: the foundations go to a line of their own.
    wrap = true;
    cols = Math.max(mainCols, lead, fCols);
    lines = 1 + fLines;
  }
  const cw = Math.max(MIN_CARD, Math.floor(Math.min(fitW(cols), fitH(lines), MAX_CARD)));
  return sized(cw, wrap, fCols);
}

/** The metrics of a table whose cards are `cw` pixels wide. */
export function sized(cw, wrap, fCols) {
  return { cw, ch: Math.round(cw * 1.4), gap: Math.max(3, Math.round(cw * GAP_RATIO)), wrap,
    fCols, compact: cw < COMPACT_BELOW, narrow: cw < 56 };
}

/**
 * The height of a face's corner index (rank and suit, cards.js) as a share of the card's
 * height: the strip of a covered face-up card that must stay in view.
 */
export const indexShare = (compact) => (compact ? 0.36 : 0.29);

const UP_STEP = { wide: 0.3, compact: 0.37 }; // face-up spacing when there is room
const DOWN_STEP = 0.13; // face-down spacing when there is room
const DOWN_FLOOR = 0.05; // face-down spacing at its tightest

/** The tightest spacings of a fanned pile: a face-up card's index whole, backs just visible. */
function floors(ch, compact) {
  return { up: Math.ceil(ch * indexShare(compact)) + 1, down: Math.max(3, ch * DOWN_FLOOR) };
}

/** The height of a fanned pile at its tightest. */
export function fanFloor(ups, ch, compact) {
  const f = floors(ch, compact);
  let y = ch;
  for (let i = 0; i < ups.length - 1; i++) y += ups[i] ? f.up : f.down;
  return y;
}

/**
 * The top of each card of a fanned pile (`ups`: each card face up or not), squeezed when the
 * pile would run past `avail` pixels: the face-down spacing first, then the face-up spacing,
 * never below the floors that keep each face-up card's index whole. A pile still too tall
 * runs past `avail` (the caller then makes the cards smaller: `largestCardFitting`).
 */
export function fanTops(ups, ch, avail, compact) {
  const f = floors(ch, compact);
  const up = Math.max(f.up, ch * (compact ? UP_STEP.compact : UP_STEP.wide));
  const down = Math.max(f.down, ch * DOWN_STEP);
  const covered = ups.slice(0, -1);
  const nUp = covered.filter(Boolean).length;
  const nDown = covered.length - nUp;
  const room = avail - ch;
  // Face-down spacing: as much as the room left by face-up cards at full spacing allows.
  const d = nDown ? Math.min(down, Math.max(f.down, (room - nUp * up) / nDown)) : 0;
  const u = nUp ? Math.min(up, Math.max(f.up, (room - nDown * d) / nUp)) : 0;
  const tops = [];
  let y = 0;
  for (const isUp of ups) {
    tops.push(Math.round(y));
    y += isUp ? u : d;
  }
  const last = ups.length ? (ups[ups.length - 1] ? u : d) : 0;
  return { tops, height: Math.round(y - last + ch) };
}

/**
 * The widest card, at most `cw`, with which every fanned pile fits its room at its tightest.
 * `piles` gives each fanned pile's `ups` and `room(ch)`: the height it has when cards are
 * `ch` high (a smaller card also lifts the piles, the row above them being shorter). The
 * cards never shrink below the size whose index is `minIndex` pixels tall: past that the
 * pile runs off the screen rather than become unreadable.
 */
export function largestCardFitting(cw, piles, minIndex) {
  let w = cw;
  for (; w > MIN_CARD; w--) {
    const ch = Math.round(w * 1.4);
    const compact = w < COMPACT_BELOW;
    if (piles.every((p) => fanFloor(p.ups, ch, compact) <= p.room(ch))) return w;
    const next = w - 1;
    if (Math.round(next * 1.4) * indexShare(next < COMPACT_BELOW) < minIndex) return w;
  }
  return w;
}

/**
 * The order a pile's cards are drawn in, bottom to top, as indices into the view's list of
 * the pile (which runs from its bottom card to its top card). A foundation holding a suit
 * moved there whole (Spider, Astrocyte: the engine keeps the run as it lay in the tableau,
 * King at the bottom, Ace on top) is drawn the other way up, so that its King shows, as
 * players expect. Every other pile is drawn as listed (the other games' foundations are
 * built up from an Ace).
 */
export function drawOrder(kind, cards) {
  const order = cards.map((_, i) => i);
  const bottom = cards[0];
  const wholeSuit = kind === "foundation" && bottom?.up && bottom.card?.[0] === "K";
  return wholeSuit ? order.reverse() : order;
}

/**
 * The places of tableau piles that cover others (TriPeaks' peaks), from `covers`: for each
 * pile, the indices of the piles covering it. An open pile (covered by none) lies in the bottom
 * row, in its order among the open piles (`x` in card steps); a covered pile lies half a card
 * above the highest of the piles covering it (`row`, counted from the top, in half cards),
 * centred over them. `cols`: the open piles; `rows`: the half-card steps from top to bottom.
 */
export function peakPlaces(covers) {
  const x = new Array(covers.length).fill(null);
  const depth = new Array(covers.length).fill(null);
  let cols = 0;
  covers.forEach((c, i) => {
    if (!c.length) { x[i] = cols++; depth[i] = 0; }
  });
  const place = (i) => {
    if (depth[i] === null) {
      const under = covers[i];
      under.forEach(place);
      x[i] = under.reduce((s, j) => s + x[j], 0) / under.length;
      depth[i] = 1 + Math.max(...under.map((j) => depth[j]));
    }
  };
  covers.forEach((_, i) => place(i));
  const rows = Math.max(0, ...depth);
  return { cols, rows, places: covers.map((_, i) => ({ x: x[i], row: rows - depth[i] })) };
}
