// The score the status bar shows: Spider's own (the view's `score`), or, in the Klondike
// family (the view's `scores`), the standard or Vegas score when the player chose one in the
// settings. The server computes both from the moves played (reussite.scoring).

export const SCORINGS = ["off", "standard", "vegas"];

/** The status bar's score text for a view, or "" when there is none to show. */
export function scoreText(view, scoring, t) {
  if (typeof view.score === "number") return `${t("score")} ${view.score}`;
  if (!view.scores || !SCORINGS.includes(scoring) || scoring === "off") return "";
  const n = view.scores[scoring];
  if (typeof n !== "number") return "";
  return `${t(scoring === "vegas" ? "score_vegas" : "score")} ${n}`;
}
