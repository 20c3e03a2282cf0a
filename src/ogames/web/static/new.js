// New-game form: show only the options of the chosen variant, and the computer's settings only
// when playing against it. The server checks everything again.
"use strict";
(function () {
  const form = document.querySelector("form.new-game");
  if (!form) return;
  const variant = form.querySelector("#opt_variant");
  function update() {
    const chosen = variant ? variant.value : "";
    form.querySelectorAll("[data-applies-to]").forEach(function (field) {
      const on = field.dataset.appliesTo.split(" ").includes(chosen);
      field.hidden = !on;
      field.querySelectorAll("input, select, textarea").forEach(function (input) { input.disabled = !on; });
    });
    const ai = form.querySelector("input[name=mode][value=ai]");
    const aiOnly = form.querySelector(".ai-only");
    if (ai && aiOnly) {
      aiOnly.hidden = !ai.checked;
    }
    // Who sits where: one choice per seat, as many as the game has (Omega: its players option).
    const bySeat = form.querySelector("input[name=mode][value=seats]");
    const seatsOnly = form.querySelector(".seats-only");
    if (bySeat && seatsOnly) {
      seatsOnly.hidden = !bySeat.checked;
      const players = form.querySelector("#opt_players");
      const count = players && players.value ? Number(players.value) : Number(seatsOnly.dataset.seatCount);
      seatsOnly.querySelectorAll("[data-who]").forEach(function (field) {
        const on = bySeat.checked && Number(field.dataset.who) <= count;
        field.hidden = !on;
        field.querySelector("select").disabled = !on;
      });
    }
    // The time control: minutes for a live game, or days per move for a correspondence game.
    const days = form.querySelector("input[name=timing][value=days]");
    const liveOnly = form.querySelector(".live-only");
    const daysOnly = form.querySelector(".days-only");
    if (days && liveOnly && daysOnly) {
      liveOnly.hidden = days.checked;
      daysOnly.hidden = !days.checked;
    }
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
})();
