// The game's chat: the players' room (for the people holding a seat) and the spectators' room.
// The server decides who reads and writes which room; this page only shows what it is sent, always
// as text (textContent), never as markup. Muting a name hides its messages in this browser.
// Loaded after game.js (or omiga.js), which keeps the seats' tokens of the link's fragment in this
// browser's storage, where the chat reads them.
"use strict";
(function () {
  const root = document.getElementById("chat");
  if (!root) return;
  const page = window.OgamesPage;
  const words = page.words;
  const gameId = root.dataset.gameId;
  const list = document.getElementById("chat-messages");
  const empty = document.getElementById("chat-empty");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-text");
  const tabs = root.querySelector(".chat-rooms");
  const hiddenNote = document.getElementById("chat-hidden");
  const mutedNote = document.getElementById("chat-muted");
  const mutedKey = "ogames:chat-muted";
  let messages = [];
  let player = false;
  let hidden = false;
  let you = "";
  let room = "spectators";
  let socket = null;  // page.js's socketTo, opened at the end
  let joinedWith = "";

  // The tokens of the seats this browser plays: a board game's page keeps {seat: token}, a card
  // table's {seats: {seat: token}, invites: {…}} (the invitations are for others).
  function tokens() {
    let kept = {};
    try { kept = JSON.parse(localStorage.getItem(root.dataset.seatsKey + gameId) || "{}") || {}; } catch (e) { kept = {}; }
    const held = kept.seats && typeof kept.seats === "object" ? kept.seats : kept;
    return Object.keys(held).map(function (seat) { return held[seat]; }).filter(function (t) { return typeof t === "string"; });
  }

  function muted() {
    try { return JSON.parse(localStorage.getItem(mutedKey) || "{}") || {}; } catch (e) { return {}; }
  }

  function keepMuted(names) {
    try { localStorage.setItem(mutedKey, JSON.stringify(names)); } catch (e) { /* private mode */ }
  }

  function show() {
    const silenced = muted();
    list.replaceChildren();
    messages.filter(function (m) { return m.room === room && !silenced[m.who]; }).forEach(function (m) {
      const item = document.createElement("li");
      item.className = "chat-message" + (m.who === you ? " mine" : "");
      const author = document.createElement("span");
      author.className = "chat-author";
      author.setAttribute("translate", "no");
      author.textContent = m.author;
      const text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = m.text;
      item.append(author, text);
      if (m.who !== you) {
        const mute = document.createElement("button");
        mute.type = "button";
        mute.className = "link chat-mute";
        mute.textContent = words.chat_mute;
        mute.addEventListener("click", function () {
          const names = muted();
          names[m.who] = m.author;
          keepMuted(names);
          show();
        });
        item.append(mute);
      }
      list.append(item);
    });
    list.scrollTop = list.scrollHeight;
    empty.hidden = hidden || list.children.length > 0;
    hiddenNote.hidden = !hidden;
    form.hidden = hidden;
    tabs.hidden = !player;
    tabs.querySelectorAll(".chat-room").forEach(function (tab) { tab.setAttribute("aria-selected", String(tab.dataset.room === room)); });
    const names = Object.values(silenced);
    mutedNote.hidden = names.length === 0;
    document.getElementById("chat-muted-names").textContent = (words.chat_muted || "{names}").replace("{names}", names.join(", "));
  }

  function heard(message) {
    if (message.type === "history") {
      if (message.player && !player) room = "players";
      player = message.player;
      if (!player) room = "spectators";
      hidden = message.hidden;
      you = message.you;
      messages = message.messages;
      show();
    } else if (message.type === "said") {
      messages.push(message.message);
      show();
    }
  }

  async function post(path, body) {
    const answer = await fetch(path, { method: "POST", headers: page.jsonHeaders(), body: JSON.stringify(body) });
    let said = {};
    try { said = await answer.json(); } catch (e) { said = {}; }
    if (!answer.ok) page.showMessage(said.error || String(answer.status));
    return answer.ok;
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (await post("/api/games/" + encodeURIComponent(gameId) + "/chat", { room: room, text: text, tokens: tokens() })) {
      input.value = "";
      page.showMessage("");
    }
  });

  tabs.addEventListener("click", function (event) {
    const tab = event.target.closest(".chat-room");
    if (!tab) return;
    room = tab.dataset.room;
    show();
  });

  document.getElementById("chat-unmute").addEventListener("click", function () {
    keepMuted({});
    show();
  });

  document.getElementById("chat-report").addEventListener("click", async function () {
    const reason = window.prompt(words.chat_report_reason);
    if (!reason || !reason.trim()) return;
    if (await post("/api/games/" + encodeURIComponent(gameId) + "/report", { reason: reason })) page.showMessage(words.chat_reported);
  });

  // A seat taken on this page (together.js keeps its new token): join again, as a player now.
  (window.ogamesHooks = window.ogamesHooks || []).push(function () {
    if (socket.isOpen() && tokens().join(",") !== joinedWith) socket.close();
  });

  socket = page.socketTo("/ws/chat/" + encodeURIComponent(gameId), {
    opened: function () {
      const held = tokens();
      joinedWith = held.join(",");
      socket.sendIfOpen({ type: "join", tokens: held });
    },
    message: heard,
    closed: function () { form.hidden = true; },  // until the next history says which room is this visitor's (a seat may have been taken)
    longest: 10000,
  });
})();
