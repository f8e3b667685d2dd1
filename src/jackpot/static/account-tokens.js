// The account page's new API token: a button that copies its secret, which the page
// shows this once, saying so in the box's own status line. Without scripts, or without
// a clipboard, the field stays there to select and copy by hand.
import { copyButton } from "./copy-field.js";
import { t } from "./i18n.js";

const field = document.getElementById("new-token");
const button = document.getElementById("token-copy");
const status = document.getElementById("token-status");

if (field && button && status) {
  copyButton(field, button, status, {
    copied: t("Token copied. Keep it where only your program can read it."),
    selected: t("The token is selected in the box above: copy it from there."),
  });
}
