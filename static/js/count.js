// Count the hand: pick three cards from the family's grid; the server scores them (hand_points) and names them.
import { cardSvg, parseCard, cardAscii, cardText } from "./cards.js";

const root = document.getElementById("count-page");
const decks = JSON.parse(document.getElementById("count-decks").textContent);
const initial = JSON.parse(document.getElementById("count-initial").textContent);
const grid = document.getElementById("card-grid");
const picked = document.getElementById("count-picked");
const pointsEl = document.getElementById("count-points");
const nameEl = document.getElementById("count-name");
const errorEl = document.getElementById("count-error");
let family = document.querySelector('input[name="count-family"]:checked')?.value || "classic";
let chosen = initial ? initial.cards.slice() : [];
let request = 0;

function showError(message) {
  errorEl.textContent = message || "";
  errorEl.hidden = !message;
}

function renderPicked() {
  picked.replaceChildren();
  for (let i = 0; i < 3; i++) {
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = "count-slot";
    if (chosen[i]) {
      slot.append(cardSvg(chosen[i], { wild: chosen[i] === decks[family].wild }));
      slot.title = interpolate(gettext("Remove %(card)s"), { card: chosen[i] }, true);
      slot.addEventListener("click", () => { chosen.splice(i, 1); update(); });
    } else {
      slot.classList.add("empty-slot");
      slot.disabled = true;
      slot.setAttribute("aria-label", gettext("no card yet"));
    }
    picked.append(slot);
  }
}

function renderGrid() {
  grid.replaceChildren();
  grid.dataset.family = family;
  for (const text of decks[family].cards) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "grid-card";
    button.dataset.card = text;
    button.setAttribute("aria-pressed", chosen.includes(text) ? "true" : "false");
    button.append(cardSvg(text, { wild: text === decks[family].wild }));
    button.addEventListener("click", () => toggle(text));
    grid.append(button);
  }
}

function toggle(text) {
  const at = chosen.indexOf(text);
  if (at >= 0) chosen.splice(at, 1);
  else if (chosen.length < 3) chosen.push(text);
  else { chosen.shift(); chosen.push(text); }
  update();
}

async function score() {
  const mine = ++request;
  if (chosen.length !== 3) {
    pointsEl.textContent = "—";
    nameEl.textContent = chosen.length ? interpolate(gettext("pick %(n)s more"), { n: 3 - chosen.length }, true) : gettext("pick three cards");
    showError("");
    return;
  }
  const cards = chosen.map((t) => cardAscii(parseCard(t))).join(" ");
  const url = `${root.dataset.pointsUrl}?family=${encodeURIComponent(family)}&cards=${encodeURIComponent(cards)}`;
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const body = await response.json();
    if (mine !== request) return;
    if (!response.ok) {
      pointsEl.textContent = "—";
      nameEl.textContent = "";
      showError(body.error || gettext("That hand cannot be counted."));
      return;
    }
    showError("");
    pointsEl.textContent = String(body.points);
    nameEl.textContent = body.name || "";
  } catch {
    if (mine === request) showError(gettext("The server did not answer; try again."));
  }
}

function update() {
  renderPicked();
  for (const button of grid.querySelectorAll(".grid-card")) {
    button.setAttribute("aria-pressed", chosen.includes(button.dataset.card) ? "true" : "false");
  }
  score();
}

for (const radio of document.querySelectorAll('input[name="count-family"]')) {
  radio.addEventListener("change", () => {
    family = radio.value;
    const deck = new Set(decks[family].cards);
    chosen = chosen.filter((t) => deck.has(t));
    document.getElementById("count-family-select").value = family;
    renderGrid();
    update();
  });
}
document.getElementById("count-clear").addEventListener("click", () => { chosen = []; update(); });

chosen = chosen.map((t) => { const c = parseCard(t); return c ? cardText(c) : t; });
renderGrid();
renderPicked();
// A typed hand the server refused arrives with its message in the page: keep it (and the typed text) on
// screen until the player picks cards, rather than scoring an empty pick over it.
const serverError = errorEl.textContent.trim();
if (serverError) {
  showError(serverError);
  document.querySelector(".count-type")?.setAttribute("open", "");
} else if (!initial) {
  score();
}
