// The felt: the phase line, the seats on the oval, the hands, the levels and the last result.
import { cardSvg } from "../cards.js";
import { $, app, fmt, LOGGED_IN, node, SEAT_COUNT, WILD } from "./dom.js";
import { isClosed, legal, mySeat, st, table } from "./state.js";
import { send, setConn } from "./socket.js";
import { openChipsDialog, renderSeatTools } from "./chips.js";
import { renderActions, renderPrompt } from "./prompts.js";
import { renderChatState } from "./chat.js";

const PHASE_NAMES = {
  waiting: "Between deals", betting: "Betting", blind_round: "Blind round", dark_round: "Dark betting",
  showdown: "Showdown", split_choice: "Split or play on?", svara_buy_in: "Svara: buy-in offers",
};
let lastResultShown = null;   // deal_no of the result already animated

// Where seat i sits on the oval: the viewer's seat (or seat 0) at the bottom, the rest clockwise.
function seatAngle(i) {
  const base = mySeat() != null ? mySeat() : 0;
  return Math.PI / 2 + ((i - base + SEAT_COUNT) % SEAT_COUNT) * (2 * Math.PI / SEAT_COUNT);
}

export function render() {
  const s = st();
  if (!s) return;
  app.dataset.phase = s.phase;
  app.classList.toggle("is-seated", mySeat() != null);
  $("pot-amount").textContent = fmt(s.pot || 0);
  renderPhase();
  renderSeats();
  renderResult();
  renderPrompt();
  renderActions();
  renderSeatTools();
  renderChatState();
  if (isClosed()) {
    setConn("closed", "Table closed");
    $("phase").textContent = "This table is closed.";
  }
}

function renderPhase() {
  const s = st();
  let text = PHASE_NAMES[s.phase] || s.phase;
  if (s.svara_chain) text = `Svara ${s.svara_chain > 1 ? "×" + s.svara_chain : ""} · ${text}`;
  if (s.turn != null && s.seats[s.turn]) {
    text += s.turn === mySeat() ? " · your turn" : ` · ${s.seats[s.turn].name}`;
  }
  if (s.phase !== "waiting" && s.bet_level) text += ` · level ${fmt(s.bet_level)}`;
  $("phase").textContent = text;
}

function renderSeats() {
  const s = st();
  const snap = table.snap;
  const seats = $("seats");
  seats.replaceChildren();
  const clockSeats = snap.clock ? snap.clock.seats || [] : [];
  for (let i = 0; i < SEAT_COUNT; i++) {
    const seat = s.seats[i];
    const angle = seatAngle(i);
    const x = 50 + 44 * Math.cos(angle);
    const y = 50 + 41 * Math.sin(angle);
    const box = node("div", "seat");
    box.dataset.seat = i;
    box.style.left = `${x}%`;
    box.style.top = `${y}%`;
    if (!seat) {
      box.classList.add("seat-empty");
      if (mySeat() == null && LOGGED_IN && snap.table.status !== "closed") {
        const b = node("button", "btn btn-small sit-here", "Sit here");
        b.type = "button";
        b.addEventListener("click", () => openChipsDialog("sit", i));
        box.append(b);
      } else {
        box.append(node("span", "seat-free muted", LOGGED_IN || mySeat() != null ? "empty" : "free seat"));
      }
      seats.append(box);
      continue;
    }
    box.classList.add(`status-${seat.status}`);
    if (i === mySeat()) box.classList.add("seat-me");
    if (s.turn === i) box.classList.add("seat-turn");
    if (clockSeats.includes(i)) box.classList.add("seat-clock");

    const plate = node("div", "plate");
    plate.append(seatName(seat.name));
    const stack = node("div", "seat-stack num", fmt(seat.stack));
    stack.title = "Stack";
    plate.append(stack);
    const status = statusText(seat);
    if (status) plate.append(node("div", "seat-status", status));
    if (clockSeats.includes(i)) {
      const clock = node("div", "seat-clock-bar");
      clock.append(node("span", "seat-clock-fill"));
      plate.append(clock);
    }
    box.append(plate);

    if (seat.cards && seat.cards.some((c) => c !== undefined) && seat.status !== "waiting" && seat.in_deal !== false) {
      box.append(renderHand(seat, i));
    }
    if (seat.is_dealer || s.dealer === i) {
      const d = node("span", "dealer-button", "D");
      d.title = "Dealer";
      plate.append(d);  // the plate's top corner: clear of the stack digits and the cards
    }
    seats.append(box);

    if (seat.level) {
      const lx = 50 + 27 * Math.cos(angle);
      const ly = 50 + 24 * Math.sin(angle);
      const level = node("div", "level");
      level.dataset.seat = i;
      level.style.left = `${lx}%`;
      level.style.top = `${ly}%`;
      level.append(node("span", "chip-stack"));
      level.append(node("span", "num", fmt(seat.level)));
      level.title = `${seat.name}'s level`;
      seats.append(level);
    }
  }
}

