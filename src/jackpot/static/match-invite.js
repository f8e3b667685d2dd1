// The invite box of a match waiting for players: the match's address in a field to
// select, and a button that copies it, saying so in the box's own status line. The
// address is the one the server wrote from its configured base URL, never one made
// here from the page's location (a proxy's or a stranger's Host header could be in it).
import { copyButton } from "./copy-field.js";
import { t } from "./i18n.js";

/** Wire the Copy button (shown only with scripts: without them the field remains). */
export function setUpInvite() {
  const field = document.getElementById("invite-url");
  const button = document.getElementById("invite-copy");
  const status = document.getElementById("invite-status");
  if (!field || !button || !status) return;
  copyButton(field, button, status, {
    copied: t("Invite link copied. Paste it in a message to the people you want to play."),
    selected: t("The invite link is selected in the box above: copy it from there."),
  });
}
