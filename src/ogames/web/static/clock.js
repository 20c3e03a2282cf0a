// Clocks: each seat's time left as the server last said, the running one counted down between
// views. The server keeps the time and decides a loss on time; this script only draws it. A
// correspondence clock (days per move) shows days and hours, and when the seat to move must move by.
"use strict";
(function () {
  let clock = null;
  let received = 0;
  let timer = null;

  let words = {};

  function format(seconds) {
    const left = Math.max(0, seconds);
    if (clock && clock.days) {  // days per move: days and hours, then hours and minutes
      const fill = window.OgamesWords.fill;
      if (left >= 86400) return fill(words.days_left, { d: Math.floor(left / 86400), h: Math.floor(left % 86400 / 3600) });
      if (left >= 3600) return fill(words.hours_left, { h: Math.floor(left / 3600), m: Math.floor(left % 3600 / 60) });
    }
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
      item.classList.toggle("low", left < (clock.days ? 3600 : 10));
    });
  }

  function show(view, page) {
    const list = document.getElementById("clocks");
    if (!list) return;
    clock = view.clock;
    words = page.words;
    received = performance.now();
    showDeadline(view);
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
      who.textContent = page.seatName ? page.seatName(seat) : seat.name;
      const time = document.createElement("span");
      time.className = "time";
      item.append(who, time);
      list.append(item);
    });
    tick();
    if (clock.running !== null && !timer) timer = setInterval(tick, 100);
    if (clock.running === null && timer) { clearInterval(timer); timer = null; }
  }

  // A correspondence game: its days per move, and the date and time (the browser's own) by which
  // the seat to move must move.
  function showDeadline(view) {
    const line = document.getElementById("deadline");
    if (!line) return;
    const days = clock && clock.days;
    line.hidden = !days;
    if (!days) return;
    const per = window.OgamesWords.plural(words, "days_per_move", days);
    const by = clock.deadline && clock.running !== null
      ? window.OgamesWords.fill(words.move_by, { time: new Date(clock.deadline * 1000).toLocaleString(document.documentElement.lang || undefined) })
      : "";
    line.textContent = by ? per + " · " + by : per;
    void view;
  }

  (window.ogamesHooks = window.ogamesHooks || []).push(show);
})();
