// The account page's new API token: a button that copies its secret, which the page
// shows this once, saying so in the box's own status line. Without scripts, or without
// a clipboard, the field stays there to select and copy by hand.
import { t } from "./i18n.js";

const field = document.getElementById("new-token");
const button = document.getElementById("token-copy");
const status = document.getElementById("token-status");

// Emptied first, then filled a moment later, so a second copy is said again.
function say(words) {
  status.textContent = "";
  setTimeout(() => { status.textContent = words; }, 100);
}

async function copy() {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(field.value);
      say(t("Token copied. Keep it where only your program can read it."));
      return;
    } catch { /* not allowed here: select it instead */ }
  }
  field.focus();
  field.select();
  let copied = false;
  try { copied = document.execCommand("copy"); } catch { copied = false; }
  say(copied
    ? t("Token copied. Keep it where only your program can read it.")
    : t("The token is selected in the box above: copy it from there."));
}

if (field && button && status) {
  button.hidden = false;
  button.addEventListener("click", copy);
}
