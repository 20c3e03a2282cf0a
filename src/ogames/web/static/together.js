// Playing together: the invitation links of the seats this browser invited people to, the link
// for spectators, buttons to take an open seat, and Undo. Seat tokens travel only in a link's
// fragment (never sent to the server in a request line) and live in this browser's storage.
"use strict";
(function () {
  const root = document.querySelector(".game");
  if (!root) return;
  const gameId = root.dataset.gameId;
  const inviteKey = "ogames:invites:" + gameId;
  const invites = window.OgamesPage.keptTokens(inviteKey, "invites");
  let shownInvites = "";
  let shownOpen = "";

  function copy(input, button, words) {
    input.select();
    const done = function () { button.textContent = words.copied; };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(input.value).then(done, function () {});
    else { try { document.execCommand("copy"); done(); } catch (e) { /* the link stays selected to copy by hand */ } }
  }

  function linkRow(id, value, words) {
    const row = document.createElement("div");
    row.className = "link-row";
    const input = document.createElement("input");
    input.type = "text";
    input.readOnly = true;
    input.className = "link";
    input.id = id;
    input.value = value;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button copy";
    button.textContent = words.copy_link;
    button.addEventListener("click", function () { copy(input, button, words); });
    row.append(input, button);
    return row;
  }

  function showInvitations(view, page) {
    const seats = view.seats.filter(function (seat) { return seat.kind === "invited" && invites[String(seat.seat)]; });
    const signature = seats.map(function (seat) { return seat.seat; }).join(",");
    if (signature === shownInvites) return;
    shownInvites = signature;
    const box = document.getElementById("invitations");
    const list = document.getElementById("invite-links");
    list.replaceChildren();
    seats.forEach(function (seat) {
      const item = document.createElement("li");
      const label = document.createElement("span");
      label.className = "small";
      label.textContent = page.words.invite_seat.replace("{n}", seat.seat + 1) + " · " + seat.colours.map(function (c) { return page.words["c_" + c] || c; }).join(", ");
      const link = location.origin + "/g/" + encodeURIComponent(gameId) + "#seats=" + seat.seat + "." + invites[String(seat.seat)];
      item.append(label, linkRow("invite-" + seat.seat, link, page.words));
      list.append(item);
    });
    box.hidden = seats.length === 0;
  }

  function showOpenSeats(view, page) {
    const open = view.over ? [] : view.seats.filter(function (seat) { return seat.kind === "open"; });
    const signature = open.map(function (seat) { return seat.seat; }).join(",");
    if (signature === shownOpen) return;
    shownOpen = signature;
    const box = document.getElementById("open-seats");
    box.replaceChildren();
    open.forEach(function (seat) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button primary";
      button.dataset.takeSeat = String(seat.seat);
      button.textContent = page.words.take_seat.replace("{n}", seat.seat + 1);
      button.addEventListener("click", function () { take(seat.seat, page); });
      box.append(button);
    });
  }

  function take(seat, page) {
    fetch("/api/games/" + encodeURIComponent(gameId) + "/join?lang=" + encodeURIComponent(document.documentElement.lang || "en"), {
      method: "POST",
      headers: window.OgamesPage.jsonHeaders(),
      body: JSON.stringify({ seat: seat }),
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) { page.showMessage(body.error || "?"); return; }
        page.tokens[String(body.seat)] = body.token;
        page.keepTokens();
        page.sayHere();  // the seat just taken is here now, for everyone's page
        page.render();
      });
    }).catch(function () { page.showMessage(page.words.disconnected); });
  }

  // Undo is offered to the seats the view says have something to take back (on one screen any
  // move, against the computer a person's move, with invited people one's own move), when this
  // browser holds one of them; the one to move first (on one screen it holds every seat).
  function undoSeat(view, page) {
    const seats = (view.undo_seats || []).filter(function (seat) { return page.tokenFor(seat) !== null; });
    if (seats.indexOf(view.mover) >= 0) return view.mover;
    return seats.length ? seats[0] : null;
  }

  function showUndo(view, page) {
    const button = document.getElementById("undo");
    if (!button) return;
    const seat = undoSeat(view, page);
    button.hidden = seat === null;
    button.onclick = function () {
      page.whenAnswered(function () {  // after the answer to a move on its way, with the version it made
        const now = page.view();
        const asker = undoSeat(now, page);
        const token = asker === null ? null : page.tokenFor(asker);
        if (token) page.send({ type: "undo", token: token, version: now.version });
      });
    };
  }

  // With invited people an undo is asked for and agreed to: the asker waits, the others answer.
  function showUndoRequest(view, page) {
    const box = document.getElementById("undo-request");
    if (!box) return;
    const request = view.undo_request;
    const held = page.heldSeats();
    box.replaceChildren();
    const declined = view.undo_declined;
    if (!request && declined !== null && declined !== undefined && held.indexOf(declined) >= 0) {
      const note = document.createElement("span");
      note.className = "undo-declined";
      note.textContent = page.words.undo_declined;
      box.append(note);
      box.hidden = false;
      return;
    }
    if (!request || held.length === 0) { box.hidden = true; return; }
    const text = document.createElement("span");
    if (held.indexOf(request.seat) >= 0) {
      text.textContent = page.words.undo_waiting;
      box.append(text);
    } else {
      const asker = view.seats[request.seat];
      text.textContent = page.words.undo_asked.replace("{name}", asker ? page.seatName(asker) : String(request.seat + 1));
      box.append(text);
      const voter = held.find(function (seat) { return request.agreed.indexOf(seat) < 0; });
      if (voter !== undefined) {
        [["accept", false], ["decline", true]].forEach(function (choice) {
          const button = document.createElement("button");
          button.type = "button";
          button.className = "button" + (choice[1] ? "" : " primary");
          button.id = "undo-" + choice[0];
          button.textContent = page.words[choice[0]];
          button.addEventListener("click", function () {
            const message = { type: "undo", token: page.tokenFor(voter), version: view.version };
            if (choice[1]) message.decline = true;
            page.send(message);
          });
          box.append(button);
        });
      }
    }
    box.hidden = false;
  }

  function show(view, page) {
    showUndoRequest(view, page);
    showInvitations(view, page);
    showOpenSeats(view, page);
    showUndo(view, page);
    const spectator = document.getElementById("spectator-link");
    if (spectator && !spectator.dataset.ready) {
      spectator.value = location.origin + "/g/" + encodeURIComponent(gameId);
      spectator.dataset.ready = "true";
      const button = document.querySelector("[data-copy=spectator-link]");
      if (button) button.addEventListener("click", function () { copy(spectator, button, page.words); });
    }
  }

  (window.ogamesHooks = window.ogamesHooks || []).push(show);
})();
