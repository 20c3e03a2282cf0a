// A board or a card table under a finger: every cell large enough to tap, and an optional move
// confirmation. The shared pieces (OgamesTouchKit) serve the board games' page (below, OgamesTouch),
// a puzzle's page (static/puzzle.js) and Omiga's table (static/omiga.js).
//
// Size: a finger needs about 32 CSS pixels. The page measures the smallest cell of the drawing
// (the narrower side of each cell's box, in the drawing's units, or the distance between two cells'
// centres if less) and, on a touch screen or a narrow window, draws it large enough for that cell to
// be TAP pixels wide, inside a frame that scrolls both ways (a finger drags it; nothing is hidden).
// The buttons zoom in and out, and "whole board" shows it all at once. On a wide screen with a mouse
// the whole drawing is shown first.
//
// Confirmation (a setting kept in this browser): the first tap on a cell where a move can go selects
// it and shows what would go there, a second tap on it (or the bar's button) plays, a tap on another
// such cell selects that one instead. On the board games' page (on by default on touch screens) it
// sits before sending: game.js asks `ready(cell)` before it plays a clicked cell, and "Play" clicks
// the selected cell again.
"use strict";
window.OgamesTouchKit = (function () {
  const TAP = 34;  // CSS pixels for the smallest cell (32 is the least a finger needs; a margin for rounding)
  const STEP = 1.5;  // one press of + or −
  const coarse = !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);

  // Whether the page is used with fingers: a touch screen, or a window as narrow as a phone's.
  function fingers() { return coarse || window.innerWidth <= 760; }

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

  // The smallest cell's size in the drawing's units (null without cells): the narrower side of a
  // cell's box, or the distance from its centre to the nearest other cell's, if less. `places` are
  // the centres [x, y] where pieces go; without them, the centres of the cells' boxes.
  function smallestCell(cells, places) {
    let least = Infinity;
    const centres = [];
    cells.forEach(function (cell) {
      const found = cell.getBBox();
      const side = Math.min(found.width, found.height);
      if (side > 0 && side < least) least = side;
      centres.push([found.x + found.width / 2, found.y + found.height / 2]);
    });
    least = Math.min(least, nearest(places || centres, least));
    return least === Infinity ? null : least;
  }

  // A frame (`box`) holding an <svg> that it can draw larger than itself and scroll both ways; the
  // CSS (touch.css) draws the drawing `--board-zoom` times the frame's width while it is `.zoomed`.
  // `measure(drawing)` gives the smallest cell in the drawing's units; `focus()`, if given, the
  // elements to show first (else the middle is). The buttons #zoom-in, #zoom-out and #zoom-fit (in
  // #zoom-tools) zoom it; the page calls `fit()` once it is drawn.
  function zoomFrame(box, measure, focus) {
    let smallest = null;  // the smallest cell's size, in the drawing's units
    let zoom = 1;         // the drawing's width over the frame's
    let chosen = false;   // whether the person zoomed (then a resize keeps their zoom)

    function svg() { return box.querySelector("svg"); }
    function units() {
      const drawing = svg();
      return drawing && drawing.viewBox && drawing.viewBox.baseVal ? drawing.viewBox.baseVal.width : 0;
    }
    function frameWidth() {
      const style = getComputedStyle(box);
      return box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    }

    // The zoom at which the smallest cell is TAP pixels wide (1: the whole drawing is large enough).
    function tapZoom() {
      const width = frameWidth();
      if (!smallest || !units() || width <= 0) return 1;
      return Math.max(1, TAP / (smallest * width / units()));
    }

    // The smallest cell as drawn now, in CSS pixels (a drawing held lower than its frame is narrower).
    function drawnCell() {
      const drawing = svg();
      if (!drawing || !smallest || !units()) return Infinity;
      return smallest * drawing.getBoundingClientRect().width / units();
    }

    function setZoom(value, keepCentre) {
      const before = { x: box.scrollLeft + box.clientWidth / 2, y: box.scrollTop + box.clientHeight / 2,
        w: box.scrollWidth, h: box.scrollHeight };
      zoom = Math.max(1, value);
      box.style.setProperty("--board-zoom", String(zoom));
      box.classList.toggle("zoomed", zoom > 1.001);
      // a zoomed frame scrolls: focusable, so that a keyboard scrolls it too
      if (zoom > 1.001) box.setAttribute("tabindex", "0"); else box.removeAttribute("tabindex");
      if (keepCentre && before.w > 0) {  // the point in the middle of the frame stays there
        box.scrollLeft = before.x * box.scrollWidth / before.w - box.clientWidth / 2;
        box.scrollTop = before.y * box.scrollHeight / before.h - box.clientHeight / 2;
      } else {
        box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
        box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
        centreOn(focus ? focus() : []);
      }
      showZoomButtons();
    }

    // Scroll the frame so that the middle of these elements' boxes is in its middle.
    function centreOn(elements) {
      let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
      Array.prototype.forEach.call(elements, function (element) {
        const found = element.getBoundingClientRect();
        left = Math.min(left, found.left); top = Math.min(top, found.top);
        right = Math.max(right, found.right); bottom = Math.max(bottom, found.bottom);
      });
      if (left === Infinity) return;
      const frame = box.getBoundingClientRect();
      box.scrollLeft += (left + right) / 2 - (frame.left + frame.right) / 2;
      box.scrollTop += (top + bottom) / 2 - (frame.top + frame.bottom) / 2;
    }

    function showZoomButtons() {
      const tools = document.getElementById("zoom-tools");
      if (!tools) return;
      const need = tapZoom();
      tools.hidden = zoom <= 1.001 && drawnCell() >= TAP - 0.5;
      document.getElementById("zoom-out").disabled = zoom <= 1.001;
      document.getElementById("zoom-fit").disabled = zoom <= 1.001;
      document.getElementById("zoom-in").disabled = zoom >= Math.max(need, 1) * STEP * STEP;
    }

    function fit() {
      if (smallest === null && svg()) smallest = measure(svg());
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

    // Scroll the frame to these elements if any of them is out of its sight (a hint lit off-screen).
    function reveal(elements) {
      const frame = box.getBoundingClientRect();
      const hidden = Array.prototype.some.call(elements, function (element) {
        const found = element.getBoundingClientRect();
        return found.left < frame.left || found.right > frame.right || found.top < frame.top || found.bottom > frame.bottom;
      });
      if (hidden) centreOn(elements);
    }

    return { fit: fit, measured: function () { return smallest !== null; }, zoom: function () { return zoom; },
      tapZoom: tapZoom, smallest: function () { return smallest; }, reveal: reveal };
  }

  // The "confirm moves" checkbox, its choice kept in this browser under `key` (`byDefault` until the
  // person chooses); `dropped()` is called when it is switched off. Returns whether it is on.
  function confirmSetting(toggle, key, byDefault, dropped) {
    function kept() {
      let value = null;
      try { value = localStorage.getItem(key); } catch (e) { value = null; }
      return value === null ? byDefault : value === "on";
    }
    if (toggle) {
      toggle.checked = kept();
      toggle.addEventListener("change", function () {
        try { localStorage.setItem(key, toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
        if (!toggle.checked) dropped();
      });
    }
    return function () { return !!toggle && toggle.checked; };
  }

  // The bar under the drawing saying what is selected (#confirm-text), with a button to play it
  // (#confirm-play) and one to cancel (#confirm-cancel).
  function confirmBar(play, cancel) {
    const bar = document.getElementById("confirm-bar");
    const playButton = document.getElementById("confirm-play");
    const cancelButton = document.getElementById("confirm-cancel");
    if (playButton) playButton.addEventListener("click", play);
    if (cancelButton) cancelButton.addEventListener("click", cancel);
    return {
      show: function (text, button) {
        if (!bar) return;
        document.getElementById("confirm-text").textContent = text;
        playButton.textContent = button;
        bar.hidden = false;
      },
      hide: function () { if (bar) bar.hidden = true; },
    };
  }

  // The drawing's cell of a label in `box` (null for none).
  function cellIn(box, label) {
    return label === null ? null : box.querySelector('g.cell[data-cell="' + (window.CSS ? CSS.escape(label) : label) + '"]');
  }

  return { TAP: TAP, coarse: coarse, fingers: fingers, nearest: nearest, smallestCell: smallestCell, zoomFrame: zoomFrame,
    confirmSetting: confirmSetting, confirmBar: confirmBar, cellIn: cellIn };
})();

// ----- the board games' page ---------------------------------------------------------------------
window.OgamesTouch = (function () {
  const kit = window.OgamesTouchKit;
  const root = document.querySelector(".game");
  const box = document.getElementById("board");
  if (!root || !box || !document.getElementById("board-setup")) return null;  // (a puzzle's page: puzzle.js)
  const words = JSON.parse(document.getElementById("words").textContent);
  const fill = window.OgamesWords.fill;
  const setup = JSON.parse(document.getElementById("board-setup").textContent);
  let selected = null;  // the label of the cell selected for confirmation
  let version = null;   // the view's version when it was selected
  let mine = false;     // whether this page holds the seat to move

  function svg() { return box.querySelector("svg"); }

  const frame = kit.zoomFrame(box, function (drawing) {
    return kit.smallestCell(drawing.querySelectorAll("g.cell[data-cell]"), Object.values(setup.places));
  });

  // ----- move confirmation ----------------------------------------------------------------------------
  const toggle = document.getElementById("confirm-toggle");
  const confirming = kit.confirmSetting(toggle, "ogames:confirm", kit.coarse, unselect);
  const bar = kit.confirmBar(function () {
    const cell = cellOf(selected);
    if (cell) cell.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }, unselect);

  function cellOf(label) { return kit.cellIn(box, label); }

  function unselect() {
    box.querySelectorAll("g.cell.selected").forEach(function (cell) { cell.classList.remove("selected"); });
    box.querySelectorAll(".selection-ghost").forEach(function (ghost) { ghost.remove(); });
    selected = null;
    bar.hide();
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
    bar.show(fill(words.confirm_hint, { cell: selected }), fill(words.confirm_play, { cell: selected }));
  }

  let lastView = null;
  // Whether a click on a cell should be sent now (game.js asks before it plays): yes without
  // confirmation, when this page is not to move (game.js says why not), for a cell that is not
  // legal (the server says why) and for the selected cell; otherwise the cell is selected.
  function ready(cell) {
    if (!confirming() || !mine || !lastView) return true;
    if (cell.dataset.legal !== "true") { unselect(); return true; }
    if (selected === cell.dataset.cell && version === lastView.version) { unselect(); return true; }
    version = lastView.version;
    select(cell, lastView.to_move);
    return false;
  }

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
    if (!frame.measured()) frame.fit();
  }
  (window.ogamesHooks = window.ogamesHooks || []).push(show);

  return {
    ready: ready, zoom: frame.zoom, tapZoom: frame.tapZoom, smallest: frame.smallest,
    reveal: function (label) { const cell = cellOf(label); if (cell) frame.reveal([cell]); },  // (hint.js)
    confirming: confirming,  // whether a move is confirmed by a second tap (game.js: a double click's second click)
  };
})();
