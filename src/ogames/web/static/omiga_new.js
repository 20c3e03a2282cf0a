// The Omiga form: as many seat rows as the chosen mode has players, named as the rules name them;
// a bot's level only for bot seats in real time (turn-based bots are the climber); zen has one person.
"use strict";
(function () {
  const form = document.querySelector("form.omiga-new");
  if (!form) return;
  const variant = form.querySelector("#opt_variant");
  const players = form.querySelector("#opt_players");
  const pace = form.querySelector("#opt_pace");
  function seatCount(mode) {
    if (mode === "2v2") return 4;
    if (mode === "zen") return 1;
    if (mode === "toddler") {
      const n = parseInt(players && players.value, 10);
      return n >= 2 && n <= 6 ? n : 2;
    }
    return 2;
  }
  function update() {
    const mode = variant ? variant.value : "base";
    const count = seatCount(mode);
    const realtime = mode === "base" || mode === "2v2" || (mode === "kids" && !(pace && pace.value === "turns"));
    form.querySelectorAll(".seat-row").forEach(function (row) {
      const seat = Number(row.dataset.seat);
      const on = seat < count;
      row.hidden = !on;
      row.querySelectorAll("select").forEach(function (input) { input.disabled = !on; });
      const name = row.querySelector(".seat-name");
      const names = JSON.parse(name.dataset.names);
      if (names[mode] && names[mode][seat]) name.textContent = names[mode][seat];
      const kind = row.querySelector(".seat-kind");
      if (mode === "zen") { kind.value = "here"; }
      kind.querySelector("option[value=bot]").disabled = mode === "zen";
      const bot = kind.value === "bot";
      row.querySelectorAll(".bot-only").forEach(function (el) {
        el.hidden = !bot || (el.classList.contains("realtime-only") && !realtime);
        el.disabled = !on || el.hidden;
      });
    });
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
})();
