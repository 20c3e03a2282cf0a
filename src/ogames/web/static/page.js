// What the page scripts share (every page loads it, after the words script): the page's words (the
// `words` JSON the server puts in the page, if it has one), a colour's name in them, the message
// box, the state of the page's connection, a live view's socket, a live view with a delta applied
// and a rated game's rating changes. The scripts of the game, replay, analysis and Omiga pages take
// these from here rather than each keeping its own copy.
"use strict";
window.OgamesPage = (function () {
  const source = document.getElementById("words");
  const words = source ? JSON.parse(source.textContent) : {};

  // A colour as the page's language names it; Omiga's team seats end in their number (white1).
  function colourName(colour) {
    if (!colour) return "";
    const base = colour.replace(/[0-9]$/, "");
    const n = colour.slice(base.length);
    return (words["c_" + base] || base) + (n ? " " + n : "");
  }

  // Show a sentence in the page's message box (null or "": hide it); the box, for a caller that
  // hides it again later.
  function showMessage(text) {
    const box = document.getElementById("message");
    box.hidden = !text;
    box.textContent = text || "";
    return box;
  }

  // Whether the page's live connection is up, in the corner of the page.
  function linkState(up) {
    const span = document.getElementById("link-state");
    span.textContent = up ? words.connected : words.disconnected;
    span.classList.toggle("down", !up);
  }

  // The headers of a JSON POST to the server: its type and the page's CSRF token (the server
  // refuses a state-changing request from a browser without it: web/accounts/identity.py).
  function jsonHeaders() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return { "content-type": "application/json", "x-csrftoken": meta ? meta.content : "" };
  }

  // The seats' tokens a link's fragment gives (`NAME=SEAT.TOKEN,…`: the game page's `seats=`,
  // its invitations' `invites=`) added to those this browser kept under `key`, and kept again:
  // token by seat. A fragment is never sent to the server, so no token is in a request line.
  function keptTokens(key, name) {
    let held = {};
    try { held = JSON.parse(localStorage.getItem(key) || "{}") || {}; } catch (e) { held = {}; }
    const match = location.hash.match(new RegExp(name + "=([A-Za-z0-9_.,-]+)"));
    if (match) {
      match[1].split(",").forEach(function (pair) {
        const dot = pair.indexOf(".");
        if (dot > 0) held[pair.slice(0, dot)] = pair.slice(dot + 1);
      });
      try { localStorage.setItem(key, JSON.stringify(held)); } catch (e) { /* private mode */ }
    }
    return held;
  }

  // A view with a delta applied (web/core/delta.py says what a delta holds; apply_delta there is
  // this): a new object, the old view unchanged.
  function applyDelta(old, delta) {
    const next = Object.assign({}, old, delta.set || {});
    next.type = "state"; next.seq = delta.seq; next.version = delta.version;
    (delta.unset || []).forEach(function (key) { delete next[key]; });
    if (delta.set && delta.set.board && delta.set.board.$part) {
      next.board = Object.assign({}, old.board || {}, delta.set.board);
      delete next.board.$part;
    }
    ["stones", "cells", "pictures"].forEach(function (key) {  // dicts sent as the keys that changed (null: gone)
      if (!delta[key]) return;
      next[key] = Object.assign({}, old[key] || {});
      Object.keys(delta[key]).forEach(function (label) {
        if (delta[key][label] === null) delete next[key][label]; else next[key][label] = delta[key][label];
      });
    });
    if (delta.moves) next.moves = (old.moves || []).slice(delta.moves.drop || 0).slice(0, delta.moves.keep).concat(delta.moves.add);
    const lists = Object.keys(delta.lists || {});
    if (lists.some(function (key) { return key.startsWith("board."); })) next.board = Object.assign({}, next.board || {});
    lists.forEach(function (key) {  // "board.open": the list `open` in the view's board
      const splice = delta.lists[key];
      const within = key.startsWith("board.") ? next.board : next;
      const name = key.startsWith("board.") ? key.slice(6) : key;
      const dropped = new Set(splice.drop);
      const items = (within[name] || []).filter(function (item) { return !dropped.has(item); });
      splice.add.forEach(function (pair) { items.splice(pair[0], 0, pair[1]); });
      within[name] = items;
    });
    return next;
  }

  // A rated game or table once rated, in the page's #rating-changes box: each person's rating
  // before and after ("Ada: 1500? → 1523 (+23)"), named by account, else by `seatName(seat)`.
  function showRatingChanges(changes, seatName) {
    const box = document.getElementById("rating-changes");
    if (!box) return;
    box.hidden = changes.length === 0;
    const list = box.querySelector("ul");
    list.replaceChildren();
    changes.forEach(function (change) {
      const li = document.createElement("li");
      li.dataset.seat = String(change.seat);
      const who = change.name || seatName(change.seat);
      li.append(document.createTextNode(who + ": " + change.before + " → " + change.after + " "));
      const diff = document.createElement("strong");
      diff.className = change.diff.charAt(0) === "-" ? "rating-down" : "rating-up";
      diff.textContent = "(" + change.diff + ")";
      li.append(diff);
      list.append(li);
    });
  }

  // A WebSocket to this server that keeps itself open (every page's sockets: the live views, the
  // lobby, the header's challenges, a game's chat): `path` (with its own query, if any) in the
  // page's language, opened at once and again after each close, after a pause that doubles from
  // `on.retry` (500 ms) up to `on.longest` (8 s). It hears `on.opened()`, `on.message(message)`
  // (parsed JSON; anything else is ignored) and `on.closed()`. `send(message)` sends at once when
  // open; a message sent while connecting (a click made as the page opens) waits and is sent, in
  // order, on opening; otherwise (closed, or closing before it opened) it is dropped and
  // `on.dropped()` lets the page say it is not connected. `sendIfOpen` sends only when open
  // (false otherwise, silently); `close()` ends this connection (the next one follows the pause).
  function socketTo(path, on) {
    const first = on.retry || 500;
    let socket = null;
    let retry = first;
    let pending = [];  // sent while connecting: sent on opening, in order
    function connect() {
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      const lang = encodeURIComponent(document.documentElement.lang || "en");
      socket = new WebSocket(scheme + location.host + path + (path.includes("?") ? "&" : "?") + "lang=" + lang);
      socket.addEventListener("open", function () {
        retry = first;
        if (on.opened) on.opened();
        const waiting = pending;
        pending = [];
        waiting.forEach(function (message) { socket.send(JSON.stringify(message)); });
      });
      socket.addEventListener("message", function (event) {
        let message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        on.message(message);
      });
      socket.addEventListener("close", function () {
        if (pending.length && on.dropped) on.dropped();
        pending = [];
        if (on.closed) on.closed();
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, on.longest || 8000);
      });
    }
    function sendIfOpen(message) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    }
    connect();
    return {
      sendIfOpen: sendIfOpen,
      send: function (message) {
        if (sendIfOpen(message)) return true;
        if (socket && socket.readyState === WebSocket.CONNECTING) { pending.push(message); return true; }
        if (on.dropped) on.dropped();
        return false;
      },
      isOpen: function () { return socket !== null && socket.readyState === WebSocket.OPEN; },
      close: function () { if (socket) socket.close(); },
    };
  }

  // The live view's socket of a game page (`path` /ws/g/ID) or an Omiga table (/ws/o/ID), with
  // deltas (a full view first, then only what changed). A delta for a view the page does not hold
  // (`on.base()`: the seq of the view it holds) closes it, to start again whole: never, while the
  // server is right. It says its state in the page's corner, and a message it cannot send in the
  // message box. The page hears `on.opened()`, `on.view(message)` for a state or a delta,
  // `on.other(message)` and `on.closed()`; it sends with `send` or `sendIfOpen` (`socketTo`).
  function liveSocket(path, on) {
    const socket = socketTo(path + "?deltas=1", {
      opened: function () { linkState(true); on.opened(); },
      message: function (message) {
        if (message.type === "delta" && message.base !== on.base()) { socket.close(); return; }
        if (message.type === "state" || message.type === "delta") on.view(message);
        else on.other(message);
      },
      closed: function () { linkState(false); on.closed(); },
      dropped: function () { showMessage(words.disconnected); },
    });
    return { send: socket.send, sendIfOpen: socket.sendIfOpen };
  }

  return { words: words, colourName: colourName, showMessage: showMessage, linkState: linkState, jsonHeaders: jsonHeaders,
           keptTokens: keptTokens, applyDelta: applyDelta, showRatingChanges: showRatingChanges, socketTo: socketTo,
           liveSocket: liveSocket };
})();
