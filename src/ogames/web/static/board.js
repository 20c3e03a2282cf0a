// The board on the game page: the board drawn once by the server with no stones (the page's
// #board, the same for a whole game), on which it puts the live position of each view — stones,
// the last move's dots, Onyx's captures and open midpoints, the winning outline, with the shapes
// and places the server drew for it (#board-setup: marks, places, titles) —; an earlier position
// and the analysis come as the server's whole drawing (board.svg) instead. It marks the cells the page may click, previews a legal move with a ghost stone, keeps the coordinates
// toggle, shows the facts beside the board (Omega's groups and scores, Omny's largest region,
// Onyx's captures), and lists the moves; a move in the list (or the arrow keys) shows that earlier
// position, read-only, from GET /api/games/ID/position/K. The computer's analysis (game.js) may
// replace the drawing of the position shown by one with its best move marked, until that position
// is no longer the one shown.
// The server decides every rule: the page previews only the moves the view lists as legal.
"use strict";
window.OgamesBoard = (function () {
  const root = document.querySelector(".game");
  const box = document.getElementById("board");
  if (!root || !box) return null;
  const setup = JSON.parse(document.getElementById("board-setup").textContent);
  const words = JSON.parse(document.getElementById("words").textContent);
  const colourName = window.OgamesPage.colourName;
  const fill = window.OgamesWords.fill;
  const gameId = root.dataset.gameId;
  const COORDS_KEY = "ogames:coords";
  let view = null;       // the latest live view
  let mine = false;      // whether this browser holds the seat to move
  const frame = box.innerHTML;  // the board with no stones, as the page came
  let shownSvg = null;   // the whole drawing on the page now (an earlier position's, the analysis's), or null: the frame
  let reviewing = null;  // the earlier position shown ({k, ...}), or null for the live game
  let asked = 0;         // the latest position request (older answers are dropped)
  let target = null;     // the position asked for last (the arrow keys step from it, not from the one shown)
  let marked = null;     // {key, svg}: the analysis's drawing of the position with that key
  let shownKey = null;   // the key of the position shown (see shown())
  const changed = [];    // called when another position is shown
  let hovered = null;    // the label of the cell under the pointer (its ghost is shown again after a redraw)

  function plural(key, n, values) { return window.OgamesWords.plural(words, key, n, values); }

  // A colour's stone picture (its shape and colour, drawn by the server) inside an element.
  function picture(element, colour) {
    if (setup.stones[colour]) {
      element.innerHTML = setup.stones[colour];
      element.classList.add("stone-picture");
    }
    return element;
  }
  function stoneSpan(colour) {
    const span = document.createElement("span");
    span.className = "swatch swatch-" + colour;
    span.setAttribute("aria-hidden", "true");
    return picture(span, colour);
  }

  // ----- the drawing ---------------------------------------------------------------------------
  // On the page only a cell says data-cell (one element per label); the drawing's marks on a
  // cell (last move, capture, winning ring) say which cell they mark in data-mark instead.
  function markMarks(within) {
    within.querySelectorAll("[data-cell]:not(g.cell)").forEach(function (mark) {
      mark.dataset.mark = mark.dataset.cell;
      delete mark.dataset.cell;
    });
  }

  function draw(part, legal) {
    const svg = marked && marked.key === keyOfShown() ? marked.svg : part.svg;
    let last;
    if (svg) {
      if (svg !== shownSvg) {
        box.innerHTML = svg;
        shownSvg = svg;
        markMarks(box);
      }
      last = new Set();
      box.querySelectorAll(".last-move[data-mark]").forEach(function (mark) { last.add(mark.dataset.mark); });
    } else {
      if (shownSvg !== null) {
        box.innerHTML = frame;
        shownSvg = null;
      }
      paint(part, view ? view.stones : {});
      last = new Set(part.marked || []);
    }
    const open = new Set(legal);
    const winning = new Set(part.winning || []);
    box.querySelectorAll("g.cell[data-cell]").forEach(function (cell) {
      const label = cell.dataset.cell;
      if (open.has(label)) cell.dataset.legal = "true"; else delete cell.dataset.legal;
      if (winning.has(label)) cell.dataset.winning = "true"; else delete cell.dataset.winning;
      if (last.has(label)) cell.dataset.last = "true"; else delete cell.dataset.last;
    });
    // The pointer resting on a cell sees the preview follow the game: a move made meanwhile may
    // have opened or closed the cell, or changed the colour to move (no mouseover comes then).
    showGhost(hovered === null ? null : box.querySelector('g.cell[data-cell="' + CSS.escape(hovered) + '"]'));
  }

  // Put a position on the board drawn once: each cell whose content changed gets its stone (with
  // the last move's dot) or an Onyx capture's cross, as the server drew them, moved and scaled to
  // the cell's stone place, and its title; Onyx's midpoints show open or closed; the winning
  // group's outline goes over the cells.
  function paint(part, stones) {
    const marks = setup.marks || {};
    const lastCells = new Set(part.marked || []);
    const captured = new Set(part.captures || []);
    const open = part.open ? new Set(part.open) : null;
    box.querySelectorAll("g.cell[data-cell]").forEach(function (cell) {
      const label = cell.dataset.cell;
      const colour = stones[label] || "";
      const cross = !colour && captured.has(label) && marks.cross;
      const content = colour + "|" + (colour && lastCells.has(label) ? "last" : "") + "|" + (cross ? "cross" : "");
      if (cell.dataset.painted !== content) {
        cell.querySelectorAll(":scope > .painted").forEach(function (old) { old.remove(); });
        const place = setup.places[label];
        const look = marks[colour];
        if (place && (look || cross)) {
          const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
          g.setAttribute("class", "painted");
          g.setAttribute("transform", "translate(" + place[0] + " " + place[1] + ") scale(" + place[2] + ")");
          g.innerHTML = look ? look.stone + (lastCells.has(label) ? look.last : "") : cross;
          g.querySelectorAll(".last-move, .captured").forEach(function (mark) { mark.dataset.mark = label; });
          cell.append(g);
        }
        if (colour) cell.dataset.stone = colour; else delete cell.dataset.stone;
        const title = cell.querySelector(":scope > title");
        const title_text = (setup.titles || {})[colour + (cell.dataset.star ? "*" : "")];
        if (title && title_text) title.textContent = title_text.replace("{label}", label);
        cell.dataset.painted = content;
      }
      if (cell.classList.contains("midpoint")) {
        const isOpen = !colour && open !== null && open.has(label);
        cell.classList.toggle("open", isOpen);
        cell.classList.toggle("closed", !colour && !isOpen);
      }
    });
    const svg = box.querySelector("svg");
    let outline = svg ? svg.querySelector(":scope > g.painted-outline") : null;
    if (svg && (outline ? outline.dataset.drawn : "") !== (part.outline || "")) {
      if (outline) outline.remove();
      if (part.outline) {
        outline = document.createElementNS("http://www.w3.org/2000/svg", "g");
        outline.setAttribute("class", "painted-outline");
        outline.setAttribute("pointer-events", "none");
        outline.innerHTML = part.outline;
        outline.dataset.drawn = part.outline;
        markMarks(outline);
        svg.append(outline);
      }
    }
  }

  function liveLegal() { return mine && view && !view.over ? view.legal : []; }

  // ----- the hover preview: a ghost stone of the colour to move on a legal cell ------------------
  function clearGhost() { box.querySelectorAll(".ghost-preview").forEach(function (g) { g.remove(); }); }

  function showGhost(cell) {
    clearGhost();
    if (reviewing || !cell || cell.dataset.legal !== "true" || !view || !view.to_move) return;
    const place = setup.places[cell.dataset.cell];
    const shape = setup.ghosts[view.to_move];
    const svg = box.querySelector("svg");
    if (!place || !shape || !svg) return;
    const ghost = document.createElementNS("http://www.w3.org/2000/svg", "g");
    ghost.setAttribute("class", "ghost-preview");
    ghost.setAttribute("data-mark", cell.dataset.cell);
    ghost.setAttribute("data-colour", view.to_move);
    ghost.setAttribute("transform", "translate(" + place[0] + " " + place[1] + ") scale(" + place[2] + ")");
    ghost.setAttribute("pointer-events", "none");
    ghost.innerHTML = shape;
    svg.append(ghost);
  }

  box.addEventListener("mouseover", function (event) {
    const cell = event.target.closest("g.cell[data-cell]");
    hovered = cell ? cell.dataset.cell : null;
    showGhost(cell);
  });
  box.addEventListener("mouseleave", function () { hovered = null; clearGhost(); });
  box.addEventListener("click", function (event) {
    if (!reviewing) return;
    event.stopPropagation();  // an earlier position is read-only: no move is sent from it
    note(words.reviewing);
  }, true);

  // ----- coordinates toggle (kept in this browser) ------------------------------------------------
  const toggle = document.getElementById("coords-toggle");
  function coordinatesOn() {
    try { return localStorage.getItem(COORDS_KEY) !== "off"; } catch (e) { return true; }
  }
  function applyCoordinates(on) {
    box.classList.toggle("no-coords", !on);
    if (toggle) toggle.checked = on;
  }
  if (toggle) {
    toggle.addEventListener("change", function () {
      try { localStorage.setItem(COORDS_KEY, toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      applyCoordinates(toggle.checked);
    });
  }
  applyCoordinates(coordinatesOn());

  // ----- beside the board -------------------------------------------------------------------------
  function line(parent, colour, text, className) {
    const li = document.createElement("li");
    if (className) li.className = className;
    if (colour) li.append(stoneSpan(colour));
    li.append(document.createTextNode(text));
    parent.append(li);
    return li;
  }

  function showFacts(part, scores, state) {
    const facts = document.getElementById("board-facts");
    if (!facts) return;
    facts.replaceChildren();
    const list = document.createElement("ul");
    list.className = "facts";
    if (part.groups) {
      Object.keys(part.groups).forEach(function (colour) {
        const sizes = part.groups[colour];
        const score = scores && scores[colour] !== undefined ? scores[colour] : "";
        const text = fill(sizes.length ? words.groups_line : words.groups_none, {
          colour: colourName(colour), groups: sizes.join(" × "), score: String(score),
        });
        line(list, colour, text, "groups").dataset.colour = colour;
      });
      if (part.placing && state.seat) {
        line(list, null, fill(words.placing, {
          player: state.seat.name, colour: colourName(state.to_move), i: part.placing.index, n: part.placing.of,
        }), "placing");
      }
    }
    if (part.regions) {
      part.regions.forEach(function (item, index) {
        if (index === 0) line(list, null, plural("star_cells", item.stars), "stars");
        const template = item.best === null ? words.region_none : words.region_line;
        const li = line(list, item.colour, fill(template, {
          colour: colourName(item.colour), best: item.best, limit: item.limit, stars: item.stars,
        }), "region");
        li.dataset.colour = item.colour;
        if (item.best !== null && item.best <= item.limit) li.classList.add("met");
      });
    }
    if (part.captured) {
      const taken = Object.keys(part.captured).map(function (c) { return colourName(c) + " " + part.captured[c]; });
      line(list, null, fill(words.captured_total, { list: taken.join(", ") }), "captured-total");
    }
    if (part.captures && part.captures.length) {
      line(list, null, fill(words.captured_now, { cells: part.captures.join(" ") }), "captured-now");
    }
    if (part.winning && part.winning.length) {
      line(list, null, part.groups ? words.winner_outlined : words.winning_outlined, "winning-note");
    }
    facts.append(list);
    facts.hidden = list.children.length === 0;
  }

  // ----- the move list and looking back ------------------------------------------------------------
  function showMoves() {
    const moves = document.getElementById("moves");
    if (!moves) return;
    moves.replaceChildren();
    moves.classList.toggle("one-column", view.colours.length > 2);  // Omega's turns place several stones
    const current = reviewing ? reviewing.k : null;
    view.moves.forEach(function (move) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "move";
      button.dataset.k = String(move.n);
      const number = document.createElement("span");
      number.className = "n";
      number.textContent = move.n + ".";
      button.append(number, stoneSpan(move.by), document.createTextNode(move.text || move.move));
      if (move.captures && move.captures.length) {
        const note = document.createElement("span");
        note.className = "capture-note";
        note.textContent = " " + fill(words.captured_short, { cells: move.captures.join(" ") });
        button.append(note);
      }
      if (current === move.n) { li.className = "current"; button.setAttribute("aria-current", "step"); }
      button.addEventListener("click", function () { lookAt(move.n); });
      li.append(button);
      moves.append(li);
    });
    const empty = document.getElementById("no-moves");
    if (empty) empty.hidden = view.moves.length > 0;
    const marked = moves.querySelector("li.current");
    if (marked) marked.scrollIntoView({ block: "nearest" });
    else if (current === null) moves.scrollTop = moves.scrollHeight;
  }

  function showReviewBar() {
    const bar = document.getElementById("review");
    if (!bar) return;
    bar.hidden = !reviewing;
    root.classList.toggle("reviewing", !!reviewing);
    if (!reviewing) return;
    const n = view.moves.length;
    document.getElementById("review-text").textContent = reviewing.k === 0
      ? plural("start_position", n)
      : fill(words.position_of, { k: reviewing.k, n: n });
    document.getElementById("review-back").disabled = reviewing.k === 0;
  }

  function note(text) {
    const span = document.getElementById("review-note");
    if (span) span.textContent = text || "";
  }

  // Show the position after k moves (k = the number of moves: back to the live game).
  function lookAt(k) {
    const n = view.moves.length;
    if (k >= n) { backToLive(); return; }
    k = Math.max(0, k);
    target = k;
    const ticket = ++asked;
    fetch("/api/games/" + encodeURIComponent(gameId) + "/position/" + k + "?lang=" + encodeURIComponent(document.documentElement.lang || "en"))
      .then(function (response) { return response.json(); })
      .then(function (position) {
        if (ticket !== asked) return;
        if (position.code === "rate-limited") {  // stepping faster than the server allows: ask again
          setTimeout(function () { if (ticket === asked) lookAt(k); }, 250);
          return;
        }
        if (!position.board) { note(position.error || ""); return; }
        reviewing = position;
        clearGhost();
        note("");
        draw(position.board, []);
        noteShown();
        showFacts(position.board, position.scores, { seat: null, to_move: position.to_move });
        showMoves();
        showReviewBar();
      })
      .catch(function () { if (ticket === asked) note(words.disconnected); });
  }

  function backToLive() {
    asked++;
    target = null;
    reviewing = null;
    note("");
    render(view, mine);
  }

  // ----- which position is shown (for the analysis) -------------------------------------------------
  // An earlier position is the same while it is shown; the live one is another after every action
  // the game accepts (a move, an undo, a resignation: each raises the view's version).
  function keyOfShown() {
    if (reviewing) return "k" + reviewing.k;
    return view ? "live" + view.version : null;
  }

  function shown() {
    if (!view) return null;
    if (reviewing) return { key: keyOfShown(), ply: reviewing.k, over: !!reviewing.result };
    return { key: keyOfShown(), ply: view.moves.length, over: !!view.over };
  }

  function noteShown() {
    const key = keyOfShown();
    if (key === shownKey) return;
    shownKey = key;
    if (marked && marked.key !== key) marked = null;
    changed.forEach(function (listener) { listener(); });
  }

  // Show the analysis's drawing (the best move marked) while the position `key` is shown.
  function mark(key, svg) {
    if (key !== keyOfShown()) return;
    marked = { key: key, svg: svg };
    if (reviewing) draw(reviewing.board, []);
    else draw(view.board || {}, liveLegal());
  }

  document.addEventListener("keydown", function (event) {
    const tag = (event.target && event.target.tagName) || "";
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag) || event.altKey || event.ctrlKey || event.metaKey || !view) return;
    const n = view.moves.length;
    const at = target !== null ? target : n;
    if (event.key === "ArrowLeft" && at > 0) { lookAt(at - 1); event.preventDefault(); }
    else if (event.key === "ArrowRight" && target !== null) { lookAt(at + 1); event.preventDefault(); }
    else if ((event.key === "Escape" || event.key === "End") && target !== null) { backToLive(); event.preventDefault(); }
  });
  [["review-back", -1], ["review-forward", 1]].forEach(function (pair) {
    const button = document.getElementById(pair[0]);
    if (button) button.addEventListener("click", function () { if (target !== null) lookAt(target + pair[1]); });
  });
  const live = document.getElementById("review-live");
  if (live) live.addEventListener("click", backToLive);

  // ----- a new live view -----------------------------------------------------------------------------
  function render(latest, holdsMover) {
    view = latest;
    mine = holdsMover;
    if (!reviewing) {
      draw(view.board || {}, liveLegal());
      showFacts(view.board || {}, view.scores, { seat: view.seats[view.mover], to_move: view.to_move });
    }
    showMoves();
    showReviewBar();
    noteShown();
  }

  return {
    render: render,
    picture: picture,
    reviewing: function () { return reviewing !== null; },
    shown: shown,
    mark: mark,
    onChange: function (listener) { changed.push(listener); },
  };
})();
