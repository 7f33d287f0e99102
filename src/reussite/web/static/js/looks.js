// The table's looks: the card back and the table colour the player chose (kept by
// settings.js), drawn by css/app.css from the table's data-back and data-felt attributes.

import { BACKS, FELTS } from "./settings.js";

/** Show the chosen back and table colour. */
export function applyLooks(root, settings) {
  root.dataset.back = settings.back;
  root.dataset.felt = settings.felt;
}

/** A row of swatches for one setting: radio buttons, each named for screen readers. */
function choice(setting, title, options, settings, t, onChange) {
  const box = document.createElement("fieldset");
  box.className = `setting choice choice-${setting}`;
  const legend = document.createElement("legend");
  legend.textContent = t(title);
  const row = document.createElement("div");
  row.className = "swatches";
  for (const value of options) {
    const input = document.createElement("input");
    input.type = "radio";
    input.name = setting;
    input.value = value;
    input.checked = settings[setting] === value;
    input.setAttribute("aria-label", t(`${setting}_${value}`));
    input.addEventListener("change", () => {
      if (!input.checked) return;
      settings[setting] = value;
      onChange();
    });
    const look = document.createElement("span");
    look.className = `look ${setting}-${value}`;
    look.setAttribute("aria-hidden", "true");
    const label = document.createElement("label");
    label.className = "swatch";
    label.title = t(`${setting}_${value}`);
    label.append(input, look);
    row.append(label);
  }
  box.append(legend, row);
  return box;
}

/** The settings panel's rows for the card back and the table colour. */
export function looksControls(settings, t, onChange) {
  return [choice("back", "card_back", BACKS, settings, t, onChange),
    choice("felt", "table_colour", FELTS, settings, t, onChange)];
}
