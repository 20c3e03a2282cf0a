// The game page: shows the server's view of the game and sends the clicks of the seats this
// browser holds. The server decides everything; a refused move shows the server's reason.
// Where the server allows it (a finished game, a game on one screen) the computer's analysis of
// the position shown sits beside the board (static/analysis.js).
"use strict";
(function () {
  const root = document.querySelector(".game");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const words = JSON.parse(document.getElementById("words").textContent);
  const showMessage = window.OgamesPage.showMessage;
  const colourName = window.OgamesPage.colourName;
  let view = JSON.parse(document.getElementById("view").textContent);
  const storageKey = "ogames:seats:" + gameId;
  const tokens = loadTokens();
  let live = null;  // the view's socket (page.js's liveSocket), opened once the page is drawn

  // ----- the seats' tokens: given once in the link's fragment, kept in this browser -----------
  function loadTokens() {
    const held = window.OgamesPage.keptTokens(storageKey, "seats");
    if (/seats=[A-Za-z0-9_.,-]/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
    return held;
  }

  function keepTokens() {
    try { localStorage.setItem(storageKey, JSON.stringify(tokens)); } catch (e) { /* private mode */ }
  }

  function tokenFor(seat) { return seat === null || seat === undefined ? null : tokens[String(seat)] || null; }
  function heldSeats() { return Object.keys(tokens).map(Number); }

  // ----- talking to the server ---------------------------------------------------------------
  function connect() {
    live = window.OgamesPage.liveSocket("/ws/g/" + encodeURIComponent(gameId), {
      base: function () { return view.seq; },
      opened: sayHere,
      view: function (message) {
        view = message.type === "state" ? message : applyDelta(view, message);
        shownAt = performance.now();  // when the view's countdowns (claims) were counted from
        showMessage(null); renderSoon(); answered(false); askNamesOfNewcomers();
      },
      other: function (message) {
        if (message.type === "error") { showMessage(message.message); answered(true); }
      },
      closed: function () {
        sent = null;  // its answer is lost with the socket: the next view (after reconnecting) is the truth
        waiting = null;
      },
    });
  }

  const applyDelta = window.OgamesPage.applyDelta;  // web/core/delta.py's apply_delta, in page.js

  // Say which seats this page holds: the others' pages show them as here while it is open.
  function sayHere() {
    if (live) live.sendIfOpen({ type: "here", tokens: heldSeats().map(tokenFor).filter(Boolean) });
  }

  function send(message) {
    if (live) return live.send(message);
    showMessage(words.disconnected);
    return false;
  }

  // ----- one action at a time -----------------------------------------------------------------
  // A move carries the version of the game the page saw, and the server refuses one made for a
  // version it has left behind. So while a move is on its way, the next click waits for the
  // server's answer and is then made on the new position with the new version (one click waits: a
  // later one takes its place, as a premove would); the same move clicked again meanwhile (a double
  // click, an impatient second click) is played once. A refusal drops the waiting click, which was
  // made on the position the refused move would have made. Undo and resign wait the same way.
  const ANSWER_WAIT = 15000;  // ms: an answer this late was lost (the socket knows no other way): stop waiting
  let sent = null;     // the move on its way: { move, version, at }
  let waiting = null;  // what was clicked while it was on its way (a function that does it)

  function whenAnswered(action) {
    if (sent && performance.now() - sent.at > ANSWER_WAIT) sent = null;
    if (sent) waiting = action;
    else action();
  }

  function play(move) {
    if (sent && move === sent.move) return;
    whenAnswered(function () { playNow(move); });
  }

  function playNow(move) {
    if (view.over) { showMessage(words.game_over); return; }
    const token = tokenFor(view.mover);
    if (!token) {
      const computer = view.seats[view.mover] && view.seats[view.mover].computer;
      showMessage(computer ? words.wait_computer : heldSeats().length ? words.not_yours : words.watching);
      return;
    }
    if (send({ type: "move", move: move, token: token, version: view.version })) {
      sent = { move: move, version: view.version, at: performance.now() };
    }
  }

  // A message from the server: a newer view answers the move on its way (it was made, or someone
  // else's action came first and its refusal follows), an error refuses it.
  function answered(refused) {
    if (!sent || (!refused && view.version <= sent.version)) return;
    sent = null;
    const next = waiting;
    waiting = null;
    if (next !== null && !refused) next();
  }

  function abort() {
    if (view.over || !window.confirm(words.confirm_abort)) return;
    whenAnswered(function () {
      const token = tokenFor(view.mover) || tokenFor(heldSeats()[0]);
      if (token && !view.over) send({ type: "abort", token: token, version: view.version });
    });
  }

  function claim(seat) {
    whenAnswered(function () {
      const token = heldSeats().filter(function (held) { return held !== seat; }).map(tokenFor).filter(Boolean)[0];
      if (token && !view.over) send({ type: "claim", token: token, version: view.version, seat: seat });
    });
  }

  // ----- "your move": the tab's title, and a sound if this browser asked for one --------------
  const baseTitle = document.title;
  const soundKey = "ogames:sound-on-move";
  const soundToggle = document.getElementById("sound-toggle");
  let wasMine = null;
  if (soundToggle) {
    try { soundToggle.checked = localStorage.getItem(soundKey) === "on"; } catch (e) { /* private mode */ }
    soundToggle.addEventListener("change", function () {
      try { localStorage.setItem(soundKey, soundToggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    });
  }

  function chime() {
    try {
      const context = new (window.AudioContext || window.webkitAudioContext)();
      const tone = context.createOscillator();
      const volume = context.createGain();
      tone.frequency.value = 660;
      volume.gain.setValueAtTime(0.15, context.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.4);
      tone.connect(volume).connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.4);
    } catch (e) { /* no sound here */ }
  }

  // Against someone in another browser, the tab says when this browser is to move (and chimes,
  // if asked to, when that turn comes); on one screen every move is "yours", so it says nothing.
  function showYourMove(mine) {
    const yours = mine && view.mode !== "hotseat";
    if (soundToggle) soundToggle.closest("label").hidden = view.mode === "hotseat";
    document.title = yours ? words.your_move_title + " · " + baseTitle : baseTitle;
    if (yours && wasMine === false && soundToggle && soundToggle.checked) chime();
    wasMine = yours;
  }

  // People who left a live game: once they have been away long enough, the others may claim the win.
  let claimTimer = null;
  function showClaims() {
    const box = document.getElementById("claims");
    box.replaceChildren();
    if (claimTimer) { clearTimeout(claimTimer); claimTimer = null; }
    if (view.over) return;
    (view.claims || []).forEach(function (away) {
      const mineElsewhere = heldSeats().some(function (held) { return held !== away.seat; });
      if (!mineElsewhere || heldSeats().indexOf(away.seat) >= 0) return;
      const seat = view.seats[away.seat];
      const name = seat ? seatName(seat) : String(away.seat + 1);
      const waited = (performance.now() - shownAt) / 1000;
      const left = Math.ceil(away.in - waited);
      if (left > 0) {
        const note = document.createElement("span");
        note.className = "small";
        note.textContent = window.OgamesWords.fill(words.claim_in, { name: name, s: left });
        box.append(note);
        claimTimer = setTimeout(showClaims, Math.min(left, 1) * 1000);
        return;
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button";
      button.dataset.claim = String(away.seat);
      button.textContent = window.OgamesWords.fill(words.claim_win, { name: name });
      button.addEventListener("click", function () { claim(away.seat); });
      box.append(button);
    });
  }
  let shownAt = performance.now();

  function resign() {
    if (view.over || !window.confirm(words.confirm_resign)) return;
    whenAnswered(function () {
      const token = tokenFor(view.mover) || tokenFor(heldSeats()[0]);
      if (token && !view.over) send({ type: "resign", token: token, version: view.version });
    });
  }

  // ----- drawing the view ----------------------------------------------------------------------

  // A special move as its button says it: the swap, taking a colour (Omega), a komi value.
  function specialName(move) {
    if (move === "swap") return words.swap;
    if (move.startsWith("swap ")) return words.take_colour.replace("{colour}", colourName(move.slice(5)));
    if (move.startsWith("komi=")) return words.komi_value.replace("{k}", move.slice(5));
    return move;
  }

  // A computer's seat is named by its level in the page's language ("computer (level 7)"), a
  // person's by their account's name when the page was made with one recorded in the seat (the
  // template's data-names: "Ada", not "player 1"); seats of games stored before levels, and guests,
  // keep their stored names.
  const accountNames = JSON.parse(document.getElementById("seats").dataset.names || "{}");
  function seatName(seat) {
    if (seat.computer) return seat.level ? words.computer_level.replace("{n}", seat.level) : seat.name;
    return accountNames[String(seat.seat)] || seat.name;
  }

  // Someone who took a seat through an invitation after this page was made is recorded in it
  // when their page says it holds the seat: when a held seat has no account's name here, ask the
  // server once for that set of seats (a guest's seat never has one).
  let namesAskedFor = "";
  function askNamesOfNewcomers() {
    const unnamed = (view.present || []).filter(function (seat) { return !accountNames[String(seat)]; });
    const key = unnamed.join(",");
    if (!unnamed.length || key === namesAskedFor) return;
    namesAskedFor = key;
    fetch("/api/games/" + encodeURIComponent(gameId) + "/names").then(function (response) {
      return response.ok ? response.json() : { names: {} };
    }).then(function (answer) {
      Object.assign(accountNames, answer.names || {});
      renderSoon();
    }).catch(function () { namesAskedFor = ""; });  // asked again with the next view
  }

  function swatch(colour) {
    const span = document.createElement("span");
    span.className = "swatch swatch-" + colour;
    span.setAttribute("aria-hidden", "true");
    if (window.OgamesBoard) window.OgamesBoard.picture(span, colour);  // the colour's stone shape
    return span;
  }

  // States can arrive faster than a page draws them (a burst of moves through the API, a fast
  // computer game): draw once a frame, the newest state only, so the page never falls behind.
  let renderQueued = false;
  function renderSoon() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(function () { renderQueued = false; render(); });
  }

  // A rated game once rated: the rating changes (static/page.js), by seat name without an account.
  function renderRatings() {
    window.OgamesPage.showRatingChanges(view.ratings || [], function (seat) {
      return view.seats[seat] ? seatName(view.seats[seat]) : "";
    });
  }

  function render() {
    const mine = !view.over && tokenFor(view.mover) !== null;
    if (window.OgamesBoard) window.OgamesBoard.render(view, mine);  // the board, its facts and the moves
    root.classList.toggle("over", view.over);

    // The status is a live region: a screen reader says it whenever it changes, so it is written
    // only when its words do (every view redraws the page, a clock's tick too), and it begins
    // with the last move, unseen (the board shows that), so that the reader hears it.
    const shown = document.getElementById("status");
    const status = document.createElement("div");
    const last = view.moves.length ? view.moves[view.moves.length - 1] : null;
    if (last && last.by && !view.aborted) {
      const heard = document.createElement("span");
      heard.className = "visually-hidden";
      heard.textContent = window.OgamesWords.fill(words.last_played, { colour: colourName(last.by), move: last.text || last.move }) + " ";
      status.append(heard);
    }
    if (view.aborted) {
      status.className = "status result";
      const strong = document.createElement("strong");
      strong.textContent = words.aborted;
      status.append(strong);
    } else if (view.over && view.result) {
      status.className = "status result";
      const strong = document.createElement("strong");
      const winner = view.result.winner;
      strong.textContent = winner === "draw" ? words.draw : words.won.replace("{colour}", colourName(winner));
      if (winner !== "draw") status.append(swatch(winner));
      const reason = document.createElement("span");
      reason.className = "reason";
      reason.textContent = view.result.reason;
      status.append(strong, reason);
    } else {
      status.className = "status to-move-" + view.to_move;
      status.append(swatch(view.to_move));
      const strong = document.createElement("strong");
      const seat = view.seats[view.mover];
      const placing = view.board && view.board.placing;
      // Omega: a seat places a stone of every colour, so "Black to move" would name the stone,
      // not the player; say whose turn it is and which of its stones comes next.
      strong.textContent = placing && seat
        ? window.OgamesWords.fill(words.places_stone, {
          player: seat.colours.map(colourName).join(", "), colour: colourName(view.to_move), i: placing.index, n: placing.of,
        })
        : words.to_move.replace("{colour}", colourName(view.to_move));
      status.append(strong);
      const yours = mine && view.mode !== "hotseat";
      if (seat && !yours) status.append(document.createTextNode(" · " + seatName(seat)));
      if (view.thinking) {
        const think = document.createElement("span");
        think.className = "thinking";
        think.textContent = words.thinking;
        status.append(think);
      } else if (yours) {
        const note = document.createElement("span");
        note.className = "yours";
        note.textContent = "· " + words.your_turn;
        status.append(note);
      }
    }
    if (shown.textContent !== status.textContent || shown.className !== status.className) {
      shown.className = status.className;
      shown.replaceChildren(...status.childNodes);
    }
    if (view.problem) showMessage(view.problem);
    renderRatings();

    const seats = document.getElementById("seats");
    seats.replaceChildren();
    view.seats.forEach(function (seat) {
      const li = document.createElement("li");
      seat.colours.forEach(function (colour) { li.append(swatch(colour)); });
      const account = seat.computer ? null : accountNames[String(seat.seat)];
      if (account) {  // a person with an account: their name links to their profile
        const link = document.createElement("a");
        link.href = "/@/" + encodeURIComponent(account);
        link.setAttribute("translate", "no");
        link.textContent = account;
        li.append(link, document.createTextNode(" · " + seat.colours.map(colourName).join(", ")));
      } else {
        li.append(document.createTextNode(seatName(seat) + " · " + seat.colours.map(colourName).join(", ")));
      }
      if (!view.over && seat.seat === view.mover) li.className = "to-move";
      // A person in another browser who has no page open on the game now (on any server process).
      const elsewhere = !seat.computer && heldSeats().indexOf(seat.seat) < 0 && seat.kind !== "open";
      if (!view.over && elsewhere && view.present && view.present.indexOf(seat.seat) < 0) {
        const away = document.createElement("span");
        away.className = "away";
        away.textContent = " · " + words.away;
        li.append(away);
      }
      if (view.scores && seat.colours.length) {
        const score = seat.colours.map(function (c) { return view.scores[c]; }).filter(function (s) { return s !== undefined; });
        if (score.length) li.append(document.createTextNode(" · " + words.score + " " + score.join(", ")));
      }
      seats.append(li);
    });

    const specials = document.getElementById("specials");
    // Every view redraws the specials (a clock tick or someone's page opening sends one): keep the
    // komi the person has picked in the menu but not yet played.
    const picked = document.getElementById("komi-choice");
    const pickedKomi = picked ? picked.value : null;
    specials.replaceChildren();
    const choices = view.specials.filter(function (move) { return move.startsWith("komi="); });
    if (mine && choices.length > 4) {
      // Many komi values: one menu and a button instead of a button each.
      const select = document.createElement("select");
      select.id = "komi-choice";
      select.setAttribute("aria-label", words.komi);
      choices.forEach(function (move) {
        const option = document.createElement("option");
        option.value = move;
        option.textContent = specialName(move);
        select.append(option);
      });
      if (pickedKomi && choices.indexOf(pickedKomi) >= 0) select.value = pickedKomi;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button";
      button.textContent = words.choose_komi;
      button.addEventListener("click", function () { play(select.value); });
      specials.append(select, button);
    }
    if (mine) {
      view.specials.forEach(function (move) {
        if (choices.length > 4 && move.startsWith("komi=")) return;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button";
        button.dataset.move = move;
        button.textContent = specialName(move);
        button.addEventListener("click", function () { play(move); });
        specials.append(button);
      });
    }
    document.getElementById("resign").hidden = view.over || heldSeats().length === 0;
    document.getElementById("abort").hidden = !view.abort || heldSeats().length === 0;
    showClaims();
    showYourMove(mine);
    showAnalysisPanel();
    hooks.forEach(function (hook) { hook(view, api); });
  }

  // The other scripts of the page (clock.js, together.js) see every view through these hooks.
  const hooks = window.ogamesHooks || [];
  const api = {
    gameId: gameId, words: words, tokens: tokens, tokenFor: tokenFor, heldSeats: heldSeats,
    keepTokens: keepTokens, send: send, sayHere: sayHere, showMessage: showMessage, render: function () { render(); },
    seatName: seatName,
    // The newest view (a hook's own may be a frame old) and the gate a versioned action goes through.
    view: function () { return view; }, whenAnswered: whenAnswered,
  };

  // ----- the computer's analysis of the position shown -------------------------------------------
  const analysisPanel = document.getElementById("analysis-panel");
  const board = window.OgamesBoard;
  const analysis = window.OgamesAnalysis && board ? window.OgamesAnalysis.panel({
    words: words,
    shown: board.shown,
    request: function (ply, seconds) {
      return window.OgamesAnalysis.post("/api/games/" + encodeURIComponent(gameId) + "/analysis",
        { ply: ply, seconds: seconds });
    },
    draw: function (found, key) { board.mark(key, found.svg); },
    showMessage: showMessage,
  }) : null;
  if (analysis) board.onChange(analysis.clear);

  // Offered while the view says the server allows it (view.analysis): never beside a game still
  // played against someone else, where the best move would be a hint.
  function showAnalysisPanel() {
    if (!analysisPanel) return;
    analysisPanel.hidden = !analysis || !view.analysis;
    if (analysis) analysis.update();
  }

  document.getElementById("board").addEventListener("click", function (event) {
    const cell = event.target.closest("[data-cell]");
    if (!cell) return;
    // A double click is one move: its second click (event.detail 2) is not sent again — unless
    // moves are confirmed (board_touch.js), where the first tap selects a cell and a second one plays it.
    const confirmed = window.OgamesTouch && window.OgamesTouch.confirming();
    if (event.detail > 1 && !confirmed) return;
    if (!window.OgamesTouch || window.OgamesTouch.ready(cell)) play(cell.dataset.cell);
  });
  // A typed move (a cell's name, or a special such as swap), played as its click would be, without
  // the touch screens' confirmation: typing it was deliberate. A name that is not legal here is
  // refused on the page; the server decides the rest, as for a click.
  document.getElementById("move-entry").addEventListener("submit", function (event) {
    event.preventDefault();
    const input = document.getElementById("move-typed");
    const note = document.getElementById("move-typed-note");
    const typed = input.value.trim();
    if (!typed) return;
    const known = view.legal.concat(view.specials).filter(function (move) { return move.toLowerCase() === typed.toLowerCase(); });
    const refused = !known.length && !view.over && tokenFor(view.mover) !== null;
    note.textContent = refused ? window.OgamesWords.fill(words.not_legal_here, { move: typed }) : "";
    note.hidden = !refused;
    if (refused) return;
    input.value = "";
    play(known.length ? known[0] : typed);
  });
  document.getElementById("resign").addEventListener("click", resign);
  document.getElementById("abort").addEventListener("click", abort);
  render();
  connect();
})();
