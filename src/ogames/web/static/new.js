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
  }
  form.addEventListener("change", update);
  update();
})();
