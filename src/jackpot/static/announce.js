// The match page's live region (#announce): each thing that happens, said once.
const KEPT = 6;

export function announce(text) {
  const box = document.getElementById("announce");
  if (!text || !box) return;
  const p = document.createElement("p");
  p.textContent = text;
  box.append(p);
  while (box.childElementCount > KEPT) box.firstElementChild.remove();
}
