// Playing cards drawn as SVG in the browser: a face (rank + suit, red or black) or a back (a lattice pattern).
// Cards arrive as text: "A♥", "10♦", "Ah", "Th" (the engine's symbol or ascii form); null means face down.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SUITS = ["♠", "♥", "♦", "♣"];
const ASCII_SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANK_TEXT = { T: "10", 10: "10", J: "J", Q: "Q", K: "K", A: "A" };
export const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
// Screen readers' words (the page's catalogue: gettext comes from /jsi18n/, loaded before the modules).
const SUIT_NAMES = { "♠": gettext("spades"), "♥": gettext("hearts"), "♦": gettext("diamonds"), "♣": gettext("clubs") };
const RANK_NAMES = { J: gettext("jack"), Q: gettext("queen"), K: gettext("king"), A: gettext("ace") };
let uid = 0;

/** "A♥" / "Ah" / "10h" / "Th" → {rank: "A", suit: "♥"}; anything else → null. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const m = text.trim().replace(/\ufe0f/g, "").match(/^(10|[2-9]|[TJQKAtjqka])(.)$/);
  if (!m) return null;
  const rank = RANK_TEXT[m[1].toUpperCase()] || m[1];
  const suit = SUITS.includes(m[2]) ? m[2] : ASCII_SUITS[m[2].toLowerCase()];
  if (!suit) return null;
  return { rank, suit };
}

export function isRed(suit) {
  return suit === "♥" || suit === "♦";
}

/** The ascii form the server parses: "Ah", "10h". */
export function cardAscii(card) {
  const asciiSuit = Object.keys(ASCII_SUITS).find((k) => ASCII_SUITS[k] === card.suit);
  return card.rank + asciiSuit;
}

export function cardText(card) {
  return card.rank + card.suit;
}

/** Words for screen readers: "ace of hearts". */
export function cardLabel(card) {
  return interpolate(gettext("%(rank)s of %(suit)s"), { rank: RANK_NAMES[card.rank] || card.rank, suit: SUIT_NAMES[card.suit] }, true);
}

function el(name, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Pips of the number cards on a 60×84 face: [x, y, upside-down].
const PIPS = {
  6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  7: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [20, 62, 1], [40, 62, 1]],
  8: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [30, 52, 1], [20, 62, 1], [40, 62, 1]],
  9: [[20, 20], [40, 20], [20, 35], [40, 35], [30, 42], [20, 49, 1], [40, 49, 1], [20, 64, 1], [40, 64, 1]],
  10: [[20, 20], [40, 20], [30, 28], [20, 35], [40, 35], [20, 49, 1], [40, 49, 1], [30, 56, 1], [20, 64, 1], [40, 64, 1]],
};

/**
 * An <svg> of one card. `text` null/undefined → the back.
 * options: {wild: bool (mark the wild card), className}
 */
export function cardSvg(text, options = {}) {
  const card = text ? parseCard(text) : null;
  const svg = el("svg", { viewBox: "0 0 60 84", class: `playing-card ${options.className || ""}`.trim() });
  svg.setAttribute("role", "img");
  if (!card) {
    svg.classList.add("card-back");
    svg.setAttribute("aria-label", gettext("a face-down card"));
    const id = `cb${++uid}`;
    const defs = el("defs");
    const pattern = el("pattern", { id, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    pattern.append(el("rect", { width: 8, height: 8, fill: "#8c1d2b" }));
    pattern.append(el("rect", { width: 4, height: 4, fill: "#a8283a" }));
    pattern.append(el("circle", { cx: 6, cy: 6, r: 1, fill: "#e2b84b", opacity: 0.55 }));
    defs.append(pattern);
    svg.append(defs);
    svg.append(el("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fdfaf2", stroke: "#2b2b2b", "stroke-opacity": 0.35 }));
    svg.append(el("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: `url(#${id})` }));
    svg.append(el("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, fill: "none", stroke: "#e2b84b", "stroke-width": 1, "stroke-opacity": 0.7 }));
    svg.append(el("text", { x: 30, y: 48, "text-anchor": "middle", "font-size": 16, fill: "#f3cd62", "font-weight": 700, opacity: 0.9 }, "S"));
    return svg;
  }
  const colour = isRed(card.suit) ? "#c62828" : "#1b1b1b";
  svg.classList.add("card-face", isRed(card.suit) ? "card-red" : "card-black");
  svg.dataset.card = cardText(card);
  svg.setAttribute("aria-label", cardLabel(card) + (options.wild ? " (wild)" : ""));
  svg.append(el("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 5, fill: "#fdfaf2", stroke: "#2b2b2b", "stroke-opacity": 0.35 }));
  const font = 'system-ui, "DejaVu Sans", sans-serif';
  const corner = (transform) => {
    const g = el("g", { transform, fill: colour, "font-family": font });
    g.append(el("text", { x: 7, y: 15, "text-anchor": "middle", "font-size": card.rank === "10" ? 11 : 13, "font-weight": 700, "letter-spacing": card.rank === "10" ? -1 : 0 }, card.rank));
    g.append(el("text", { x: 7, y: 25, "text-anchor": "middle", "font-size": 10 }, card.suit));
    return g;
  };
  svg.append(corner(""));
  svg.append(corner("rotate(180 30 42)"));
  const pips = PIPS[card.rank];
  if (pips) {
    for (const [x, y, flip] of pips) {
      svg.append(el("text", {
        x, y: y + 4, "text-anchor": "middle", "font-size": 12, fill: colour, "font-family": font,
        transform: flip ? `rotate(180 ${x} ${y})` : "",
      }, card.suit));
    }
  } else {
    // Pictures and the ace: a framed centre with the big suit (the ace) or the letter over the suit.
    if (card.rank === "A") {
      svg.append(el("text", { x: 30, y: 54, "text-anchor": "middle", "font-size": 34, fill: colour, "font-family": font }, card.suit));
    } else {
      svg.append(el("rect", { x: 14, y: 16, width: 32, height: 52, rx: 3, fill: isRed(card.suit) ? "#fbe9e7" : "#eceff1", stroke: colour, "stroke-width": 0.8 }));
      svg.append(el("text", { x: 30, y: 42, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: colour, "font-family": "Georgia, serif" }, card.rank));
      svg.append(el("text", { x: 30, y: 60, "text-anchor": "middle", "font-size": 14, fill: colour, "font-family": font }, card.suit));
    }
  }
  if (options.wild) {
    svg.classList.add("card-wild");
    svg.append(el("circle", { cx: 50, cy: 10, r: 6, fill: "#e2b84b", stroke: "#7a5a10", "stroke-width": 0.6 }));
    svg.append(el("text", { x: 50, y: 13, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#2a1f04", "font-family": font }, "W"));
  }
  return svg;
}

/** The family's deck in display order (suit by suit, low to high), as text like "A♥". */
export function deckOf(family) {
  const low = family === "bulgarian" ? 1 : 0;
  const out = [];
  for (const suit of SUITS) for (const rank of RANKS.slice(low)) out.push(rank + suit);
  return out;
}

export function wildOf(family) {
  return family === "bulgarian" ? "7♣" : "6♣";
}
