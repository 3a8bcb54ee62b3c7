// rhetorica viewer: sorting and in-page filtering of tables. No network access, no dependencies.
"use strict";

function cellValue(cell) {
  const raw = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent.trim();
  if (raw === "inf") return Infinity;
  if (raw === "-inf") return -Infinity;
  const number = Number(raw);
  return raw !== "" && !Number.isNaN(number) ? number : raw.toLowerCase();
}

function compare(a, b) {
  const aNum = typeof a === "number" && !Number.isNaN(a), bNum = typeof b === "number" && !Number.isNaN(b);
  if (aNum && bNum) return a - b;
  if (aNum) return -1;
  if (bNum) return 1;
  return String(a).localeCompare(String(b));
}

function makeSortable(table) {
  const headers = Array.from(table.tHead.rows[0].cells);
  headers.forEach((th, index) => {
    th.addEventListener("click", () => {
      const descending = th.classList.contains("sorted-asc");
      headers.forEach((h) => h.classList.remove("sorted-asc", "sorted-desc"));
      th.classList.add(descending ? "sorted-desc" : "sorted-asc");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((r1, r2) => {
        const order = compare(cellValue(r1.cells[index]), cellValue(r2.cells[index]));
        return descending ? -order : order;
      });
      rows.forEach((row) => body.appendChild(row));
    });
  });
}

function makeFinder(input) {
  const table = document.getElementById(input.dataset.table);
  if (!table) return;
  input.addEventListener("input", () => {
    const needle = input.value.trim().toLowerCase();
    Array.from(table.tBodies[0].rows).forEach((row) => {
      row.hidden = needle !== "" && !row.textContent.toLowerCase().includes(needle);
    });
  });
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.sortable").forEach(makeSortable);
  document.querySelectorAll("input.find").forEach(makeFinder);
});
