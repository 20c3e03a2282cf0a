// A rematch at the end of a game between two people (web/lobby/rematch.py). The game's view says
// who has offered one and, once both have, the new game (view.rematch: sent on the game's socket,
// from whichever server process the offer reached, so nothing here asks again and again). The
// Rematch button offers (or agrees to) one, and the server answers with this page's token for its
// seat in the next game (colours swapped); once the view names the new game, the page goes there
// with the token it holds.
"use strict";
(function () {
  const box = document.getElementById("rematch");
  const root = document.querySelector(".game[data-game-id]");
  if (!box || !root) return;
  const gameId = root.dataset.gameId;
  const note = document.getElementById("rematch-note");
  const button = document.getElementById("rematch-offer");
  const nextKey = "ogames:rematch:" + gameId;

  let page = null;  // game.js's api, given with every view

  // This browser's seat and token in the finished game, if it holds exactly one seat.
  function myToken() {
    const held = page ? page.heldSeats() : [];
    return held.length === 1 ? { seat: held[0], token: page.tokenFor(held[0]) } : null;
  }

  function next() {
    try { return JSON.parse(sessionStorage.getItem(nextKey) || "null"); } catch (e) { return null; }
  }

  function go(game) {
    const mine = next();
    if (!mine) return;  // this page has not offered (its answer may be on its way: it comes here again)
    sessionStorage.removeItem(nextKey);
    note.textContent = box.dataset.going;
    location.assign("/g/" + encodeURIComponent(game) + "#seats=" + mine.seat + "." + mine.token);
  }

  // The rematch as the newest view (or this page's offer's answer) has it: { offered, game }, or null.
  let known = null;

  function show() {
    const me = myToken();
    if (!known || !me) { box.hidden = true; return; }
    box.hidden = false;
    if (known.game) { go(known.game); return; }
    const mine = known.offered.indexOf(me.seat) >= 0 && next();
    button.hidden = Boolean(mine);
    note.textContent = mine ? box.dataset.waiting : (known.offered.length ? box.dataset.offered : "");
  }

  (window.ogamesHooks = window.ogamesHooks || []).push(function (view, api) {
    page = api;
    known = view.rematch || null;
    show();
  });

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
        // The view says the same soon; the newer of the two wins (offers only grow; the game is made once).
        const offered = (known ? known.offered : []).concat(answer.body.offered);
        known = { offered: offered, game: answer.body.game || (known && known.game) || null };
        show();
      })
      .catch(function () { button.disabled = false; });
  });
})();
