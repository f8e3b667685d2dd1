// A Copy button beside a field the page shows (an invite link, a new API token): it
// copies the field's text and says so in the box's own status line; where the page
// may not use the clipboard it selects the text for the reader to copy by hand.
// Without scripts the button stays hidden and the field is there to select.

/**
 * Wire ``button`` to copy ``field`` into the clipboard, telling ``status`` what
 * happened: ``words.copied`` once copied, ``words.selected`` when only selected.
 */
export function copyButton(field, button, status, words) {
  // Emptied first, then filled a moment later, so a second copy is said again.
  const say = (text) => {
    status.textContent = "";
    setTimeout(() => { status.textContent = text; }, 100);
  };
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(field.value);
        say(words.copied);
        return;
      } catch { /* not allowed here: select it instead */ }
    }
    field.focus();
    field.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch { copied = false; }
    say(copied ? words.copied : words.selected);
  });
}
