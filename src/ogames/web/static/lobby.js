// The lobby page: the open seeks, kept live by the lobby's WebSocket (/ws/lobby: the whole list
// when it opens, then each seek that comes and goes), and the form that posts one. Posting a seek
// gives this page its seat's token at once; the browser keeps it (localStorage, so that any of its
// lobby pages can use it) and goes to the game with it when the seek is accepted. Everything a
// seek shows is set as text (names included): nothing from the server is read as HTML.
"use strict";
(function () {
  // The lobby's own words, written in place by its template (lobby.html) in the page's language.
  const said = JSON.parse(document.getElementById("lobby-words").textContent);
  const list = document.getElementById("seeks");
  const empty = document.getElementById("no-seeks");
  const seeks = new Map();
  const TOKEN_KEY = "ogames-seek:";
  let socket = null;  // page.js's socketTo, opened at the end

  function say(text) {
    const box = document.getElementById("message");
    box.hidden = !text;
    box.textContent = text || "";
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) { return name in values ? String(values[name]) : all; });
  }

  function timeText(seek) {
    if (seek.days) return fill(said.days, { days: seek.days });
    if (seek.clock) return fill(said.clock, { minutes: seek.clock.minutes, increment: seek.clock.increment });
    return said.untimed;
  }

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function draw() {
    list.textContent = "";
    for (const seek of seeks.values()) {
      const row = document.createElement("tr");
      row.dataset.seek = seek.id;
      if (seek.mine) row.classList.add("mine");
      const who = cell(row, seek.poster);
      who.setAttribute("translate", "no");
      cell(row, seek.title + (seek.text ? " · " + seek.text : "") + (seek.to ? " · " + fill(said.to, { name: seek.to }) : ""));
      cell(row, timeText(seek));
      let rating = String(seek.rating) + (seek.provisional ? "?" : "") + " · " + (seek.rated ? said.rated : said.casual);
      if (seek.min !== null || seek.max !== null) {
        rating += " · " + fill(said.range, { low: seek.min === null ? "" : seek.min, high: seek.max === null ? "" : seek.max });
      }
      cell(row, rating);
      const act = cell(row, "", "go");
      const button = document.createElement("button");
      button.type = "button";
      button.className = seek.mine ? "button" : "button primary";
      button.textContent = seek.mine ? said.cancel : said.accept;
      button.addEventListener("click", function () {
        send({ type: seek.mine ? "cancel" : "accept", seek: seek.id });
      });
      act.appendChild(button);
      if (seek.for_me) {  // a challenge to this visitor: accept or decline it
        row.classList.add("challenge");
        const decline = document.createElement("button");
        decline.type = "button";
        decline.className = "button";
        decline.textContent = said.decline;
        decline.addEventListener("click", function () { send({ type: "decline", seek: seek.id }); });
        act.appendChild(document.createTextNode(" "));
        act.appendChild(decline);
      }
      list.appendChild(row);
    }
    empty.hidden = seeks.size > 0;
  }

  function send(message) {
    socket.send(message);  // (waits while the socket connects; "not connected" when it is down)
  }

  function go(url) {
    location.assign(url);
  }

  function heard(message) {
    if (message.type === "seeks") {
      seeks.clear();
      for (const seek of message.seeks) seeks.set(seek.id, seek);
      draw();
    } else if (message.type === "new") {
      seeks.set(message.seek.id, message.seek);
      draw();
    } else if (message.type === "gone") {
      seeks.delete(message.seek);
      draw();
    } else if (message.type === "posted") {
      localStorage.setItem(TOKEN_KEY + message.seek, message.token);
    } else if (message.type === "matched") {
      const token = localStorage.getItem(TOKEN_KEY + message.seek);
      if (!token) { say(said.other_page); return; }
      localStorage.removeItem(TOKEN_KEY + message.seek);
      say(said.matched);
      go("/g/" + encodeURIComponent(message.game) + "#seats=" + message.seat + "." + token);
    } else if (message.type === "go") {
      say(said.accepted);
      go(message.url);
    } else if (message.type === "error") {
      say(message.message);
    }
  }

  function linkState(up) {
    const state = document.getElementById("link-state");
    state.textContent = up ? said.connected : said.disconnected;
    state.classList.toggle("down", !up);
  }

  // The variant list shown is the chosen game's.
  const gameSelect = document.getElementById("seek-game");
  function showVariants() {
    for (const field of document.querySelectorAll(".seek-variant")) {
      field.hidden = field.dataset.game !== gameSelect.value;
    }
  }
  gameSelect.addEventListener("change", showVariants);
  showVariants();

  document.getElementById("seek-form").addEventListener("submit", function (event) {
    event.preventDefault();
    say("");
    const game = gameSelect.value;
    const quick = event.submitter !== undefined && event.submitter !== null && event.submitter.id === "play-now";
    const message = { type: "seek", game: game, options: {}, rated: document.getElementById("seek-rated").checked, quick: quick };
    const variant = document.getElementById("seek-variant-" + game);
    if (variant) message.options.variant = variant.value;
    const time = document.getElementById("seek-time").value;
    if (time.startsWith("clock:")) {
      const parts = time.split(":");
      message.clock = { minutes: Number(parts[1]), increment: Number(parts[2]) };
    } else if (time.startsWith("days:")) {
      message.days = Number(time.split(":")[1]);
    }
    const to = document.getElementById("seek-to").value.trim();
    if (to) {
      message.to = to;
      message.quick = false;
    }
    for (const bound of ["min", "max"]) {
      const value = document.getElementById("seek-" + bound).value;
      if (value !== "") message[bound] = Number(value);
    }
    send(message);
  });

  socket = window.OgamesPage.socketTo("/ws/lobby", {
    opened: function () { linkState(true); },
    message: heard,
    closed: function () { linkState(false); },
    dropped: function () { say(said.not_sent); },
    longest: 10000,
  });
})();
