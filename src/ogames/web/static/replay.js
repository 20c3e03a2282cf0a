// The replay page: step through a record with the slider, the buttons, the move list or the
// arrow keys. The server draws every position (ogames.draw) from the record, which the rules
// check again; the page never decides anything about the game. Analysis asks the computer for
// its best move at the position shown.
"use strict";
(function () {
  const root = document.querySelector(".replay");
  if (!root) return;
  const record = JSON.parse(document.getElementById("record").textContent);
  const words = JSON.parse(document.getElementById("words").textContent);
  const showMessage = window.OgamesPage.showMessage;
  const colourName = window.OgamesPage.colourName;
  const fill = window.OgamesWords.fill;
  const gameId = root.dataset.gameId || null;
  const plies = Number(root.dataset.plies);
  const slider = document.getElementById("slider");
  const board = document.getElementById("board");
  const cache = new Map();
  let ply = Number(slider.value);
  let asked = 0; // the latest position asked for: older answers are dropped

  const post = window.OgamesAnalysis.post;

  function positionOf(n) {
    if (!cache.has(n)) {
      const promise = post("/api/replay/position", { record: record, ply: n });
      promise.catch(function () { cache.delete(n); });
      cache.set(n, promise);
    }
    return cache.get(n);
  }

  function describe(position) {
    const where = document.getElementById("where");
    where.replaceChildren();
    if (position.over && position.result) {
      const strong = document.createElement("strong");
      strong.textContent = position.result.text;
      where.append(strong);
      return;
    }
    const text = position.ply === 0 ? words.replay_start
      : fill(words.after_move, { move: position.move_text || position.move, colour: colourName(position.by) });
    where.append(document.createTextNode(text));
    const player = position.player || position.to_move;  // (Omega: the seat's colour, not the stone's)
    if (player) {
      const swatch = document.createElement("span");
      swatch.className = "swatch swatch-" + player;
      swatch.setAttribute("aria-hidden", "true");
      where.append(document.createTextNode(" · "), swatch,
        document.createTextNode(" " + fill(words.to_move, { colour: colourName(player) })));
    }
  }

  function mark(n) {
    slider.value = String(n);
    const label = fill(words.position, { n: n, total: plies });
    slider.setAttribute("aria-label", label);
    document.getElementById("counter").textContent = label;
    const list = document.getElementById("moves");
    list.querySelectorAll("[data-ply]").forEach(function (button) {
      if (Number(button.dataset.ply) === n) {
        button.setAttribute("aria-current", "step");
        // Scroll the list alone (scrollIntoView would scroll the page too, away from the board).
        const top = button.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
        list.scrollTop = top - list.clientHeight / 2;
      } else {
        button.removeAttribute("aria-current");
      }
    });
    document.getElementById("first").disabled = document.getElementById("previous").disabled = n === 0;
    document.getElementById("next").disabled = document.getElementById("last").disabled = n === plies;
    // The position shown, for the review beside the board (static/game_review.js).
    root.dispatchEvent(new CustomEvent("ogames:ply", { detail: { ply: n } }));
  }

  async function show(n) {
    n = Math.max(0, Math.min(plies, n));
    ply = n;
    mark(n);
    const ticket = ++asked;
    clearAnalysis();
    try {
      const position = await positionOf(n);
      if (ticket !== asked) return;
      board.innerHTML = position.svg; // drawn by the server from the rules' state
      board.dataset.ply = String(n);
      describe(position);
      showMessage(null);
      if (n < plies) positionOf(n + 1).catch(function () { /* shown when asked for */ });
    } catch (error) {
      if (ticket === asked) showMessage(error.message);
    }
  }

  // ----- analysis (static/analysis.js) ------------------------------------------------------------
  // A finished record's last position has no move to find; every earlier one has.
  const finished = root.dataset.finished === "yes";
  const analysis = window.OgamesAnalysis.panel({
    words: words,
    shown: function () { return { key: ply, ply: ply, over: finished && ply === plies }; },
    request: function (at, seconds) {
      return gameId
        ? post("/api/games/" + encodeURIComponent(gameId) + "/analysis", { ply: at, seconds: seconds })
        : post("/api/analysis", { record: record, ply: at, seconds: seconds });
    },
    draw: function (found) { board.innerHTML = found.svg; },  // the position with the best move marked
    showMessage: showMessage,
  });
  function clearAnalysis() { if (analysis) analysis.clear(); }

  // ----- controls -------------------------------------------------------------------------------
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("previous").addEventListener("click", function () { show(ply - 1); });
  document.getElementById("next").addEventListener("click", function () { show(ply + 1); });
  document.getElementById("last").addEventListener("click", function () { show(plies); });
  document.getElementById("moves").addEventListener("click", function (event) {
    const button = event.target.closest("[data-ply]");
    if (button) show(Number(button.dataset.ply));
  });
  document.addEventListener("keydown", function (event) {
    const target = event.target;
    if (target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA" ||
      (target.tagName === "INPUT" && target.type !== "range"))) return;
    if (target === slider) return; // the slider moves itself with the arrow keys
    const steps = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: plies };
    if (event.key in steps) { event.preventDefault(); show(steps[event.key]); }
  });
  mark(ply);
  root.dataset.ready = "true"; // the controls answer from now on (tests wait for it)
})();
