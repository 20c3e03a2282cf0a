// The computer's review beside the replay's board (web/boards/game_review_route.py): it asks the
// server for the game's review (and for one, when the person presses "Ask"), waits while it is
// computed, then shows the win-chance graph the server drew, marks each move of the list with its
// symbol (?! inaccuracy, ? mistake, ?? blunder), and tells for the position shown what the computer
// thought of the move that led there: the chances before and after, the better move and its line,
// a proof where the solver found one. A click on the graph steps the board there (replay.js).
"use strict";
(function () {
  const root = document.querySelector(".replay[data-game-id]");
  const box = document.getElementById("game-review");
  if (!root || !box) return;
  const gameId = root.dataset.gameId;
  const words = window.OgamesPage.words;
  const fill = window.OgamesWords.fill;
  const colourName = window.OgamesPage.colourName;
  const status = document.getElementById("review-status");
  const ask = document.getElementById("review-ask");
  const graph = document.getElementById("review-graph");
  const legend = document.getElementById("review-legend");
  const detail = document.getElementById("review-move");
  const url = "/api/games/" + encodeURIComponent(gameId) + "/review?lang=" + encodeURIComponent(document.documentElement.lang || "en");
  const EVERY = 2000;  // ms between looks while the review is computed
  let review = null;
  let ply = Number(document.getElementById("slider").value);

  function showStatus(answer) {
    box.dataset.status = answer.status;
    ask.hidden = answer.status !== "none";
    if (answer.status === "none") status.textContent = words.review_none;
    else if (answer.status === "pending") {
      status.textContent = answer.total ? fill(words.review_progress, { done: answer.done, total: answer.total }) : words.review_pending;
    }
    else if (answer.status === "failed") status.textContent = fill(words.review_failed, { reason: answer.problem || "" });
    else status.textContent = words.review_start;
  }

  async function look() {
    let answer;
    try {
      const response = await fetch(url);
      answer = await response.json();
      if (!response.ok) { status.textContent = answer.error || response.statusText; return; }
    } catch (error) {
      setTimeout(look, EVERY);  // the server is away for a moment: look again
      return;
    }
    showStatus(answer);
    if (answer.status === "pending") setTimeout(look, EVERY);
    else if (answer.status === "ready") show(answer);
  }

  ask.addEventListener("click", async function () {
    ask.disabled = true;
    try {
      showStatus(await window.OgamesAnalysis.post("/api/games/" + encodeURIComponent(gameId) + "/review", {}));
      setTimeout(look, EVERY);
    } catch (error) {
      window.OgamesPage.showMessage(error.message);
    }
    ask.disabled = false;
  });

  function show(answer) {
    review = answer;
    graph.innerHTML = answer.graph;  // drawn by the server from the stored review
    graph.hidden = false;
    legend.hidden = false;
    document.querySelectorAll("#moves [data-ply]").forEach(function (button) {
      const move = answer.moves[Number(button.dataset.ply) - 1];
      if (!move || !move.symbol) return;
      button.dataset.mark = move.mark;
      const symbol = document.createElement("span");
      symbol.className = "review-symbol mark-" + move.mark;
      symbol.textContent = move.symbol;
      symbol.title = words["mark_" + move.mark];
      button.append(symbol);
    });
    showPly(ply);
    root.dispatchEvent(new CustomEvent("ogames:review", { detail: answer }));  // (review_practice.js)
  }

  function line(text, className) {
    const p = document.createElement("p");
    if (className) p.className = className;
    p.textContent = text;
    detail.append(p);
    return p;
  }

  // What the computer thought of the move that led to position n (none at the start).
  function showPly(n) {
    ply = n;
    if (!review) return;
    const cursor = graph.querySelector(".review-cursor");
    if (cursor && review.steps[n] !== undefined) {
      cursor.setAttribute("x1", review.steps[n]);
      cursor.setAttribute("x2", review.steps[n]);
    }
    detail.replaceChildren();
    const move = review.moves[n - 1];
    detail.hidden = !move;
    if (!move) return;
    detail.dataset.ply = String(n);
    const head = line(n + ". " + move.move_text + (move.symbol ? " " + move.symbol : ""), "review-head");
    if (move.mark) {
      const mark = document.createElement("span");
      mark.className = "review-mark-name mark-" + move.mark;
      mark.textContent = " · " + words["mark_" + move.mark];
      head.append(mark);
    }
    const colour = colourName(move.colour);
    if (move.before !== null && move.after !== null) {
      line(fill(words.review_chances, { colour: colour, before: Math.round(move.before * 100), after: Math.round(move.after * 100) }),
        "review-chances");
    }
    if (move.proven) line(fill(move.proven === "win" ? words.review_proven_win : words.review_proven_loss, { colour: colour }), "review-proven");
    // As the terminal's review: a better move is named for a move that lost something (its line
    // going on from it); a good move that is not the computer's own is told apart, not corrected.
    const lost = move.mark && move.mark !== "good";
    if (move.best && move.best !== move.move && lost) {
      line(fill(words.review_better, { move: move.best_text }), "review-better").dataset.move = move.best;
      const rest = move.line_text.slice(1);
      if (rest.length) line(words.line + ": " + rest.join(" → "), "review-line small");
    } else if (move.best && move.best !== move.move) {
      line(fill(words.review_choice, { move: move.best_text }), "review-better small").dataset.move = move.best;
    } else if (move.best) {
      line(words.review_best_played, "review-better small");
    }
  }

  // A click on the graph: the board steps there, as a click in the move list does.
  graph.addEventListener("click", function (event) {
    const point = event.target.closest("[data-ply]");
    if (!point) return;
    const n = Number(point.dataset.ply);
    const button = n === 0 ? document.getElementById("first") : document.querySelector('#moves [data-ply="' + n + '"]');
    if (button) button.click();
  });
  root.addEventListener("ogames:ply", function (event) { showPly(event.detail.ply); });
  look();
})();
