// A rematch at the end of a game between two people (web/lobby/rematch.py). While the game page is
// open on a finished game whose seat this browser holds, it asks the server every few seconds who
// has offered a rematch; the Rematch button offers (or agrees to) one, and the server answers with
// this page's token for its seat in the next game (colours swapped). Once both have offered, the
// game is made and both pages go to it with the tokens they hold.
"use strict";
(function () {
  const box = document.getElementById("rematch");
  const root = document.querySelector(".game[data-game-id]");
  if (!box || !root) return;
  const gameId = root.dataset.gameId;
  const note = document.getElementById("rematch-note");
  const button = document.getElementById("rematch-offer");
  const nextKey = "ogames:rematch:" + gameId;
  const EVERY = 3000;

  function myToken() {
    try {
      const held = JSON.parse(localStorage.getItem("ogames:seats:" + gameId) || "{}") || {};
      const seats = Object.keys(held);
      return seats.length === 1 ? { seat: Number(seats[0]), token: held[seats[0]] } : null;
    } catch (e) { return null; }
  }

  function next() {
    try { return JSON.parse(sessionStorage.getItem(nextKey) || "null"); } catch (e) { return null; }
  }

  function go(game) {
    const mine = next();
    if (!mine) return;
    sessionStorage.removeItem(nextKey);
    note.textContent = box.dataset.going;
    location.assign("/g/" + encodeURIComponent(game) + "#seats=" + mine.seat + "." + mine.token);
  }

  function show(state) {
    const me = myToken();
    if (!state.over || !me) { box.hidden = true; return; }
    box.hidden = false;
    if (state.game) { go(state.game); return; }
    const mine = state.offered.indexOf(me.seat) >= 0 && next();
    button.hidden = Boolean(mine);
    note.textContent = mine ? box.dataset.waiting : (state.offered.length ? box.dataset.offered : "");
  }

  // Only a finished game is asked about: game.js hides Resign once the game is over (or for a page
  // holding no seat, which has nothing to rematch either), so a game being played costs no request.
  const resign = document.getElementById("resign");
  let asked = false;

  function poll() {
    if (asked && resign && !resign.hidden) { setTimeout(poll, EVERY); return; }
    asked = true;
    fetch("/api/games/" + encodeURIComponent(gameId) + "/rematch")
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state) show(state); })
      .catch(function () { /* the next poll tries again */ })
      .finally(function () { setTimeout(poll, EVERY); });
  }

  button.addEventListener("click", function () {
    const me = myToken();
    if (!me) return;
    button.disabled = true;
    fetch("/api/games/" + encodeURIComponent(gameId) + "/rematch", {
      method: "POST", headers: window.OgamesPage.jsonHeaders(), body: JSON.stringify({ token: me.token }),
    })
      .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
      .then(function (answer) {
        button.disabled = false;
        if (!answer.ok) { note.textContent = answer.body.error || ""; return; }
        sessionStorage.setItem(nextKey, JSON.stringify({ seat: answer.body.seat, token: answer.body.token }));
        show({ over: true, offered: answer.body.offered, game: answer.body.game });
      })
      .catch(function () { button.disabled = false; });
  });

  poll();
})();
