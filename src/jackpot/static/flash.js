// The one-time message after a sign-up or a password reset (templates/_flash.html).
// A status region's text present when the page loads is not read out by every
// screen reader: it is put in again once the page has loaded, as a change they say.
const flash = document.getElementById("flash");
if (flash) {
  const text = flash.textContent;
  flash.textContent = "";
  setTimeout(() => { flash.textContent = text; }, 250);
}
