// What the page scripts share (every page loads it, after the words script): the page's words (the
// `words` JSON the server puts in the page, if it has one), a colour's name in them, the message
// box and the state of the page's connection. The scripts of the game, replay, analysis and Omiga
// pages take these from here rather than each keeping its own copy.
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

  return { words: words, colourName: colourName, showMessage: showMessage, linkState: linkState, jsonHeaders: jsonHeaders };
})();
