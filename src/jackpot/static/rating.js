// A person's rating beside their name (the match page's seats, the watch list): the
// number, with a question mark while it is provisional (a new player's number still
// moves a lot after each match), and the same said in full for a screen reader and
// in a tooltip. Nothing for a bot or a person not rated yet.
import { t } from "./i18n.js";

export function ratingEl(rating) {
  if (!rating) return null;
  const el = document.createElement("span");
  el.className = "rating";
  const full = rating.provisional
    ? t("provisional rating {rating}", { rating: rating.value })
    : t("rating {rating}", { rating: rating.value });
  el.title = full;
  const spoken = document.createElement("span");
  spoken.className = "visually-hidden";
  spoken.textContent = full;
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = rating.provisional ? `${rating.value}?` : `${rating.value}`;
  el.append(spoken, shown);
  return el;
}
