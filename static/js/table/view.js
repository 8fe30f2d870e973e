// The felt: the phase line, the seats on the oval, the hands, the levels and the last result.
import { cardSvg } from "../cards.js";
import { $, app, fill, fmt, handName, LOGGED_IN, nameNode, node, SEAT_COUNT, WILD } from "./dom.js";
import { isBotSeat, isClosed, legal, mySeat, nameOf, st, table } from "./state.js";
import { send, setConn } from "./socket.js";
import { openChipsDialog, renderSeatTools } from "./chips.js";
import { renderActions, renderPrompt } from "./prompts.js";
import { renderChatState } from "./chat.js";
import { reasonText } from "./log.js";

const PHASE_NAMES = {
  waiting: gettext("Between deals"), betting: gettext("Betting"), blind_round: gettext("Blind round"),
  dark_round: gettext("Dark betting"), showdown: gettext("Showdown"), split_choice: gettext("Split or play on?"),
  svara_buy_in: gettext("Svara: buy-in offers"),
};
let lastResultShown = null;   // deal_no of the result already animated
let lastPot = null;
const openedBefore = new Map(); // seat → cards open at the last render (a newly opened card turns over)
const levelBefore = new Map();  // seat → level at the last render (chips pushed out move)

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
  const pot = $("pot-amount");
  pot.textContent = fmt(s.pot || 0);
  if (lastPot != null && (s.pot || 0) > lastPot) {
    // Chips to the pot: the pot pulses (a CSS animation, off under prefers-reduced-motion).
    pot.classList.remove("pot-grew");
    void pot.offsetWidth;
    pot.classList.add("pot-grew");
  }
  lastPot = s.pot || 0;
  renderPhase();
  renderSeats();
  renderResult();
  renderPrompt();
  renderActions();
  renderSeatTools();
  renderChatState();
  if (isClosed()) showClosed();
}

/** A closed table offers neither a seat nor chat: it says so. */
export function showClosed() {
  setConn("closed", gettext("Table closed"));
  app.classList.add("is-closed");
  $("phase").textContent = gettext("This table is closed.");
  $("closed-banner").hidden = false;
  $("seat-tools").replaceChildren();
  $("action-buttons").replaceChildren();
  for (const b of document.querySelectorAll(".sit-here")) b.remove();
  const input = $("chat-input");
  input.disabled = true;
  input.placeholder = gettext("The table is closed");
  $("chat-form").querySelector("button").disabled = true;
}

function renderPhase() {
  const s = st();
  let text = PHASE_NAMES[s.phase] || s.phase;
  if (s.svara_chain) text = `${gettext("Svara")} ${s.svara_chain > 1 ? "×" + s.svara_chain : ""} · ${text}`;
  if (s.turn != null && s.seats[s.turn]) {
    text += s.turn === mySeat() ? ` · ${gettext("your turn")}` : ` · ${s.seats[s.turn].name}`;
  }
  if (s.phase !== "waiting" && s.bet_level) text += ` · ${fill(gettext("level %(level)s"), { level: fmt(s.bet_level) })}`;
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
        const b = node("button", "btn btn-small sit-here", gettext("Sit here"));
        b.type = "button";
        b.addEventListener("click", () => openChipsDialog("sit", i));
        box.append(b);
      } else {
        box.append(node("span", "seat-free muted", LOGGED_IN || mySeat() != null ? gettext("empty") : gettext("free seat")));
      }
      seats.append(box);
      continue;
    }
    box.classList.add(`status-${seat.status}`);
    if (i === mySeat()) box.classList.add("seat-me");
    if (s.turn === i) box.classList.add("seat-turn");
    if (clockSeats.includes(i)) box.classList.add("seat-clock");
    const offline = seat.player != null && table.offline.has(String(seat.player));
    if (offline) box.classList.add("seat-offline");

    const plate = node("div", "plate");
    plate.append(nameNode(seat.name, seat.bot, "seat-name"));
    const stack = node("div", "seat-stack num", fmt(seat.stack));
    stack.title = gettext("Stack");
    plate.append(stack);
    const status = statusText(seat);
    if (status) plate.append(node("div", "seat-status", status));
    const badges = seatBadges(seat, offline);
    if (badges.childElementCount) plate.append(badges);
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
      d.title = gettext("Dealer");
      plate.append(d);  // the plate's top corner: clear of the stack digits and the cards
    }
    seats.append(box);
    const previousLevel = levelBefore.get(i);
    levelBefore.set(i, seat.level);

    if (seat.level) {
      const lx = 50 + 27 * Math.cos(angle);
      const ly = 50 + 24 * Math.sin(angle);
      const level = node("div", "level");
      if (previousLevel !== seat.level) level.classList.add("grew");
      level.dataset.seat = i;
      level.style.left = `${lx}%`;
      level.style.top = `${ly}%`;
      level.append(node("span", "chip-stack"));
      level.append(node("span", "num", fmt(seat.level)));
      level.title = fill(gettext("%(name)s's level"), { name: seat.name });
      seats.append(level);
    }
  }
}

