// FLIP animation: First (where every card was), Last (where the new view puts it), Invert (a
// transform that puts it back), Play (let the transform go). The view's `events` say where each
// card came from; cards that did not move but shifted (a pile squeezing) glide too.

const BASE_MS = 200;

/** Where every card and pile is now: "pile#index" and "pile" -> DOMRect. */
export function snapshot(pileEls) {
  const rects = new Map();
  for (const [pile, el] of pileEls) {
    rects.set(pile, el.getBoundingClientRect());
    for (const c of el.querySelectorAll(":scope > .card")) {
      rects.set(`${pile}#${c.dataset.index}`, c.getBoundingClientRect());
    }
  }
  return rects;
}

/** Replay the events on the old pile lengths: the old place of each card that moved. */
function origins(rects, oldLens, events) {
  const origin = new Map();
  const moved = new Map(); // "pile#i" -> order of the event that brought it
  const flips = new Set();
  const lens = { ...oldLens };
  const oldRect = (pile, i) => rects.get(`${pile}#${i}`) || rects.get(pile);
  events.forEach((e, order) => {
    if (e.type === "move") {
      for (let k = 0; k < e.count; k++) {
        const src = `${e.from}#${lens[e.from] - e.count + k}`;
        const dst = `${e.to}#${lens[e.to] + k}`;
        const r = origin.get(src) || oldRect(e.from, lens[e.from] - e.count + k);
        origin.delete(src);
        origin.set(dst, r);
        moved.set(dst, order);
      }
      lens[e.from] -= e.count;
      lens[e.to] += e.count;
    } else if (e.type === "flip") {
      flips.add(`${e.pile}#${lens[e.pile] - 1}`);
    }
  });
  return { origin, moved, flips };
}

/**
 * Animate the cards now in `pileEls` from their old places. `from` overrides origins (a dropped
 * run starts where the pointer left it); `speed` scales durations (0: no animation).
 */
export function animate(pileEls, rects, oldLens, events, { from = null, speed = 1 } = {}) {
  if (!speed) return;
  const { origin, moved, flips } = origins(rects, oldLens, events);
  if (from) for (const [key, r] of from) origin.set(key, r);
  const ms = BASE_MS * speed;
  const stagger = Math.min(40, 400 / Math.max(1, events.length)) * speed;
  for (const [pile, el] of pileEls) {
    for (const c of el.querySelectorAll(":scope > .card")) {
      const key = `${pile}#${c.dataset.index}`;
      const start = origin.get(key) || (moved.has(key) ? null : rects.get(key));
      if (!start) continue;
      const end = c.getBoundingClientRect();
      const dx = start.left - end.left;
      const dy = start.top - end.top;
      const flip = flips.has(key);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && !flip) continue;
      const delay = moved.has(key) ? moved.get(key) * stagger : 0;
      const frames = [
        { transform: `translate(${dx}px, ${dy}px)${flip ? " scaleX(0.05)" : ""}` },
        { transform: "none" },
      ];
      c.classList.add("moving");
      const anim = c.animate(frames, { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)",
        fill: "backwards" });
      anim.onfinish = anim.oncancel = () => c.classList.remove("moving");
    }
  }
}

/** A run that was dropped nowhere useful glides back to its pile. */
export function springBack(cards, speed) {
  for (const c of cards) {
    if (!c.isConnected) continue;
    const tr = c.style.transform;
    c.style.transform = "";
    c.classList.remove("dragging");
    if (speed > 0 && tr) {
      c.animate([{ transform: tr }, { transform: "none" }],
        { duration: 220 * speed, easing: "cubic-bezier(.3,1.4,.5,1)" });
    }
  }
}
