// An Omiga table: shows the server's view (table, hands, counts, scores, the clock) and sends what
// the seats this browser holds do. The server is the referee: a card is shown flying to its cell at
// once, and flies back to the hand with the server's reason when the server refuses it (the cell
// was taken first, the card no longer fits, the game is over...).
//
// Under a finger (static/board_touch.js's kit, as on the board games' page): the table is drawn
// large enough for every cell to be tapped, in a frame that scrolls both ways, and with move
// confirmation on, a first tap on a cell where the chosen card fits shows the card there and a
// second tap (or "Lay on …") lays it. Confirmation is off by default on the real-time tables, where
// a second tap costs time in the race, and on by default on touch screens for the turn-based ones
// (toddler, kids in turns, zen), as for the board games, whose setting those tables share.
"use strict";
(function () {
  const root = document.querySelector(".omiga");
  if (!root) return;
  const tableId = root.dataset.tableId;
  const words = JSON.parse(document.getElementById("words").textContent);
  const colourName = window.OgamesPage.colourName;
  const fill = window.OgamesWords.fill;
  let sentView = JSON.parse(document.getElementById("view").textContent);  // the view as the server sent it (deltas apply to it)
  let view = shown(sentView);  // ... with its cards' drawings in place: what the page shows
  let receivedAt = performance.now();
  const held = loadTokens();
  let live = null;  // the table's socket (page.js's liveSocket), opened once the table is drawn
  let lastSeq = 0;
  let selected = null; // {seat, design, index, turned}
  const pending = {}; // seq → the flying card
  let hintShown = -1; // the view version whose hint was asked for (a hint is for one position)
  let pick = null; // {cell, seat, design, owner}: the cell chosen for the chosen card, awaiting a second tap
  const SVG = "http://www.w3.org/2000/svg";
  const tableBox = document.getElementById("table");
  const kit = window.OgamesTouchKit;
  // Zoomed, the frame shows first the cells where this page's cards fit (toddler's homes lie along
  // an edge), else the middle of the table.
  const frame = kit ? kit.zoomFrame(tableBox, function (drawing) { return kit.smallestCell(drawing.querySelectorAll("g.cell[data-cell]")); },
    function () { return Object.keys(spotsOfMyHands()).map(cellOf).filter(Boolean); }) : null;
  // Real-time tables keep their own choice (off until chosen); turn-based ones share the board games'.
  const confirming = kit ? kit.confirmSetting(document.getElementById("confirm-toggle"),
    view.realtime ? "ogames:confirm-realtime" : "ogames:confirm", !view.realtime && kit.coarse, unpick) : function () { return false; };
  const bar = kit ? kit.confirmBar(function () { const cell = cellOf(pick && pick.cell); if (cell) lay(cell); }, unpick) : null;

  // ----- tokens: given once in the link's fragment, kept in this browser ----------------------
  function loadTokens() {
    const key = "ogames:omiga:" + tableId;
    let kept = { seats: {}, invites: {} };
    try { kept = Object.assign(kept, JSON.parse(localStorage.getItem(key) || "{}") || {}); } catch (e) { /* none */ }
    const hash = location.hash.replace(/^#/, "");
    if (hash) {
      hash.split("&").forEach(function (part) {
        const eq = part.indexOf("=");
        const name = part.slice(0, eq);
        if (name !== "seats" && name !== "invite") return;
        const into = name === "seats" ? kept.seats : kept.invites;
        part.slice(eq + 1).split(",").forEach(function (pair) {
          const dot = pair.indexOf(".");
          if (dot > 0 && /^[A-Za-z0-9_-]+$/.test(pair.slice(dot + 1))) into[pair.slice(0, dot)] = pair.slice(dot + 1);
        });
      });
      try { localStorage.setItem(key, JSON.stringify(kept)); } catch (e) { /* private mode */ }
      history.replaceState(null, "", location.pathname + location.search);
    }
    return kept;
  }
  function tokenFor(seat) { return held.seats[String(seat)] || null; }
  function mySeats() { return Object.keys(held.seats).map(Number).filter(function (s) { return s < view.seats.length; }); }
  function nextSeq() { lastSeq = Math.max(lastSeq + 1, Date.now() * 1000); return lastSeq; }

  // ----- talking to the server ---------------------------------------------------------------
  // The first view comes in parts (the table's drawing), deltas then say only what changed (the cells among them).
  function connect() {
    live = window.OgamesPage.liveSocket("/ws/o/" + encodeURIComponent(tableId), {
      base: function () { return sentView.seq; },
      opened: function () { live.sendIfOpen({ type: "ready", tokens: mySeats().map(tokenFor) }); },
      view: function (message) {
        sentView = message.type === "state" ? message : window.OgamesPage.applyDelta(sentView, message);
        view = shown(sentView);
        receivedAt = performance.now();
        render();
      },
      other: function (message) {
        if (message.type === "verdict") verdict(message);
        else if (message.type === "error") showMessage(message.message);
      },
      closed: function () {
        Object.keys(pending).forEach(function (seq) { flyBack(seq, words.disconnected); });
      },
    });
  }
  // A view with its cards' drawings in the hands and the moves: a view in parts names each by its
  // key in `pictures` (sent once however many cards show it); a whole view has them in place.
  function shown(sent) {
    const pictures = sent.pictures;
    if (!pictures) return sent;
    const out = Object.assign({}, sent);
    out.seats = sent.seats.map(function (seat) {
      return Object.assign({}, seat, { hand: seat.hand.map(function (card) { return Object.assign({}, card, { svg: pictures[card.picture] || "" }); }) });
    });
    out.moves = sent.moves.map(function (move) { return Object.assign({}, move, { card: move.picture ? pictures[move.picture] || null : null }); });
    return out;
  }
  function send(message) {
    if (live) return live.send(message);
    showMessage(words.disconnected);
    return false;
  }
  function act(seat, action, fly) {
    const token = tokenFor(seat);
    if (!token) { showMessage(words.watching); return; }
    const seq = nextSeq();
    if (send({ type: "act", action: action, token: token, seq: seq }) && fly) pending[seq] = fly;
    else if (fly) fly.remove();
  }
  function verdict(message) {
    if (message.accepted) {
      showMessage(null);
      const fly = pending[message.seq];
      delete pending[message.seq];
      if (fly) fly.remove();
    } else {
      flyBack(message.seq, message.reason);
    }
  }

  // ----- the flying card ------------------------------------------------------------------------
  function flyTo(cardEl, cellEl) {
    const from = cardEl.getBoundingClientRect();
    const to = cellEl.getBoundingClientRect();
    const fly = document.createElement("div");
    fly.className = "flying";
    fly.innerHTML = cardEl.innerHTML;
    fly.style.left = from.left + "px";
    fly.style.top = from.top + "px";
    fly.style.width = from.width + "px";
    fly.style.height = from.height + "px";
    if (cardEl.classList.contains("turned")) fly.classList.add("turned");
    document.body.append(fly);
    fly.dataset.fromX = from.left; fly.dataset.fromY = from.top;
    requestAnimationFrame(function () {
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      const scale = Math.max(0.3, to.width / Math.max(1, from.width));
      fly.style.transform = "translate(" + dx + "px," + dy + "px) scale(" + scale + ")" + (fly.classList.contains("turned") ? " rotate(180deg)" : "");
    });
    return fly;
  }
  function flyBack(seq, reason) {
    const fly = pending[seq];
    delete pending[seq];
    showMessage(reason);
    if (!fly) return;
    fly.classList.add("refused");
    fly.style.transform = fly.classList.contains("turned") ? "rotate(180deg)" : "none";
    setTimeout(function () { fly.remove(); }, 450);
  }

  // ----- choosing and laying cards ---------------------------------------------------------------
  function selectCard(seat, index) {
    const card = view.seats[seat].hand[index];
    if (!card) return;
    if (selected && selected.seat === seat && selected.design === card.design && selected.owner === card.owner) {
      selected.turned = !selected.turned && view.options.turning !== false;
    } else {
      selected = { seat: seat, design: card.design, owner: card.owner, index: index, turned: false };
    }
    renderHands();
    markFits();
  }
  function currentCard() {
    if (!selected) return null;
    const seat = view.seats[selected.seat];
    if (!seat) return null;
    const index = seat.hand.findIndex(function (c) { return c.design === selected.design && c.owner === selected.owner; });
    if (index < 0) return null;
    selected.index = index;
    return seat.hand[index];
  }
  // The cells where a card of this page's hands fits now (a set of labels).
  function spotsOfMyHands() {
    const cells = {};
    mySeats().forEach(function (seat) {
      view.seats[seat].hand.forEach(function (card) { card.spots.forEach(function (spot) { cells[spot[0]] = true; }); });
    });
    return cells;
  }
  function fitsAt(card, label, turned) {
    return card.spots.some(function (spot) { return spot[0] === label && spot[1] === turned; });
  }
  // A tap on a cell lays the chosen card there; with confirmation on, a first tap on a cell where it
  // fits chooses that cell (a tap where it does not fit goes to the server, which says why).
  function cellClicked(cellEl) {
    if (view.over) { showMessage(words.game_over); return; }
    const card = currentCard();
    if (!card) { showMessage(mySeats().length ? words.choose_card : words.watching); return; }
    const label = cellEl.dataset.cell;
    if (confirming() && fitsAt(card, label, selected.turned) && !(pick && pick.cell === label)) {
      pick = { cell: label, seat: selected.seat, design: card.design, owner: card.owner };
      showPick();
      return;
    }
    lay(cellEl);
  }
  function lay(cellEl) {
    const card = currentCard();
    if (!card) return;
    const label = cellEl.dataset.cell;
    const action = card.act + " " + label + (selected.turned ? " turned" : "");
    const handEl = document.querySelector('.hand-card[data-seat="' + selected.seat + '"][data-index="' + selected.index + '"]');
    const fly = handEl ? flyTo(handEl, cellEl) : null;
    act(selected.seat, action, fly);
    selected = null;
    ghost.hidden = true;
    renderHands();
    markFits();
  }

  // ----- move confirmation: the chosen cell -------------------------------------------------------
  function cellOf(label) {
    return label ? tableBox.querySelector('g.cell[data-cell="' + (window.CSS ? CSS.escape(label) : label) + '"]') : null;
  }
  function unpick() {
    pick = null;
    showPick();
  }
  // The chosen cell outlined with the card on it as it would lie, and the bar to lay it; the choice
  // lapses when the card is no longer chosen, or no longer fits there (the table moved on, it was
  // turned the other way).
  function showPick() {
    tableBox.querySelectorAll("g.cell.picked").forEach(function (cell) { cell.classList.remove("picked"); });
    tableBox.querySelectorAll(".pick-ghost").forEach(function (node) { node.remove(); });
    const card = currentCard();
    const cell = pick && cellOf(pick.cell);
    if (pick && (!card || !cell || pick.seat !== selected.seat || pick.design !== card.design || pick.owner !== card.owner
        || !fitsAt(card, pick.cell, selected.turned))) pick = null;
    if (!pick) { if (bar) bar.hide(); return; }
    cell.classList.add("picked");
    cardOnCell(cell, card.svg, selected.turned, "pick-ghost");
    bar.show(fill(words.confirm_lay_hint, { cell: pick.cell }), fill(words.confirm_lay, { cell: pick.cell }));
  }

  // A card's drawing laid faint on a cell of the table's drawing as it would lie (turned by 180° if
  // `turned`): inside the drawing, so it zooms and scrolls with the table. The card's own drawing
  // (draw/cards.py, card_svg) is a card of side C centred in a box of C + m by C + 2m.
  function cardOnCell(cellEl, picture, turned, className) {
    const slot = cellEl.querySelector(".slot");
    const drawing = cellEl.ownerSVGElement;
    if (!slot || !drawing) return null;
    const box = slot.getBBox();  // the slot is 0.9 of the cell, in its middle
    const side = box.width / 0.9;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const holder = document.createElementNS(SVG, "g");
    holder.setAttribute("class", className);
    holder.setAttribute("data-cell-mark", cellEl.dataset.cell);
    holder.setAttribute("pointer-events", "none");
    if (turned) holder.setAttribute("transform", "rotate(180 " + cx + " " + cy + ")");
    holder.innerHTML = picture;
    const card = holder.querySelector("svg");
    const shape = card && card.viewBox && card.viewBox.baseVal;
    if (!shape || !shape.width) return null;
    const scale = side / (2 * shape.width - shape.height);  // the drawing's C → the cell's side
    card.setAttribute("x", String(cx - shape.width * scale / 2));
    card.setAttribute("y", String(cy - shape.height * scale / 2));
    card.setAttribute("width", String(shape.width * scale));
    card.setAttribute("height", String(shape.height * scale));
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
    card.querySelectorAll("title").forEach(function (node) { node.remove(); });
    drawing.append(holder);
    return holder;
  }
  function markFits() {
    const card = currentCard();
    const on = document.getElementById("hints").checked;
    const fits = {};
    if (card && on) card.spots.forEach(function (spot) { if (spot[1] === selected.turned) fits[spot[0]] = true; });
    document.querySelectorAll("#table [data-cell]").forEach(function (cell) {
      if (fits[cell.dataset.cell]) cell.dataset.fits = "true"; else delete cell.dataset.fits;
    });
    const turn = document.getElementById("turn");
    turn.hidden = !card || view.options.turning === false;
    showPick();
  }

  // ----- drawing the view ------------------------------------------------------------------------
  function swatch(colour) {
    const span = document.createElement("span");
    span.className = "swatch swatch-" + (colour || "none").replace(/[0-9]$/, "");
    span.setAttribute("aria-hidden", "true");
    return span;
  }
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The table's drawing: whole (the view the page was made with), or in its parts — the frame
  // drawn once, then only the cells whose drawing changed put in place of theirs.
  let drawn = { frame: null, cells: {}, marks: null };
  function renderTable() {
    if (view.table !== undefined) {
      tableBox.innerHTML = view.table;
      drawn = { frame: null, cells: {}, marks: null };
      return;
    }
    const svg = tableBox.querySelector("svg");
    if (drawn.frame !== view.table_frame || !svg) {
      tableBox.innerHTML = view.table_frame;
      drawn = { frame: view.table_frame, cells: {}, marks: null };
      tableBox.querySelector("g.cells").innerHTML = Object.values(view.cells).join("");
    } else {
      Object.keys(view.cells).forEach(function (label) {
        if (drawn.cells[label] === view.cells[label]) return;
        const old = cellOf(label);
        const holder = document.createElementNS(SVG, "g");
        holder.innerHTML = view.cells[label];
        if (old && holder.firstElementChild) old.replaceWith(holder.firstElementChild);
      });
    }
    drawn.cells = view.cells;
    if (drawn.marks !== view.table_marks) tableBox.querySelector("g.marks").innerHTML = view.table_marks;
    drawn.marks = view.table_marks;
    const drawing = tableBox.querySelector("svg");
    drawing.setAttribute("aria-label", view.table_name);
    const name = drawing.querySelector(":scope > title");
    if (name) name.textContent = view.table_name;
  }

  function render() {
    ghost.hidden = true;
    renderTable();
    const last = view.last;
    document.querySelectorAll("#table [data-last]").forEach(function (cell) { delete cell.dataset.last; });
    document.querySelectorAll("#table [data-cell]").forEach(function (cell) {
      if (cell.dataset.cell === last) cell.dataset.last = "true";
    });
    root.classList.toggle("over", view.over);
    if (view.over) showMessage(null);
    renderStatus();
    renderHands();
    markFits();
    renderSeats();
    renderScores();
    renderMoves();
    renderZen();
    renderInvites();
    renderRatings();
    if (view.problem) showMessage(view.problem);
  }

  // A rated table once rated: the rating changes (static/page.js), by colour without an account.
  function renderRatings() {
    window.OgamesPage.showRatingChanges(view.ratings || [], function (seat) {
      return view.seats[seat] ? colourName(view.seats[seat].actor) : "";
    });
  }

  function clockNow() {
    if (!view.realtime || !view.started || view.over) return view.clock;
    return view.clock + (performance.now() - receivedAt) / 1000;
  }

  function renderStatus() {
    const status = document.getElementById("status");
    status.replaceChildren();
    if (view.over && view.result) {
      status.className = "status result";
      const winner = view.result.winner;
      let text;
      if (view.zen) text = view.zen.completed ? words.zen_done : words.zen_lost;
      else if (winner === "draw") text = words.draw;
      else text = words.won.replace("{colour}", winner.split("+").map(colourName).join(" + "));
      if (winner !== "draw" && !view.zen) status.append(swatch(winner.split("+")[0]));
      status.append(el("strong", "", text), el("span", "reason", view.result.reason));
      return;
    }
    status.className = "status";
    if (view.realtime) {
      const left = countdownLeft();
      if (left !== null) {
        status.append(el("strong", "countdown", words.signal_in.replace("{n}", Math.ceil(left))));
      } else if (!view.started) {
        status.append(el("strong", "", words.waiting_players));
      } else {
        status.append(el("strong", "", words.play_now));
      }
      status.append(el("span", "clock", words.clock_t.replace("{s}", clockNow().toFixed(1))));
    } else if (view.zen) {
      status.append(el("strong", "", words.zen_build));
    } else {
      status.append(swatch(view.to_move));
      status.append(el("strong", "", words.to_move.replace("{colour}", colourName(view.to_move))));
      if (tokenFor(view.mover)) status.append(el("span", "yours", "· " + words.your_turn));
    }
  }
  function countdownLeft() {
    if (view.signal_in === null || view.signal_in === undefined) return null;
    const left = view.signal_in - (performance.now() - receivedAt) / 1000;
    return left > 0 ? left : null;
  }

  function renderHands() {
    const area = document.getElementById("my-hands");
    area.replaceChildren();
    const seats = mySeats();
    const actions = document.getElementById("actions");
    actions.replaceChildren();
    seats.forEach(function (seat) {
      const info = view.seats[seat];
      const box = el("div", "hand");
      const title = el("h2", "hand-title");
      if (info.colour) title.append(swatch(info.colour));
      title.append(document.createTextNode(words.your_hand + (seats.length > 1 ? " · " + colourName(info.actor) : "")));
      box.append(title);
      const row = el("div", "hand-row");
      info.hand.forEach(function (card, index) {
        const button = el("button", "hand-card");
        button.type = "button";
        button.dataset.seat = seat;
        button.dataset.index = index;
        button.dataset.code = card.code;
        button.setAttribute("aria-label", card.title || card.owner + " " + card.code);
        button.innerHTML = card.svg;
        const chosen = selected && selected.seat === seat && selected.owner === card.owner && selected.design === card.design;
        if (chosen) { button.classList.add("selected"); if (selected.turned) button.classList.add("turned"); }
        if (!card.spots.length) button.classList.add("no-spot");
        button.addEventListener("click", function () { selectCard(seat, index); });
        row.append(button);
      });
      if (!info.hand.length) row.append(el("p", "small", words.empty_hand));
      box.append(row);
      area.append(box);
      info.actions.forEach(function (action) {
        const button = el("button", "button", actionName(action));
        button.type = "button";
        button.dataset.action = action;
        button.addEventListener("click", function () { act(seat, action, null); });
        actions.append(button);
      });
    });
    const resign = document.getElementById("resign");
    resign.hidden = view.over || !seats.length;
    if (view.zen) renderHint();
  }
  function actionName(action) {
    const parts = action.split(" ");
    const whole = words["act_" + parts.join("_")];  // zen's "start white", "draw black"
    if (whole) return whole;
    const named = words["act_" + parts.slice(0, 2).join("_")];  // zen's "start white turned"
    if (named && parts[2]) return named + " (" + words.turned + ")";
    const key = "act_" + parts[0];
    const what = words[key] || parts[0];
    return parts.length > 1 ? what + " " + colourName(parts[1]) + (parts[2] ? " (" + words.turned + ")" : "") : what;
  }

  function renderSeats() {
    const list = document.getElementById("seats");
    list.replaceChildren();
    const mine = mySeats();
    view.seats.forEach(function (seat) {
      const li = el("li");
      if (seat.colour) li.append(swatch(seat.colour));
      const who = seat.computer ? botName(seat) : (mine.indexOf(seat.seat) >= 0 ? words.you : words.person);
      li.append(el("strong", "", view.zen ? words.zen_player : colourName(seat.actor)), document.createTextNode(" · " + who));
      if (!seat.computer && !seat.ready && !view.over && mine.indexOf(seat.seat) < 0) {
        li.append(el("span", "away", " · " + (view.started ? words.away : words.not_here)));  // no page open on any server
      }
      const counts = el("div", "counts small");
      const parts = [words.in_hand.replace("{n}", seat.hand.length)];
      Object.keys(seat.supplies).forEach(function (colour) {
        const s = seat.supplies[colour];
        // Zen draws from both decks: each is named by its colour ("white deck 32").
        const deck = Object.keys(seat.supplies).length > 1 ? words["deck_" + colour + "_n"] || colourName(colour) + " " + words.deck_n : words.deck_n;
        parts.push(deck.replace("{n}", s.deck) + ", " + words.discards_n.replace("{n}", s.discards));
      });
      counts.textContent = parts.join(" · ");
      li.append(counts);
      if (mine.indexOf(seat.seat) < 0 && seat.hand.length && !view.zen) {
        const shown = el("div", "their-hand");
        seat.hand.forEach(function (card) { const c = el("span", "mini-card"); c.innerHTML = card.svg; shown.append(c); });
        li.append(shown);
      }
      if (!view.over && view.mover === seat.seat) li.className = "to-move";
      list.append(li);
    });
  }

  // A bot chosen by level is named by it; one chosen by strategy and speed (or the turn-based
  // climber) by those.
  function botName(seat) {
    if (seat.level) return words.computer_level.replace("{n}", seat.level);
    const parts = seat.kind.split(":");
    const strategy = words["bot_" + parts[0]] || parts[0];
    const reaction = (parts[1] || "").replace("reaction=", "");
    const speed = !reaction ? "" : isNaN(Number(reaction)) ? words["speed_" + reaction] || reaction : words.seconds_short.replace("{s}", reaction);
    return words.computer + " · " + strategy + (speed ? ", " + speed : "");
  }

  function renderScores() {
    const box = document.getElementById("scores");
    if (!view.scores) { box.hidden = true; return; }
    box.hidden = false;
    box.replaceChildren();
    const line = el("p", "score-line");
    Object.keys(view.scores).forEach(function (colour, i) {
      if (i) line.append(document.createTextNode(" : "));
      line.append(swatch(colour), el("strong", "", colourName(colour) + " " + view.scores[colour]));
    });
    box.append(el("h2", "", words.score_title), line);
    if (view.round) box.append(el("p", "small", words.round_n.replace("{n}", view.round) + (view.target ? " · " + window.OgamesWords.plural(words, "target_n", view.target) : "")));
  }

  // A move as people say it: who, what, the card as it lies (its drawing, never its number), the
  // cell and whether it was turned. The number is a span of its own, wide enough for 999.
  function renderMoves() {
    const moves = document.getElementById("moves");
    moves.replaceChildren();
    view.moves.forEach(function (move) {
      const li = el("li", "move");
      li.dataset.n = move.n;
      li.append(el("span", "n", String(move.n)));
      const said = el("span", "said");
      if (move.by && !view.zen) said.append(el("strong", "who", colourName(move.by)), document.createTextNode(" "));
      said.append.apply(said, moveWords(move));
      li.append(said);
      if (move.t !== null && move.t !== undefined) li.append(el("span", "t", words.seconds_short.replace("{s}", Number(move.t).toFixed(1))));
      moves.append(li);
    });
    document.getElementById("no-moves").hidden = view.count > 0;
  }
  // words.mv_* with {card}, {cell} and {colour} filled in: the card as a small drawing.
  function moveWords(move) {
    const key = "mv_" + move.kind + (move.kind === "discard" && move.card ? "_card" : "");
    const template = words[key] || move.kind;
    const parts = [];
    template.split(/(\{card\}|\{cell\}|\{colour\})/).forEach(function (piece) {
      if (piece === "{card}") {
        const card = el("span", "mini-card move-card");
        card.innerHTML = move.card || "";
        parts.push(card);
      } else if (piece === "{cell}") {
        parts.push(el("span", "cell-name", move.cell || ""));
      } else if (piece === "{colour}") {
        parts.push(document.createTextNode(colourName(move.colour)));
      } else if (piece) {
        parts.push(document.createTextNode(piece));
      }
    });
    if (move.turned) parts.push(document.createTextNode(", " + words.turned));
    return parts;
  }

  function renderZen() {
    const box = document.getElementById("zen");
    if (!view.zen) { box.hidden = true; return; }
    const zen = view.zen;
    box.hidden = false;
    root.classList.add("zen-mode");
    document.getElementById("zen-name").textContent = (zen.name || zen.english + " · " + zen.russian) + " (" + (words["level_" + zen.level] || zen.level) + ")";
    document.getElementById("zen-form").innerHTML = zen.form_svg;
    document.getElementById("zen-progress").textContent = window.OgamesWords.plural(words, "zen_progress", zen.cells, { n: zen.placed, m: zen.cells });
    const verdictEl = document.getElementById("zen-verdict");
    verdictEl.replaceChildren();
    if (zen.verdict) {
      const ok = zen.verdict.status === "possible";
      verdictEl.className = "zen-verdict " + (ok ? "possible" : "impossible");
      verdictEl.append(el("strong", "", ok ? words.zen_possible : zen.verdict.status === "impossible" ? words.zen_impossible : words.zen_unknown));
      if (!ok) verdictEl.append(el("span", "small", " " + zen.verdict.reason));
    }
    renderHint();
    document.getElementById("zen-hint-button").hidden = view.over;
    if (zen.completed) root.classList.add("zen-done");
  }
  // The hint is shown on the table: the card lit in the hand (turned if it is to be laid turned)
  // and its cell lit, or the button to press lit; a sentence beside the hint button says the same.
  function renderHint() {
    const text = document.getElementById("zen-hint");
    document.querySelectorAll(".hinted").forEach(function (node) { node.classList.remove("hinted", "hint-turned"); });
    document.querySelectorAll("#table [data-hint]").forEach(function (node) { delete node.dataset.hint; });
    document.querySelectorAll(".hint-ghost").forEach(function (node) { node.remove(); });
    const hint = view.zen && hintShown === view.version ? view.zen.hint : null;
    text.textContent = "";
    if (!hint) return;
    if (hint.kind === "place") {
      const card = document.querySelector('#my-hands .hand-card[data-index="' + hint.card + '"]');
      const cell = document.querySelector('#table [data-cell="' + hint.cell + '"]');
      if (card) { card.classList.add("hinted"); if (hint.turned) card.classList.add("hint-turned"); }
      if (cell) cell.dataset.hint = hint.turned ? "turned" : "as-is";
      if (card && cell) cardOnCell(cell, card.innerHTML, hint.turned, "hint-ghost");  // faint, on its cell as it is to lie
      text.textContent = (hint.turned ? words.hint_place_turned : words.hint_place).replace("{cell}", hint.cell);
    } else {
      const button = document.querySelector('#actions [data-action="' + hint.action + '"]');
      if (button) button.classList.add("hinted");
      text.textContent = words.hint_press.replace("{action}", button ? button.textContent : hint.action);
    }
  }

  function renderInvites() {
    const box = document.getElementById("invites");
    const seats = Object.keys(held.invites);
    if (!seats.length || view.over) { box.hidden = true; return; }
    box.hidden = false;
    const list = document.getElementById("invite-list");
    list.replaceChildren();
    seats.forEach(function (seat) {
      const info = view.seats[Number(seat)];
      const url = location.origin + "/o/" + tableId + "#seats=" + seat + "." + held.invites[seat];
      const li = el("li");
      li.append(el("strong", "", (info ? colourName(info.actor) : seat) + ": "));
      const input = el("input", "invite-link");
      input.readOnly = true;
      input.value = url;
      input.addEventListener("focus", function () { input.select(); });
      const copy = el("button", "button", words.copy);
      copy.type = "button";
      copy.addEventListener("click", function () {
        input.select();
        if (navigator.clipboard) navigator.clipboard.writeText(url).catch(function () { /* selected for copying by hand */ });
      });
      li.append(input, copy);
      list.append(li);
    });
  }

  let messageTimer = null;
  function showMessage(text) {
    // In real time the table moves on at once: a reason is shown for a few seconds, then goes.
    const box = window.OgamesPage.showMessage(text);
    clearTimeout(messageTimer);
    if (text && view.realtime) messageTimer = setTimeout(function () { box.hidden = true; }, 6000);
  }

  // ----- wiring ------------------------------------------------------------------------------------
  document.getElementById("table").addEventListener("click", function (event) {
    const cell = event.target.closest("[data-cell]");
    if (cell) cellClicked(cell);
  });
  // A ghost of the chosen card under the pointer, on the cells where it fits.
  const ghost = el("div", "ghost-card");
  ghost.hidden = true;
  document.body.append(ghost);
  function showGhost(cellEl) {
    const card = currentCard();
    if (!card || !cellEl || !cellEl.dataset.fits) { ghost.hidden = true; return; }
    const box = cellEl.getBoundingClientRect();
    ghost.innerHTML = card.svg;
    ghost.classList.toggle("turned", !!selected.turned);
    ghost.style.left = box.left + "px";
    ghost.style.top = box.top - box.height * 0.1 + "px";
    ghost.style.width = box.width + "px";
    ghost.style.height = box.height * 1.2 + "px";
    ghost.hidden = false;
  }
  // (A mouse's only: under a finger the tap is the choice, and a confirmed one shows the card on its cell.)
  tableBox.addEventListener("pointerover", function (event) {
    if (event.pointerType === "mouse" || event.pointerType === "pen") showGhost(event.target.closest("[data-cell]"));
  });
  tableBox.addEventListener("mouseleave", function () { ghost.hidden = true; });
  window.addEventListener("scroll", function () { ghost.hidden = true; }, { passive: true });
  tableBox.addEventListener("scroll", function () { ghost.hidden = true; }, { passive: true });
  document.getElementById("turn").addEventListener("click", function () {
    if (selected) { selected.turned = !selected.turned; renderHands(); markFits(); }
  });
  document.getElementById("hints").addEventListener("change", markFits);
  document.getElementById("zen-hint-button").addEventListener("click", function () { hintShown = view.version; renderHint(); });
  document.getElementById("resign").addEventListener("click", function () {
    const seat = mySeats()[0];
    if (seat === undefined || view.over || !window.confirm(words.confirm_resign)) return;
    send({ type: "resign", token: tokenFor(seat), seq: nextSeq() });
  });
  document.addEventListener("keydown", function (event) {
    if (event.target.tagName === "INPUT") return;
    if ((event.key === "r" || event.key === "R" || event.key === " ") && selected) {
      event.preventDefault();
      selected.turned = !selected.turned;
      renderHands();
      markFits();
    }
  });
  setInterval(function () { if (!view.over && view.realtime) renderStatus(); }, 100);
  render();
  if (frame) frame.fit();
  connect();
})();
