// Clocks: each seat's time left as the server last said, the running one counted down between
// views. The server keeps the time and decides a loss on time; this script only draws it.
"use strict";
(function () {
  let clock = null;
  let received = 0;
  let timer = null;

  function format(seconds) {
    const left = Math.max(0, seconds);
    if (left < 10) return left.toFixed(1);
    const whole = Math.ceil(left);
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  }

  function tick() {
    if (!clock) return;
    const elapsed = (performance.now() - received) / 1000;
    document.querySelectorAll("#clocks [data-seat]").forEach(function (item) {
      const seat = Number(item.dataset.seat);
      const running = clock.running === seat;
      const left = clock.remaining[seat] - (running ? elapsed : 0);
      item.querySelector(".time").textContent = format(left);
      item.classList.toggle("low", left < 10);
    });
  }

  function show(view, page) {
    const list = document.getElementById("clocks");
    if (!list) return;
    clock = view.clock;
    received = performance.now();
    if (!clock) { list.hidden = true; return; }
    list.hidden = false;
    list.replaceChildren();
    view.seats.forEach(function (seat) {
      const item = document.createElement("li");
      item.dataset.seat = String(seat.seat);
      if (clock.running === seat.seat) item.dataset.running = "true";
      if (clock.flagged === seat.seat) item.dataset.flagged = "true";
      seat.colours.forEach(function (colour) {
        const swatch = document.createElement("span");
        swatch.className = "swatch swatch-" + colour;
        swatch.setAttribute("aria-hidden", "true");
        if (window.OgamesBoard) window.OgamesBoard.picture(swatch, colour);  // shape as well as colour
        item.append(swatch);
      });
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = seat.name;
      const time = document.createElement("span");
      time.className = "time";
      item.append(who, time);
      list.append(item);
    });
    tick();
    if (clock.running !== null && !timer) timer = setInterval(tick, 100);
    if (clock.running === null && timer) { clearInterval(timer); timer = null; }
    void page;
  }

  (window.ogamesHooks = window.ogamesHooks || []).push(show);
})();
