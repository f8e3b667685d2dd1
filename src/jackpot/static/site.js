// On every page: the header's menu button (on a phone the links fold away behind it),
// its language and theme pickers closing as a menu does (Escape, a press elsewhere,
// opening the other), and the service worker that keeps the offline page.
const header = document.getElementById("site-header");
const menuButton = document.getElementById("menu-button");
const pickers = [...document.querySelectorAll("header.site details.pick")];

function setMenu(open) {
  menuButton.setAttribute("aria-expanded", String(open));
  header.classList.toggle("open", open);
}

function closePickers(except = null) {
  for (const d of pickers) if (d !== except) d.open = false;
}

if (header && menuButton) {
  menuButton.addEventListener("click", () => setMenu(menuButton.getAttribute("aria-expanded") !== "true"));
  for (const d of pickers) {
    d.addEventListener("toggle", () => { if (d.open) closePickers(d); });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const picker = pickers.find((d) => d.open && d.contains(document.activeElement));
    if (picker) {
      picker.open = false;
      picker.querySelector("summary").focus();
    } else if (header.classList.contains("open") && header.contains(document.activeElement)) {
      setMenu(false);
      menuButton.focus();
    } else {
      return;
    }
    e.preventDefault();
  });
  document.addEventListener("click", (e) => {
    if (!e.target.closest("details.pick")) closePickers();
    if (!header.contains(e.target)) setMenu(false);
  });
}

// Navigations that find no network get the offline page (static/sw.js); a browser that
// refuses service workers here (a private window, some settings) just goes without.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
