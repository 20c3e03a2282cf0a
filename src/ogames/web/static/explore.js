// The opening explorer (templates/explore.html): a click on a cell of the board that is one of the
// next moves in the table steps into it, as the table's own link does (the page works without this).
"use strict";

(function () {
  const table = document.getElementById("next-moves");
  const board = document.getElementById("board");
  if (!table || !board) return;
  const links = new Map();
  for (const link of table.querySelectorAll("a[data-move]")) links.set(link.dataset.move, link.href);
  for (const cell of board.querySelectorAll(".cell[data-cell]")) {
    if (links.has(cell.dataset.cell)) cell.classList.add("explore-next");
  }
  board.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell[data-cell]");
    const href = cell && links.get(cell.dataset.cell);
    if (href) window.location.assign(href);
  });
})();
