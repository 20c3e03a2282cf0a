// A puzzle (templates/puzzle.html): a click on a cell (or its name typed) plays that move. The server judges it
// (web/puzzles/routes.py): right, and the board shows the defence's reply; solved; wrong, and the
// board shows the move with its refutation until "Try again" puts the position back; or "also" (a
// later move that wins too, off the puzzle's line), shown the same way with its own words. The
// solution is asked for only by "See the solution".
//
// On a phone a tap that misses costs the first try, so the board is drawn with cells as large as a
// finger (OgamesTouchKit's zooming frame, as on a game's page) and, with "Confirm moves" (on by
// default on touch screens, one setting with the games' pages), the first tap on an empty cell
// selects it and a second tap there (or the bar's button) plays it.
"use strict";

(function () {
  const root = document.getElementById("puzzle");
  const board = document.getElementById("board");
  if (!root || !board) return;
  const said = JSON.parse(document.getElementById("puzzle-words").textContent);
  const verdict = document.getElementById("verdict");
  const retry = document.getElementById("retry");
  const show = document.getElementById("show");
  const next = document.getElementById("next");  // "Next puzzle": shown once this one is settled
  const lineList = document.getElementById("line");
  const base = "/api/puzzles/" + encodeURIComponent(root.dataset.puzzle);
  const lang = "?lang=" + encodeURIComponent(document.documentElement.lang || "en");
  let line = [];            // the moves from the puzzle's position that stand
  let standing = board.innerHTML;  // the board after them
  let busy = false, over = false, refuted = false;
  let selected = null;      // the cell selected for confirmation

  const kit = window.OgamesTouchKit;
  const frame = kit.zoomFrame(board, function (drawing) { return kit.smallestCell(drawing.querySelectorAll("g.cell[data-cell]")); });
  const confirming = kit.confirmSetting(document.getElementById("confirm-toggle"), "ogames:confirm", kit.coarse, unselect);
  const bar = kit.confirmBar(function () {
    const move = selected;
    unselect();
    if (move !== null && !busy && !over && !refuted) play(move);
  }, unselect);
  frame.fit();

  function unselect() {
    board.querySelectorAll("g.cell.selected").forEach(function (cell) { cell.classList.remove("selected"); });
    selected = null;
    bar.hide();
  }

  // Whether a tapped cell is played now: yes without confirmation, on a stone (the server says why
  // not, and nothing is rated) and on the selected cell; otherwise the cell is selected.
  function ready(cell) {
    if (!confirming() || cell.hasAttribute("data-stone")) { unselect(); return true; }
    if (selected === cell.dataset.cell) { unselect(); return true; }
    unselect();
    selected = cell.dataset.cell;
    cell.classList.add("selected");
    bar.show(said.confirm_hint.replace("{cell}", selected), said.confirm_play.replace("{cell}", selected));
    return false;
  }

  function say(text, kind) {
    verdict.textContent = text;
    verdict.dataset.kind = kind || "";
  }

  function drawLine(moves) {
    lineList.replaceChildren(...moves.map(function (move) {
      const item = document.createElement("li");
      item.textContent = move;
      return item;
    }));
  }

  // On a zoomed board, the moves an answer drew (the defence's reply, a refutation) are brought
  // into sight if they are out of it.
  function reveal(moves) {
    const cells = moves.map(function (move) { return kit.cellIn(board, move); }).filter(Boolean);
    if (cells.length) frame.reveal(cells);
  }

  function showRated(rated) {
    if (!rated) return;
    const change = (rated.change > 0 ? "+" : "") + rated.change;
    document.getElementById("player-rating").textContent = rated.player.shown;
    document.getElementById("puzzle-rating").textContent = rated.puzzle.shown;
    document.getElementById("first-try").textContent = said.rated.replace("{change}", change);
  }

  async function post(path, body) {
    const response = await fetch(base + path + lang, {
      method: "POST", headers: window.OgamesPage.jsonHeaders(), body: JSON.stringify(body), credentials: "same-origin",
    });
    const answer = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(answer.error || said.failed);
    return answer;
  }

  async function play(move) {
    busy = true;
    try {
      const answer = await post("/attempt", { moves: line.concat([move]) });
      board.innerHTML = answer.svg;
      showRated(answer.rated);
      if (answer.result === "wrong" || answer.result === "also") {
        refuted = true;
        retry.hidden = false;
        if (answer.result === "wrong") next.hidden = false;
        if (answer.result === "also") say(said.also, "also");
        else say(answer.refutation ? said.refuted.replace("{move}", answer.refutation.text) : said.wrong, "wrong");
        drawLine(line.concat([move], answer.refutation ? [answer.refutation.move] : []));
        if (answer.refutation) reveal([answer.refutation.move]);
        return;
      }
      line = answer.moves;
      standing = answer.svg;
      drawLine(line);
      if (answer.result === "solved") {
        over = true;
        next.hidden = false;
        show.hidden = true;
        say(said.solved, "solved");
      } else {
        say(answer.reply ? said.right.replace("{move}", answer.reply.text) : said.go_on, "right");
        if (answer.reply) reveal([answer.reply.move]);
      }
    } catch (error) {
      say(error.message, "error");
    } finally {
      busy = false;
    }
  }

  board.addEventListener("click", function (event) {
    const cell = event.target.closest(".cell[data-cell]");
    if (!cell || busy || over || refuted || !ready(cell)) return;
    play(cell.dataset.cell);
  });

  // A typed move (a cell's name, any case), played as its click would be, without confirmation; a
  // name of no cell is refused here. (A stone's cell goes to the server, which says why not.)
  document.getElementById("move-entry").addEventListener("submit", function (event) {
    event.preventDefault();
    const input = document.getElementById("move-typed");
    const note = document.getElementById("move-typed-note");
    const typed = input.value.trim().toLowerCase();
    if (!typed) return;
    const cell = Array.prototype.find.call(board.querySelectorAll(".cell[data-cell]"), function (found) {
      return found.dataset.cell.toLowerCase() === typed;
    });
    note.textContent = cell ? "" : said.not_legal_here.replace("{move}", input.value.trim());
    note.hidden = Boolean(cell);
    if (!cell || busy || over || refuted) return;
    unselect();
    input.value = "";
    play(cell.dataset.cell);
  });

  retry.addEventListener("click", function () {
    refuted = false;
    unselect();
    retry.hidden = true;
    board.innerHTML = standing;
    drawLine(line);
    say("", "");
  });

  show.addEventListener("click", async function () {
    if (busy) return;
    busy = true;
    unselect();
    try {
      const answer = await post("/solution", {});
      over = true;
      retry.hidden = true;
      next.hidden = false;
      show.hidden = true;
      board.innerHTML = answer.svg;
      showRated(answer.rated);
      const moves = answer.solution.map(function (step) { return step.text; });
      say(said.solution.replace("{moves}", moves.join(", ")), "solution");
      drawLine(answer.solution.map(function (step) { return step.move; }));
    } catch (error) {
      say(error.message, "error");
    } finally {
      busy = false;
    }
  });
})();
