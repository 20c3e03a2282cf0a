// Challenges to this account, under the header of every page but the lobby's: the lobby's socket
// in its "challenges only" mode (/ws/lobby?challenges=1) pushes each challenge as it comes and goes,
// and Accept or Decline answers it there; an accepted challenge sends this page to its seat. Names
// and options are set as text, never read as HTML.
"use strict";
(function () {
  const box = document.getElementById("challenges");
  if (!box) return;
  const open = new Map();
  let socket = null;  // page.js's socketTo, opened at the end

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) { return name in values ? String(values[name]) : all; });
  }

  function timeText(seek) {
    if (seek.days) return fill(box.dataset.days, { days: seek.days });
    if (seek.clock) return fill(box.dataset.clock, { minutes: seek.clock.minutes, increment: seek.clock.increment });
    return box.dataset.untimed;
  }

  function button(text, primary, message) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = primary ? "button primary" : "button";
    made.textContent = text;
    made.addEventListener("click", function () {
      socket.sendIfOpen(message);
    });
    return made;
  }

  function draw() {
    box.textContent = "";
    for (const seek of open.values()) {
      const line = document.createElement("p");
      line.className = "challenge";
      line.dataset.seek = seek.id;
      const who = document.createElement("strong");
      who.setAttribute("translate", "no");
      who.textContent = fill(box.dataset.from, { name: seek.poster });
      line.appendChild(who);
      line.appendChild(document.createTextNode(" " + seek.title + (seek.text ? " · " + seek.text : "") + " · " + timeText(seek) + " "));
      line.appendChild(button(box.dataset.accept, true, { type: "accept", seek: seek.id }));
      line.appendChild(document.createTextNode(" "));
      line.appendChild(button(box.dataset.decline, false, { type: "decline", seek: seek.id }));
      box.appendChild(line);
    }
    box.hidden = open.size === 0;
  }

  function heard(message) {
    if (message.type === "seeks") {
      open.clear();
      for (const seek of message.seeks) open.set(seek.id, seek);
    } else if (message.type === "new") {
      open.set(message.seek.id, message.seek);
    } else if (message.type === "gone") {
      open.delete(message.seek);
    } else if (message.type === "go") {
      location.assign(message.url);
      return;
    } else {
      return;
    }
    draw();
  }

  // Every page but the lobby keeps this socket: after a restart its reconnections spread out longer.
  socket = window.OgamesPage.socketTo("/ws/lobby?challenges=1", {
    message: heard, retry: 1000, longest: 30000,
  });
})();
