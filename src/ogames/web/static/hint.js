// A learner's hints (web/boards/learner_hints.py): in a casual game of one person against the
// computer, the Hint button asks the server for the best move in the position on the board; the
// board lights it (board.js `mark`) until the position changes. The button says how many hints
// are left; the server counts them and refuses any it may not give (its reason is shown). Once the
// game is over, the page offers the computer's review of it (web/boards/game_review_route.py).
"use strict";
(function () {
  const button = document.getElementById("hint");
  const note = document.getElementById("hint-note");
  const offer = document.getElementById("review-offer");
  if (!button) return;
  const words = window.OgamesPage.words;
  const fill = window.OgamesWords.fill;
  let asking = false;
  let view = null;
  let api = null;

  function show(latest, hooked) {
    view = latest;
    api = hooked;
    // Beside it, once the game is over with a result: the link to the computer's review of it.
    if (offer) offer.hidden = !(view.over && view.result && !view.aborted);
    const hints = view.hints;
    const holds = api.heldSeats().length > 0;
    button.hidden = !hints || view.over || !holds;
    if (button.hidden) { note.textContent = ""; return; }
    const mine = api.tokenFor(view.mover) !== null;
    button.textContent = hints.left > 0 ? fill(words.hint_button, { left: hints.left, limit: hints.limit }) : words.hints_none;
    button.dataset.left = String(hints.left);
    button.disabled = asking || !mine || view.thinking || hints.left === 0;
    if (note.dataset.version !== String(view.version)) note.textContent = "";  // the hint was for another position
  }

  async function ask() {
    if (asking || !view || !api) return;
    const asked = view;
    const token = api.tokenFor(asked.mover);
    if (!token) return;
    asking = true;
    button.disabled = true;
    note.textContent = words.hint_looking;
    note.dataset.version = String(asked.version);
    try {
      const found = await window.OgamesAnalysis.post("/api/games/" + encodeURIComponent(api.gameId) + "/hint",
        { token: token, version: asked.version });
      if (api.view().version === found.version && window.OgamesBoard) {
        window.OgamesBoard.mark("live" + found.version, found.svg);
        if (window.OgamesTouch) window.OgamesTouch.reveal(found.move);  // a zoomed board scrolls to it
        note.textContent = fill(words.hint_shown, { move: found.move_text || found.move });
      } else {
        note.textContent = "";
      }
      api.showMessage(null);
    } catch (error) {
      note.textContent = "";
      api.showMessage(error.message);
    }
    asking = false;
    show(api.view(), api);
  }

  button.addEventListener("click", ask);
  (window.ogamesHooks = window.ogamesHooks || []).push(show);
})();
