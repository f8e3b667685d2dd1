// Bots fill some seats, never all of them: offer only what the number of seats allows.
(() => {
  const seats = document.querySelector("select[name=seats]");
  const bots = document.querySelector("select[name=bots]");
  const sync = () => {
    const most = Number(seats.value) - 1;
    for (const o of bots.options) o.disabled = Number(o.value) > most;
    if (Number(bots.value) > most) bots.value = String(most);
  };
  seats.addEventListener("change", sync);
  sync();
})();