function statusText(seat) {
  if (seat.status === "folded") return gettext("folded");
  if (seat.status === "all_in") return gettext("all-in");
  if (seat.status === "sitting_out") return gettext("sitting out");
  if (seat.status === "leaving") return gettext("leaving");
  if (seat.shown && seat.hand_name) return handName(seat.hand_name);
  if (seat.shown && seat.points != null) return fill(ngettext("%(points)s point", "%(points)s points", seat.points), { points: seat.points });
  if (st().phase === "waiting" && seat.ready) return gettext("ready");
  return "";
}

// Who has looked (the heart of blind play, RULES §3–§5) and who is offline, at a glance on every plate.
function seatBadges(seat, offline) {
  const row = node("div", "seat-badges");
  if (seat.in_deal && !seat.shown && seat.status !== "folded") {
    const opened = seat.opened || 0;
    const looked = node("span", `badge badge-looked${opened ? " has-looked" : ""}`,
      opened === 0 ? (seat.blind ? gettext("blind") : gettext("not looked")) : fill(gettext("looked %(opened)s/3"), { opened }));
    looked.dataset.opened = opened;
    looked.title = opened ? fill(gettext("Has opened %(opened)s of 3 cards"), { opened }) : gettext("Has not looked at his cards");
    row.append(looked);
  }
  if (offline) {
    const b = node("span", "badge badge-offline", gettext("offline"));
    b.title = gettext("No connection: stands up after 2 minutes (RULES §9)");
    row.append(b);
  }
  return row;
}

function renderHand(seat, i) {
  const hand = node("div", "hand");
  const mine = i === mySeat();
  const openLegal = mine ? legal("open") : null;
  const before = openedBefore.get(i) || 0;
  openedBefore.set(i, (seat.cards || []).filter(Boolean).length);
  (seat.cards || [null, null, null]).forEach((card, index) => {
    const wrap = node(mine ? "button" : "span", "hand-card");
    wrap.dataset.index = index;
    if (card) wrap.classList.add("is-open");
    if (card && before < openedBefore.get(i)) wrap.classList.add("turning");  // a card turning over
    wrap.append(cardSvg(card, { wild: card === WILD || (card && card.replace("♣", "c") === WILD) }));
    if (mine) {
      wrap.type = "button";
      if (!card && openLegal) {
        wrap.classList.add("can-open");
        wrap.title = gettext("Open this card");
        wrap.setAttribute("aria-label", fill(gettext("Open card %(n)s"), { n: index + 1 }));
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
  // The showdown in the order the hands were shown (the log's order): each appears in turn, then the winner.
  (last.shown || []).forEach((shown, n) => {
    const line = node("div", "shown-line");
    line.dataset.seat = shown.seat;
    line.style.animationDelay = `${n * 0.6}s`;
    line.append(nameNode(nameOf(shown.seat), isBotSeat(shown.seat), "shown-name"));
    const cards = node("span", "shown-cards");
    for (const c of shown.cards || []) cards.append(cardSvg(c, { wild: c === WILD }));
    line.append(cards);
    line.append(node("span", "shown-points num", shown.points));
    if (shown.hand_name) line.append(node("span", "shown-hand", handName(shown.hand_name)));
    result.append(line);
  });
  const winners = last.winners || [];
  const banner = node("div", "winner-line");
  banner.style.animationDelay = `${(last.shown || []).length * 0.6}s`;
  winners.forEach((w, n) => {
    if (n) banner.append(last.kind === "split" ? ` ${gettext("and")} ` : ", ");
    const name = table.playerNames.get(String(w.player)) || nameOf(w.seat);
    banner.append(nameNode(name, isBotSeat(w.seat), "winner-name"));
  });
  const amounts = winners.map((w) => fmt(w.amount)).join(" + ");
  banner.append(" ", last.kind === "split" ? fill(gettext("take %(amounts)s"), { amounts })
    : fill(ngettext("wins %(amounts)s", "win %(amounts)s", winners.length), { amounts }));
  if (last.rake) banner.append(node("span", "muted rake", ` ${fill(gettext("(rake %(amount)s)"), { amount: fmt(last.rake) })}`));
  result.append(banner);
  const reason = node("div", "result-reason", reasonText(last.reason, winners));
  reason.style.animationDelay = banner.style.animationDelay;
  result.append(reason);
}
