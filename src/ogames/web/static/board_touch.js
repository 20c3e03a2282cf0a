// The board under a finger: every cell large enough to tap, and an optional move confirmation.
//
// Size: a finger needs about 32 CSS pixels. The page measures the smallest cell of the drawing
// (the narrower side of each cell's box, in the drawing's units) and, on a touch screen or a narrow
// window, draws the board large enough for that cell to be TAP pixels wide, inside a frame that
// scrolls both ways (a finger drags it; nothing is hidden). The buttons zoom in and out, and "whole
// board" shows it all at once. On a wide screen with a mouse the whole board is shown first.
//
// Confirmation (a setting kept in this browser; on by default on touch screens): the first tap on a
// legal cell selects it and shows the stone there, a second tap on it (or "Play") sends the move,
// a tap on another legal cell selects that one instead. It sits before sending: game.js asks
// `ready(cell)` before it plays a clicked cell, and "Play" clicks the selected cell again.
"use strict";
window.OgamesTouch = (function () {
  const root = document.querySelector(".game");
  const box = document.getElementById("board");
  if (!root || !box) return null;
  const words = JSON.parse(document.getElementById("words").textContent);
  const setup = JSON.parse(document.getElementById("board-setup").textContent);
  const TAP = 34;  // CSS pixels for the smallest cell (32 is the least a finger needs; a margin for rounding)
  const STEP = 1.5;  // one press of + or −
  const CONFIRM_KEY = "ogames:confirm";
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  let smallest = null;  // the smallest cell's narrower side, in the drawing's units
  let zoom = 1;         // the drawing's width over the frame's
  let chosen = false;   // whether the person zoomed (then a resize keeps their zoom)
  let selected = null;  // the label of the cell selected for confirmation
  let version = null;   // the view's version when it was selected
  let mine = false;     // whether this page holds the seat to move

  function fill(template, values) { return window.OgamesWords ? window.OgamesWords.fill(template, values) : template; }
  function svg() { return box.querySelector("svg"); }

  // ----- zoom and pan ------------------------------------------------------------------------------
  // The smallest cell's size in the drawing's units: the narrower side of a cell's box, or the
  // distance from its centre (where its stone goes) to the nearest other cell's, if less.
  function measure() {
    const drawing = svg();
    if (!drawing) return null;
    let least = Infinity;
    drawing.querySelectorAll("g.cell[data-cell]").forEach(function (cell) {
      const found = cell.getBBox();
      const side = Math.min(found.width, found.height);
      if (side > 0 && side < least) least = side;
    });
    least = Math.min(least, nearest(Object.values(setup.places), least));
    return least === Infinity ? null : least;
  }

  // The least distance between two of the points [x, y, ...] closer than `within` (Infinity if
  // none): each point against those in its own and the neighbouring squares of a grid.
  function nearest(points, within) {
    if (!isFinite(within) || points.length < 2) return Infinity;
    const grid = new Map();
    const key = function (x, y) { return Math.floor(x / within) + "," + Math.floor(y / within); };
    points.forEach(function (p) {
      const k = key(p[0], p[1]);
      if (!grid.has(k)) grid.set(k, []);
      grid.get(k).push(p);
    });
    let least = Infinity;
    points.forEach(function (p) {
      const gx = Math.floor(p[0] / within), gy = Math.floor(p[1] / within);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          (grid.get((gx + dx) + "," + (gy + dy)) || []).forEach(function (q) {
            if (q !== p) least = Math.min(least, Math.hypot(p[0] - q[0], p[1] - q[1]));
          });
        }
      }
    });
    return least;
  }

  function frameWidth() {
    const style = getComputedStyle(box);
    return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  }

  // The zoom at which the smallest cell is TAP pixels wide (1: the whole board is large enough).
  function tapZoom() {
    const drawing = svg();
    if (!drawing || !smallest || !drawing.viewBox || !drawing.viewBox.baseVal) return 1;
    const units = drawing.viewBox.baseVal.width;
    const width = frameWidth();
    if (!units || width <= 0) return 1;
    return Math.max(1, TAP / (smallest * width / units));
  }

  function fingers() { return coarse || window.innerWidth <= 760; }

  function setZoom(value, keepCentre) {
    const before = { x: box.scrollLeft + box.clientWidth / 2, y: box.scrollTop + box.clientHeight / 2,
      w: box.scrollWidth, h: box.scrollHeight };
    zoom = Math.max(1, value);
    box.style.setProperty("--board-zoom", String(zoom));
    box.classList.toggle("zoomed", zoom > 1.001);
    if (keepCentre && before.w > 0) {  // the point in the middle of the frame stays there
      box.scrollLeft = before.x * box.scrollWidth / before.w - box.clientWidth / 2;
      box.scrollTop = before.y * box.scrollHeight / before.h - box.clientHeight / 2;
    } else {
      box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
      box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
    }
    showZoomButtons();
  }

  function showZoomButtons() {
    const tools = document.getElementById("zoom-tools");
    if (!tools) return;
    const need = tapZoom();
    tools.hidden = need <= 1.001 && zoom <= 1.001;
    document.getElementById("zoom-out").disabled = zoom <= 1.001;
    document.getElementById("zoom-fit").disabled = zoom <= 1.001;
    document.getElementById("zoom-in").disabled = zoom >= Math.max(need, 1) * STEP * STEP;
  }

  function fit() {
    if (smallest === null) smallest = measure();
    if (!chosen) setZoom(fingers() ? tapZoom() : 1, false);
    else showZoomButtons();
  }

  [["zoom-in", function () { return zoom * STEP; }], ["zoom-out", function () { return zoom / STEP; }],
    ["zoom-fit", function () { return 1; }]].forEach(function (pair) {
    const button = document.getElementById(pair[0]);
    if (button) button.addEventListener("click", function () { chosen = true; setZoom(pair[1](), true); });
  });
  let resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(fit, 150);
  });

  // ----- move confirmation ----------------------------------------------------------------------------
  const toggle = document.getElementById("confirm-toggle");
  function confirming() {
    let kept = null;
    try { kept = localStorage.getItem(CONFIRM_KEY); } catch (e) { kept = null; }
    return kept === null ? coarse : kept === "on";
  }
  if (toggle) {
    toggle.checked = confirming();
    toggle.addEventListener("change", function () {
      try { localStorage.setItem(CONFIRM_KEY, toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (!toggle.checked) unselect();
    });
  }

  function cellOf(label) {
    return label === null ? null : box.querySelector('g.cell[data-cell="' + (window.CSS ? CSS.escape(label) : label) + '"]');
  }

  function unselect() {
    box.querySelectorAll("g.cell.selected").forEach(function (cell) { cell.classList.remove("selected"); });
    box.querySelectorAll(".selection-ghost").forEach(function (ghost) { ghost.remove(); });
    selected = null;
    const bar = document.getElementById("confirm-bar");
    if (bar) bar.hidden = true;
  }

  // The selected cell: outlined, the stone of the colour to move drawn on it, and the bar to play it.
  function select(cell, colour) {
    unselect();
    selected = cell.dataset.cell;
    cell.classList.add("selected");
    const place = setup.places[selected];
    const shape = setup.ghosts[colour];
    const drawing = svg();
    if (place && shape && drawing) {
      const ghost = document.createElementNS("http://www.w3.org/2000/svg", "g");
      ghost.setAttribute("class", "selection-ghost");
      ghost.setAttribute("data-mark", selected);
      ghost.setAttribute("transform", "translate(" + place[0] + " " + place[1] + ") scale(" + place[2] + ")");
      ghost.setAttribute("pointer-events", "none");
      ghost.innerHTML = shape;
      drawing.append(ghost);
    }
    const bar = document.getElementById("confirm-bar");
    if (bar) {
      document.getElementById("confirm-text").textContent = fill(words.confirm_hint, { cell: selected });
      document.getElementById("confirm-play").textContent = fill(words.confirm_play, { cell: selected });
      bar.hidden = false;
    }
  }

  let lastView = null;
  // Whether a click on a cell should be sent now (game.js asks before it plays): yes without
  // confirmation, when this page is not to move (game.js says why not), for a cell that is not
  // legal (the server says why) and for the selected cell; otherwise the cell is selected.
  function ready(cell) {
    if (!toggle || !toggle.checked || !mine || !lastView) return true;
    if (cell.dataset.legal !== "true") { unselect(); return true; }
    if (selected === cell.dataset.cell && version === lastView.version) { unselect(); return true; }
    version = lastView.version;
    select(cell, lastView.to_move);
    return false;
  }

  const play = document.getElementById("confirm-play");
  if (play) play.addEventListener("click", function () {
    const cell = cellOf(selected);
    if (cell) cell.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  });
  const cancel = document.getElementById("confirm-cancel");
  if (cancel) cancel.addEventListener("click", unselect);

  // Every view: a selection made at another version (a move was made, taken back) is dropped; a
  // new drawing of the same position gets the selection drawn again.
  function show(view, page) {
    lastView = view;
    mine = !view.over && page.tokenFor(view.mover) !== null;
    if (selected !== null && (view.version !== version || !mine)) unselect();
    else if (selected !== null && !box.querySelector(".selection-ghost")) {
      const cell = cellOf(selected);
      if (cell) select(cell, view.to_move); else unselect();
    }
    if (smallest === null) fit();
  }
  (window.ogamesHooks = window.ogamesHooks || []).push(show);

  return { ready: ready, zoom: function () { return zoom; }, tapZoom: tapZoom, smallest: function () { return smallest; } };
})();
