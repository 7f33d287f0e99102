// The page's texts, in its language: the server writes them into the page as JSON lists
// (<script type="application/json" id="...">), one per part of the page.

/** The texts of the lists with these ids, merged; a list missing or unreadable leaves the
 * others (and the callers' English fallbacks). */
export function readStrings(...ids) {
  const strings = {};
  for (const id of ids) {
    try {
      Object.assign(strings, JSON.parse(document.getElementById(id)?.textContent || "{}"));
    } catch (e) {
      // the fallbacks stand in
    }
  }
  return strings;
}

/** A text with its {name} places filled in from values (unknown places left as they are). */
export function fill(text, values = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
