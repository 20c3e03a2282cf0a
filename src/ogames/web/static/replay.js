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
  const gameId = root.dataset.gameId || null;
  const plies = Number(root.dataset.plies);
  const slider = document.getElementById("slider");
  const board = document.getElementById("board");
  const cache = new Map();
  let ply = Number(slider.value);
  let asked = 0; // the latest position asked for: older answers are dropped
  let analysing = false;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, key) { return key in values ? values[key] : all; });
  }
  function colourName(colour) { return words["c_" + colour] || colour; }

  function showMessage(text) {
    const box = document.getElementById("message");
    box.hidden = !text;
    box.textContent = text || "";
  }

  async function post(url, body) {
    let response;
    // The server limits requests per client (429 "rate-limited"): someone holding an arrow key
    // steps faster than that, so wait a moment and ask again rather than fail.
    for (let attempt = 0; ; attempt++) {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (response.status !== 429 || attempt >= 20) break;
      await new Promise(function (resolve) { setTimeout(resolve, 250); });
    }
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = { error: response.statusText }; }
    if (!response.ok) throw new Error(answer.error || response.statusText);
    return answer;
  }

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
      : fill(words.after_move, { move: position.move, colour: colourName(position.by) });
    where.append(document.createTextNode(text));
    if (position.to_move) {
      const swatch = document.createElement("span");
      swatch.className = "swatch swatch-" + position.to_move;
      swatch.setAttribute("aria-hidden", "true");
      where.append(document.createTextNode(" · "), swatch,
        document.createTextNode(" " + fill(words.to_move, { colour: colourName(position.to_move) })));
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

  // ----- analysis --------------------------------------------------------------------------------
  const analyseButton = document.getElementById("analyse");
  const panel = document.getElementById("analysis");

  function clearAnalysis() {
    if (panel && !analysing) { panel.hidden = true; panel.replaceChildren(); }
  }

  function line(label, value) {
    const p = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = label + ": ";
    p.append(strong, document.createTextNode(value));
    return p;
  }

  function showAnalysis(found) {
    panel.replaceChildren();
    panel.hidden = false;
    const best = line(words.best_move, found.move);
    best.className = "best-move";
    best.dataset.move = found.move;
    panel.append(best);
    if (found.proven) {
      panel.append(line(fill(words.win_chance, { colour: colourName(found.to_move) }),
        found.proven === "win" ? words.proven_win : words.proven_loss));
    } else if (found.value !== null && found.value !== undefined) {
      const percent = Math.round(found.value * 100);
      const chance = line(fill(words.win_chance, { colour: colourName(found.to_move) }), percent + "%");
      chance.className = "chance";
      const bar = document.createElement("span");
      bar.className = "bar";
      const filled = document.createElement("span");
      filled.style.width = percent + "%";
      bar.append(filled);
      chance.append(bar);
      panel.append(chance);
      if (!found.reliable) {
        const rough = document.createElement("p");
        rough.className = "small";
        rough.textContent = words.rough;
        panel.append(rough);
      }
    }
    if (found.pv && found.pv.length) panel.append(line(words.line, found.pv.join(" → ")));
    const figures = document.createElement("p");
    figures.className = "small";
    figures.textContent = fill(words.searched, { n: found.iterations, s: found.seconds.toFixed(1) });
    panel.append(figures);
  }

  async function analyse() {
    if (analysing) return;
    const at = ply;
    const seconds = Number(document.getElementById("seconds").value);
    analysing = true;
    analyseButton.disabled = true;
    panel.hidden = false;
    panel.replaceChildren();
    const wait = document.createElement("p");
    wait.className = "thinking";
    wait.textContent = words.analysing;
    panel.append(wait);
    try {
      const found = gameId
        ? await post("/api/games/" + encodeURIComponent(gameId) + "/analysis", { ply: at, seconds: seconds })
        : await post("/api/analysis", { record: record, ply: at, seconds: seconds });
      analysing = false;
      if (at !== ply) { clearAnalysis(); return; }
      board.innerHTML = found.svg; // the position with the best move marked
      showAnalysis(found);
      showMessage(null);
    } catch (error) {
      analysing = false;
      clearAnalysis();
      showMessage(error.message);
    } finally {
      analysing = false;
      analyseButton.disabled = false;
    }
  }

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
  if (analyseButton) analyseButton.addEventListener("click", analyse);
  mark(ply);
})();
