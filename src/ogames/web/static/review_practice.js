// "Practise the mistakes" under a finished game's review (templates/_game_review.html): once the
// review is shown (game_review.js sends `ogames:review`), each move it marked a mistake or a
// blunder, where it found a better stone, is asked again in turn, above the board (replay.html's
// #practice-ask). The board steps to the position before it (through the replay's own move list)
// and a click on a cell (or its name typed) answers: the computer's
// move is right; the move played is not; any other gets "the computer prefers another move" — the
// review knows the computer's choice only, not every move as good, so it does not call them wrong.
"use strict";
(function () {
  const root = document.querySelector(".replay[data-game-id]");
  const panel = document.getElementById("practice");
  if (!root || !panel) return;
  const words = window.OgamesPage.words;
  const fill = window.OgamesWords.fill;
  const colourName = window.OgamesPage.colourName;
  const board = document.getElementById("board");
  const start = document.getElementById("practice-start");
  const asking = document.getElementById("practice-ask");
  const say = document.getElementById("practice-say");
  const showButton = document.getElementById("practice-show");
  const nextButton = document.getElementById("practice-next");
  let items = [];   // the review's moves to practise, in the game's order
  let index = -1;   // the one asked now (-1: not practising)
  let settled = false, seen = false, found = 0;

  function isCell(label) {
    return board.querySelector('g.cell[data-cell="' + CSS.escape(label) + '"]') !== null;
  }

  function tell(text, kind) {
    asking.hidden = false;
    say.textContent = text;
    say.dataset.kind = kind;
  }

  // Step the replay's board to the position before the practised move (its move list does it).
  function stepTo(ply) {
    const button = ply === 0 ? document.getElementById("first") : document.querySelector('#moves [data-ply="' + ply + '"]');
    if (button) button.click();
  }

  function ask() {
    const move = items[index];
    settled = false;
    seen = false;
    showButton.hidden = false;
    nextButton.hidden = true;
    stepTo(move.ply - 1);
    tell(fill(words.practise_find, { colour: colourName(move.colour), played: move.move_text }), "ask");
    asking.scrollIntoView({ block: "nearest" });  // (on a phone the review is below the board)
  }

  function settle(kind, text) {
    settled = true;
    showButton.hidden = true;
    if (kind === "right" && !seen) found += 1;
    if (index + 1 < items.length) nextButton.hidden = false;
    else text += " " + fill(words.practise_done, { found: found, n: items.length });
    tell(text, kind);
  }

  root.addEventListener("ogames:review", function (event) {
    items = event.detail.moves.filter(function (move) {
      return (move.mark === "mistake" || move.mark === "blunder") && move.best && move.best !== move.move && isCell(move.best);
    });
    panel.hidden = items.length === 0;
    start.textContent = fill(words.practise, { n: items.length });
  });

  start.addEventListener("click", function () {
    index = 0;
    found = 0;
    ask();
  });

  nextButton.addEventListener("click", function () {
    index += 1;
    ask();
  });

  showButton.addEventListener("click", function () {
    seen = true;
    const move = items[index];
    settle("shown", fill(words.review_better, { move: move.best_text }));
  });

  // An answer: a cell clicked on the board, or its name typed ("Type a move", any case).
  function answer(label) {
    const move = items[index];
    if (label === move.best) {
      settle("right", fill(words.practise_right, { move: move.best_text }));
    } else {
      tell(label === move.move ? words.practise_played : words.practise_other, "wrong");
    }
  }

  function asked() {
    return index >= 0 && !settled && board.dataset.ply === String(items[index].ply - 1);  // (not another position)
  }

  board.addEventListener("click", function (event) {
    const cell = event.target.closest("g.cell[data-cell]");
    if (cell && asked()) answer(cell.dataset.cell);
  });

  document.getElementById("move-entry").addEventListener("submit", function (event) {
    event.preventDefault();
    const input = document.getElementById("move-typed");
    const note = document.getElementById("move-typed-note");
    const typed = input.value.trim();
    const cell = Array.prototype.find.call(board.querySelectorAll("g.cell[data-cell]"), function (found) {
      return found.dataset.cell.toLowerCase() === typed.toLowerCase();
    });
    note.textContent = cell || !typed ? "" : fill(words.not_legal_here, { move: typed });
    note.hidden = Boolean(cell) || !typed;
    if (!cell || !asked()) return;
    input.value = "";
    answer(cell.dataset.cell);
  });
})();
