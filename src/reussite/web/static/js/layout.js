// Sizing the table to the screen, and the order a pile is drawn in: pure functions of pile
// counts, screen measures and a pile's cards.

const GAP_RATIO = 0.09; // gap / card width
const MAX_CARD = 118;
const MIN_CARD = 26;
const FOUNDATIONS_PER_LINE = 8;

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
  return { cw, ch: Math.round(cw * 1.4), gap: Math.max(3, Math.round(cw * GAP_RATIO)), wrap,
    fCols, compact: cw < 54, narrow: cw < 56 };
}

/**
 * The top of each card of a fanned pile (`ups`: each card face up or not), squeezed when the
 * pile would run past `avail` pixels. Face-down cards overlap more than face-up ones, whose
 * corner index must stay readable (compact faces have a taller index).
 */
export function fanTops(ups, ch, avail, compact) {
  const down = ch * 0.13;
  const up = ch * (compact ? 0.37 : 0.3);
  const steps = ups.map((u, i) => (i === ups.length - 1 ? 0 : (u ? up : down)));
  const sum = steps.reduce((a, b) => a + b, 0);
  const f = sum + ch > avail ? Math.max(0.22, (avail - ch) / sum) : 1;
  const tops = [];
  let y = 0;
  for (const s of steps) {
    tops.push(Math.round(y));
    y += s * f;
  }
  return { tops, height: Math.round(y + ch) };
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