// Bots' display names end in "(bot)"; on a plate that becomes a small badge, so a narrow seat keeps the name.
const BOT_SUFFIX = /\s*\(bot\)\s*$/i;
function seatName(name) {
  const el = node("div", "seat-name");
  el.title = name;
  if (BOT_SUFFIX.test(name)) {
    el.append(node("span", "seat-name-text", name.replace(BOT_SUFFIX, "")), " ", node("span", "bot-badge", "bot"));
  } else {
    el.textContent = name;
  }
  return el;
}

function statusText(seat) {
  if (seat.status === "folded") return "folded";
  if (seat.status === "all_in") return "all-in";
  if (seat.status === "sitting_out") return "sitting out";
  if (seat.status === "leaving") return "leaving";
  if (seat.shown && seat.hand_name) return seat.hand_name;
  if (seat.shown && seat.points != null) return `${seat.points} points`;
  if (seat.blind && !seat.has_looked) return "blind";
  if (st().phase === "waiting" && seat.ready) return "ready";
  return "";
}

function renderHand(seat, i) {
  const hand = node("div", "hand");
  const mine = i === mySeat();
  const openLegal = mine ? legal("open") : null;
  (seat.cards || [null, null, null]).forEach((card, index) => {
    const wrap = node(mine ? "button" : "span", "hand-card");
    wrap.dataset.index = index;
    if (card) wrap.classList.add("is-open");
    wrap.append(cardSvg(card, { wild: card === WILD || (card && card.replace("♣", "c") === WILD) }));
    if (mine) {
      wrap.type = "button";
      if (!card && openLegal) {
        wrap.classList.add("can-open");
        wrap.title = "Open this card";
        wrap.setAttribute("aria-label", `Open card ${index + 1}`);
        wrap.addEventListener("click", () => send({ type: "open", card: index }, "open"));
      } else {
        wrap.disabled = !card;
        wrap.tabIndex = card ? 0 : -1;
      }
    }
    hand.append(wrap);
  });
  if (seat.shown && seat.points != null) {
    hand.append(node("span", "hand-points num", seat.points));
  }
  return hand;
}

function renderResult() {
  const s = st();
  const result = $("result");
  const last = s.last_result;
  if (!last || s.phase !== "waiting") {
    result.replaceChildren();
    result.hidden = true;
    return;
  }
  result.hidden = false;
  if (lastResultShown === last.deal_no && result.childElementCount) return;
  lastResultShown = last.deal_no;
  result.replaceChildren();
  // The showdown in order: each shown hand appears in turn (CSS animation delay), then the winner.
  (last.shown || []).forEach((shown, n) => {
    const line = node("div", "shown-line");
    line.style.animationDelay = `${n * 0.6}s`;
    const who = s.seats[shown.seat];
    line.append(node("span", "shown-name", who ? who.name : `seat ${shown.seat + 1}`));
    const cards = node("span", "shown-cards");
    for (const c of shown.cards || []) cards.append(cardSvg(c, { wild: c === WILD }));
    line.append(cards);
    line.append(node("span", "shown-points num", shown.points));
    if (shown.hand_name) line.append(node("span", "shown-hand", shown.hand_name));
    result.append(line);
  });
  const winners = last.winners || [];
  const banner = node("div", "winner-line");
  banner.style.animationDelay = `${(last.shown || []).length * 0.6}s`;
  const names = winners.map((w) => (s.seats[w.seat] ? s.seats[w.seat].name : `seat ${w.seat + 1}`));
  const amounts = winners.map((w) => fmt(w.amount)).join(" + ");
  banner.textContent = last.kind === "split"
    ? `Split: ${names.join(" and ")} take ${amounts}`
    : `${names.join(", ")} wins ${amounts}`;
  if (last.rake) banner.append(node("span", "muted rake", ` (rake ${fmt(last.rake)})`));
  result.append(banner);
}
