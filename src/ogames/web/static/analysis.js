// The computer's analysis panel, shared by the replay page (replay.js) and the game page (game.js):
// the thinking-time choice and the Analyse button (templates/_analysis.html), the request, and the
// answer shown — best move, the mover's chance to win with a bar, the expected line, the figures.
// The page says which position it shows; an answer that comes back for a position no longer
// shown is dropped, and a new position clears the panel. The server decides whether a position
// may be analysed at all; the panel only shows its answer or its reason.
"use strict";
window.OgamesAnalysis = (function () {
  const fill = window.OgamesWords.fill;

  // POST JSON and read the answer; the server's refusal becomes an Error with its reason. The
  // server limits requests per client (429 rate-limited): someone stepping fast (an arrow key
  // held) goes over that, so wait a moment and ask again rather than fail. Other refusals — the
  // analysis quota spent, the computer busy — are shown with their reason (it says when to retry).
  async function post(url, body) {
    let response;
    let answer = {};
    // Answers and refusals in the page's language.
    const worded = url + (url.indexOf("?") < 0 ? "?" : "&") + "lang=" + encodeURIComponent(document.documentElement.lang || "en");
    for (let attempt = 0; ; attempt++) {
      response = await fetch(worded, {
        method: "POST",
        headers: window.OgamesPage.jsonHeaders(),
        body: JSON.stringify(body),
      });
      try { answer = await response.json(); } catch (e) { answer = { error: response.statusText }; }
      if (response.status !== 429 || answer.code !== "rate-limited" || attempt >= 20) break;
      await new Promise(function (resolve) { setTimeout(resolve, 250); });
    }
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

  // The panel of a page. options:
  //   words            the page's words (i18n.py)
  //   shown()          the position on the page now: {key, ply, over}; key tells positions apart
  //   request(ply, s)  a promise of the server's analysis of position `ply`, searching s seconds
  //   draw(found, key) put the board with the best move marked (found.svg) on the page
  //   showMessage(t)   show the server's refusal (null: clear it)
  function panel(options) {
    const words = options.words;
    const colourName = window.OgamesPage.colourName;
    const button = document.getElementById("analyse");
    const box = document.getElementById("analysis");
    const seconds = document.getElementById("seconds");
    const overNote = document.getElementById("analysis-over");
    let analysing = false;
    if (!button || !box) return null;

    // A new position: the answer shown (of another position) goes. While an analysis runs its
    // "analysing" line stays; its answer is dropped when it comes if the position has changed.
    function clear() {
      if (!analysing) { box.hidden = true; box.replaceChildren(); }
      update();
    }

    // The button is offered only where there is a move to find (not at a finished position).
    function update() {
      const at = options.shown();
      const over = !at || at.over;
      button.disabled = analysing || over;
      if (overNote) overNote.hidden = !over || analysing;
    }

    function line(label, value) {
      const p = document.createElement("p");
      const strong = document.createElement("strong");
      strong.textContent = label + ": ";
      p.append(strong, document.createTextNode(value));
      return p;
    }

    function show(found) {
      box.replaceChildren();
      box.hidden = false;
      const best = line(words.best_move, found.move_text || found.move);
      best.className = "best-move";
      best.dataset.move = found.move;
      box.append(best);
      const chanceLabel = fill(words.win_chance, { colour: colourName(found.to_move) });
      if (found.proven) {
        box.append(line(chanceLabel, found.proven === "win" ? words.proven_win : words.proven_loss));
      } else if (found.value !== null && found.value !== undefined) {
        const percent = Math.round(found.value * 100);
        const chance = line(chanceLabel, percent + "%");
        chance.className = "chance";
        chance.dataset.percent = String(percent);
        const bar = document.createElement("span");
        bar.className = "bar";
        bar.setAttribute("aria-hidden", "true");
        const filled = document.createElement("span");
        filled.style.width = percent + "%";
        bar.append(filled);
        chance.append(bar);
        box.append(chance);
        if (!found.reliable) {
          const rough = document.createElement("p");
          rough.className = "small";
          rough.textContent = words.rough;
          box.append(rough);
        }
      }
      if (found.pv && found.pv.length) {
        const expected = line(words.line, (found.pv_text || found.pv).join(" → "));
        expected.className = "pv";
        box.append(expected);
      }
      const figures = document.createElement("p");
      figures.className = "small figures";
      figures.textContent = window.OgamesWords.plural(words, "searched", found.iterations, { s: found.seconds.toFixed(1) });
      box.append(figures);
    }

    async function analyse() {
      const at = options.shown();
      if (analysing || !at || at.over) return;
      analysing = true;
      update();
      box.hidden = false;
      box.replaceChildren();
      const wait = document.createElement("p");
      wait.className = "thinking";
      wait.textContent = words.analysing;
      box.append(wait);
      let found = null;
      let problem = null;
      try {
        found = await options.request(at.ply, Number(seconds ? seconds.value : 1));
      } catch (error) {
        problem = error.message;
      }
      analysing = false;
      const now = options.shown();
      if (!now || now.key !== at.key) { clear(); return; }  // an answer for a position no longer shown
      if (found) {
        options.draw(found, at.key);
        show(found);
        options.showMessage(null);
      } else {
        clear();
        options.showMessage(problem);
      }
      update();
    }

    button.addEventListener("click", analyse);
    update();
    return { clear: clear, update: update, busy: function () { return analysing; } };
  }

  return { post: post, panel: panel, fill: fill };
})();
