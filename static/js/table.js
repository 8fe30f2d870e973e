// The table page: one WebSocket to /ws/tables/<id>/ (docs/protocol.md); every render comes from the last snapshot.
// The server is the truth: this page shows what the snapshot says and offers only the snapshot's legal actions.
import { cardSvg, wildOf } from "./cards.js";

const app = document.getElementById("table-app");
const TABLE_ID = Number(app.dataset.tableId);
const ANTE = Number(app.dataset.ante);
const MIN_BUY_IN_ANTES = Number(app.dataset.minBuyInAntes); // RULES §10, from tables/engine/rules.py
const MAX_STACK_ANTES = Number(app.dataset.maxStackAntes); // RULES §10, D15
const SEAT_COUNT = Number(app.dataset.seats);
const FAMILY = app.dataset.family;
const LOGGED_IN = app.dataset.loggedIn === "1";
const WILD = wildOf(FAMILY);
const $ = (id) => document.getElementById(id);

const PLAY_NAMES = {
  check: "Check", call: "Call", bet: "Bet", raise: "Raise", fold: "Fold", blind: "Blind", dark: "Dark bet",
  show: "Show", fold_hand: "Fold", split: "Split", play_on: "Play on", buy_in: "Buy in", decline: "Decline",
  new_deal: "New deal",
};
const CLOCK_NAMES = { move: "to act", show: "Show or fold", split: "Split or play on", svara_buy_in: "Svara buy-in", new_deal: "New deal" };
const PHASE_NAMES = {
  waiting: "Between deals", betting: "Betting", blind_round: "Blind round", dark_round: "Dark betting",
  showdown: "Showdown", split_choice: "Split or play on?", svara_buy_in: "Svara: buy-in offers",
};
const AMOUNT_KINDS = ["raise", "bet", "dark"];

let socket = null;
let snap = null;              // the last snapshot
let version = -1;
let clockEnd = null;          // performance.now() ms when the running clock ends
let retry = 0;
let reconnectTimer = null;
let messageNo = 0;
let amountKind = null;        // which legal amount the slider is set for
let lastResultShown = null;   // deal_no of the result already animated
const pending = new Map();    // id → what was asked (for the toast on error)

// ---------------------------------------------------------------- connection

function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${app.dataset.wsPath}`;
}

function setConn(state, text) {
  const conn = $("conn");
  conn.dataset.state = state;
  conn.querySelector(".conn-text").textContent = text;
  $("lost-banner").hidden = state !== "lost";
  app.classList.toggle("is-offline", state === "lost");
}

function connect() {
  clearTimeout(reconnectTimer);
  setConn(retry ? "lost" : "connecting", retry ? "Reconnecting…" : "Connecting…");
  socket = new WebSocket(wsUrl());
  socket.addEventListener("open", () => {
    retry = 0;
    setConn("live", "Live");
  });
  socket.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    receive(msg);
  });
  socket.addEventListener("close", () => {
    if (snap && snap.table && snap.table.status === "closed") {
      setConn("closed", "Table closed");
      return;
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  // Exponential backoff with jitter: 0.5 s, 1 s, 2 s … at most 10 s.
  const delay = Math.min(10000, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
  retry += 1;
  setConn("lost", `Connection lost — retrying in ${Math.ceil(delay / 1000)} s`);
  $("lost-banner").textContent = `Connection lost — reconnecting in ${Math.ceil(delay / 1000)} s…`;
  reconnectTimer = setTimeout(connect, delay);
}

function send(message, label) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast("Not connected: wait for the connection to come back.");
    return null;
  }
  const id = `m${Date.now().toString(36)}-${++messageNo}`;
  pending.set(id, label || message.type);
  socket.send(JSON.stringify({ ...message, id }));
  return id;
}

function receive(msg) {
  switch (msg.type) {
    case "snapshot": {
      if (snap && msg.version <= version && msg.seat === snap.seat) return;  // stale or repeated
      const first = snap === null;
      snap = msg;
      version = msg.version;
      clockEnd = msg.clock && msg.clock.seconds_left != null ? performance.now() + msg.clock.seconds_left * 1000 : null;
      render();
      if (first) seedLog(msg.state && msg.state.last_result);
      break;
    }
    // A version gap needs no request: every event is followed by its snapshot, and every snapshot is whole
    // (docs/protocol.md, "Versions").
    case "event":
      for (const event of msg.events || []) logEvent(event);
      break;
    case "ack":
      afterAck(pending.get(msg.id));
      pending.delete(msg.id);
      break;
    case "error":
      pending.delete(msg.id);
      toast(msg.message || msg.code);
      break;
    case "chat":
      addChat(msg);
      break;
    default:
      break;
  }
}

function requestSnapshot() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "snapshot" }));
}
// After a long silence (a tab in the background may have been throttled), one fresh snapshot.
document.addEventListener("visibilitychange", () => { if (!document.hidden) requestSnapshot(); });

function afterAck(label) {
  if (["sit", "stand", "add_chips"].includes(label)) refreshBalance();
}

async function refreshBalance() {
  try {
    const response = await fetch(app.dataset.balanceUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const body = await response.json();
    const el = document.getElementById("user-balance");
    if (el && body.balance != null) el.textContent = Number(body.balance).toLocaleString("en-US");
  } catch { /* the figure refreshes on the next page load */ }
}

// ---------------------------------------------------------------- helpers

function st() { return snap ? snap.state : null; }
function mySeat() { return snap ? snap.seat : null; }
function me() { const s = st(); return s && mySeat() != null ? s.seats[mySeat()] : null; }
function legal(kind) { return snap ? (snap.legal || []).find((l) => l.kind === kind) : undefined; }
function fmt(n) { return Number(n).toLocaleString("en-US"); }
function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

// Where seat i sits on the oval: the viewer's seat (or seat 0) at the bottom, the rest clockwise.
function seatAngle(i) {
  const base = mySeat() != null ? mySeat() : 0;
  return Math.PI / 2 + ((i - base + SEAT_COUNT) % SEAT_COUNT) * (2 * Math.PI / SEAT_COUNT);
}

// ---------------------------------------------------------------- rendering

function render() {
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
  if (snap.table && snap.table.status === "closed") {
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

function renderPrompt() {
  // Dialogs with their own clocks: Show/Fold, Split/Play on, the svara buy-in offer.
  const prompt = $("prompt");
  const s = st();
  const pairs = [["show", "fold_hand"], ["split", "play_on"], ["buy_in", "decline"]];
  const found = pairs.find(([a, b]) => legal(a) || legal(b));
  if (!found) { prompt.hidden = true; prompt.replaceChildren(); return; }
  prompt.hidden = false;
  prompt.replaceChildren();
  prompt.dataset.kind = found[0];
  let title = "";
  let text = "";
  if (found[0] === "show") {
    title = "Show or fold?";
    text = "Your hand does not beat the best one shown. Show it, or fold it unseen.";
  } else if (found[0] === "split") {
    title = "A tie on top";
    text = "Split the pot, or play on in a svara? You play on if either of you wants to.";
  } else {
    title = "Svara!";
    const price = s.svara ? s.svara.price : null;
    text = price != null ? `Buy into the svara for ${fmt(price)} chips?` : "Buy into the svara?";
  }
  prompt.append(node("h2", "prompt-title", title));
  prompt.append(node("p", "prompt-text", text));
  const clock = node("div", "prompt-clock num");
  clock.id = "prompt-clock";
  prompt.append(clock);
  const row = node("div", "prompt-actions");
  found.forEach((kind, n) => {
    if (!legal(kind)) return;
    const b = node("button", `btn ${n === 0 ? "btn-primary" : "btn-ghost"}`, PLAY_NAMES[kind]);
    b.type = "button";
    b.dataset.action = kind;
    b.addEventListener("click", () => send({ type: kind }, kind));
    row.append(b);
  });
  prompt.append(row);
}

function renderActions() {
  const bar = $("action-buttons");
  bar.replaceChildren();
  const s = st();
  const mine = me();
  const seat = mySeat();
  const info = $("my-info");
  info.replaceChildren();
  if (seat == null) {
    info.append(node("span", "muted", LOGGED_IN ? "You are watching. Pick an empty seat to sit down." : "You are watching."));
    if (!LOGGED_IN) {
      const a = node("a", "btn btn-small btn-primary", "Log in to play");
      a.href = app.dataset.loginUrl;
      info.append(a);
    }
  } else if (mine) {
    info.append(node("span", "", `Seat ${seat + 1} · stack `));
    info.append(node("strong", "num", fmt(mine.stack)));
    if (mine.level) info.append(node("span", "muted", ` · your level ${fmt(mine.level)}`));
  }
  const playable = ["check", "call", "blind", "dark", "bet", "raise", "fold", "new_deal"];
  const kinds = playable.filter((k) => legal(k));
  // The amount slider follows raise, else bet, else dark.
  const withAmount = AMOUNT_KINDS.find((k) => legal(k) && legal(k).min != null && legal(k).max != null && legal(k).max > legal(k).min);
  setupAmount(withAmount);
  for (const kind of kinds) {
    const l = legal(kind);
    let label = PLAY_NAMES[kind];
    if (kind === "call" && l.min != null && mine) label = `Call ${fmt(Math.max(0, l.min - (mine.level || 0)))}`;
    // A player who has looked doubles openly: the move is still `blind`, but it unblinds the round (RULES §4).
    const looked = mine && (mine.has_looked || mine.opened > 0);
    if (kind === "blind" && l.min != null) label = looked ? `Bet ${fmt(l.min)} (unblind)` : `Blind ${fmt(l.min)}`;
    if (AMOUNT_KINDS.includes(kind)) label = kind === withAmount ? `${PLAY_NAMES[kind]} to` : `${PLAY_NAMES[kind]} ${fmt(l.min)}`;
    if (kind === "dark" && looked) label = kind === withAmount ? "Bet to" : `Bet ${fmt(l.min)}`;
    const b = node("button", "btn action", label);
    b.type = "button";
    b.dataset.action = kind;
    if (kind === "fold") b.classList.add("btn-danger");
    else if (["raise", "bet", "dark", "new_deal"].includes(kind)) b.classList.add("btn-primary");
    if (kind === withAmount) {
      const amount = node("span", "num action-amount");
      amount.id = "action-amount";
      amount.textContent = ` ${fmt(currentAmount())}`;
      b.append(amount);
    }
    b.addEventListener("click", () => doAction(kind));
    bar.append(b);
  }
  if (!kinds.length && seat != null && s.phase !== "waiting") {
    bar.append(node("span", "muted waiting-note", s.turn != null && s.seats[s.turn] ? `Waiting for ${s.seats[s.turn].name}…` : "Waiting…"));
  }
  const myTurn = kinds.some((k) => k !== "new_deal");
  $("action-bar").classList.toggle("my-turn", myTurn);
  app.classList.toggle("my-turn", myTurn);
}

function doAction(kind) {
  const l = legal(kind);
  if (!l) return;
  const message = { type: kind };
  if (AMOUNT_KINDS.includes(kind)) {
    message.amount = kind === amountKind ? currentAmount() : l.min;
  }
  send(message, kind);
}

function setupAmount(kind) {
  const box = $("amount-box");
  if (!kind) { box.hidden = true; amountKind = null; return; }
  const l = legal(kind);
  const range = $("amount-range");
  const number = $("amount-number");
  box.hidden = false;
  const changed = amountKind !== kind || Number(range.min) !== l.min || Number(range.max) !== l.max;
  amountKind = kind;
  range.min = number.min = l.min;
  range.max = number.max = l.max;
  if (changed) range.value = number.value = l.min;
}

function currentAmount() {
  const l = amountKind && legal(amountKind);
  if (!l) return 0;
  let v = Math.round(Number($("amount-number").value));
  if (!Number.isFinite(v)) v = l.min;
  return Math.min(l.max, Math.max(l.min, v));  // held between the engine's min and max
}

function setAmount(v) {
  const l = amountKind && legal(amountKind);
  if (!l) return;
  const clamped = Math.min(l.max, Math.max(l.min, Math.round(v)));
  $("amount-range").value = clamped;
  $("amount-number").value = clamped;
  const label = $("action-amount");
  if (label) label.textContent = ` ${fmt(clamped)}`;
}

$("amount-range").addEventListener("input", (e) => setAmount(Number(e.target.value)));
$("amount-number").addEventListener("input", (e) => {
  const label = $("action-amount");
  if (label) label.textContent = ` ${fmt(currentAmount())}`;
  $("amount-range").value = currentAmount();
});
$("amount-number").addEventListener("change", () => setAmount(currentAmount()));
$("quick").addEventListener("click", (e) => {
  const b = e.target.closest("[data-quick]");
  if (!b || !amountKind) return;
  const l = legal(amountKind);
  const level = (me() && me().level) || 0;
  const pot = st().pot || 0;
  const pick = { min: l.min, max: l.max, half: level + Math.floor(pot / 2), pot: level + pot }[b.dataset.quick];
  setAmount(pick);
});

function renderSeatTools() {
  const tools = $("seat-tools");
  tools.replaceChildren();
  const mine = me();
  if (!mine) return;
  const s = st();
  const between = s.phase === "waiting";
  const add = (label, handler, cls = "btn-ghost") => {
    const b = node("button", `btn btn-small ${cls}`, label);
    b.type = "button";
    b.addEventListener("click", handler);
    tools.append(b);
    return b;
  };
  if (between && mine.stack < MAX_STACK_ANTES * ANTE) add("Add chips", () => openChipsDialog("add_chips")).dataset.tool = "add_chips";
  if (mine.status === "sitting_out") add("I'm back", () => send({ type: "back" }, "back")).dataset.tool = "back";
  else if (mine.status !== "leaving") add("Sit out", () => send({ type: "sit_out" }, "sit_out")).dataset.tool = "sit_out";
  add("Stand up", () => {
    if (s.phase !== "waiting" && mine.in_deal && !["folded"].includes(mine.status) &&
        !window.confirm("Standing up now folds your hand. Stand up?")) return;
    send({ type: "stand" }, "stand");
  }).dataset.tool = "stand";
}

// ---------------------------------------------------------------- the buy-in / add-chips dialog

let chipsMode = null;
let chipsSeat = null;

function openChipsDialog(mode, seat) {
  chipsMode = mode;
  chipsSeat = seat ?? null;
  const dialog = $("chips-dialog");
  const range = $("chips-range");
  const number = $("chips-number");
  const balanceEl = document.getElementById("user-balance");
  const balance = balanceEl ? Number(String(balanceEl.textContent).replace(/[^0-9]/g, "")) : NaN;
  let min;
  let max;
  if (mode === "sit") {
    min = MIN_BUY_IN_ANTES * ANTE;
    max = MAX_STACK_ANTES * ANTE;
    $("chips-title").textContent = `Sit at seat ${seat + 1}`;
    $("chips-help").textContent = `Buy-in: ${fmt(min)}–${fmt(max)} chips (${MIN_BUY_IN_ANTES}–${MAX_STACK_ANTES} antes) from your balance.`;
    $("chips-ok").textContent = "Sit down";
  } else {
    min = 1;
    max = MAX_STACK_ANTES * ANTE - (me() ? me().stack : 0);
    $("chips-title").textContent = "Add chips";
    $("chips-help").textContent = `Your stack may hold up to ${fmt(MAX_STACK_ANTES * ANTE)} chips (${MAX_STACK_ANTES} antes).`;
    $("chips-ok").textContent = "Add";
  }
  if (Number.isFinite(balance) && balance >= min) max = Math.min(max, balance);
  range.min = number.min = min;
  range.max = number.max = max;
  const start = mode === "sit" ? Math.min(max, 50 * ANTE) : max;
  range.value = number.value = Math.max(min, start);
  $("chips-error").hidden = true;
  if (Number.isFinite(balance) && balance < min) {
    $("chips-error").textContent = `Your balance (${fmt(balance)}) is below the ${fmt(min)} needed.`;
    $("chips-error").hidden = false;
  }
  dialog.showModal();
  number.focus();
}

$("chips-range").addEventListener("input", (e) => { $("chips-number").value = e.target.value; });
$("chips-number").addEventListener("input", (e) => { $("chips-range").value = e.target.value; });
$("chips-cancel").addEventListener("click", () => $("chips-dialog").close());
$("chips-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const number = $("chips-number");
  const amount = Math.round(Number(number.value));
  const min = Number(number.min);
  const max = Number(number.max);
  if (!Number.isFinite(amount) || amount < min || amount > max) {
    $("chips-error").textContent = `Choose a whole number from ${fmt(min)} to ${fmt(max)}.`;
    $("chips-error").hidden = false;
    return;
  }
  const message = chipsMode === "sit" ? { type: "sit", amount, seat: chipsSeat } : { type: "add_chips", amount };
  send(message, chipsMode);
  $("chips-dialog").close();
});

// ---------------------------------------------------------------- chat and log

function renderChatState() {
  const open = st().phase === "waiting";
  const input = $("chat-input");
  const canChat = open && (mySeat() != null || LOGGED_IN);
  input.disabled = !canChat;
  input.placeholder = !LOGGED_IN ? "Log in to chat" : open ? "Say something…" : "Between deals";
  $("chat-form").querySelector("button").disabled = !canChat;
}

function addChat(msg) {
  const line = node("li", "chat-line");
  line.append(node("span", "chat-who", msg.user || "?"));
  line.append(node("span", "chat-text", msg.text));  // textContent: user text is never HTML
  const lines = $("chat-lines");
  lines.append(line);
  while (lines.childElementCount > 100) lines.firstElementChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

$("chat-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (send({ type: "chat", text }, "chat")) input.value = "";
});

function nameOf(seat) {
  const s = st();
  return s && seat != null && s.seats[seat] ? s.seats[seat].name : seat != null ? `seat ${seat + 1}` : "";
}

const EVENT_TEXT = {
  seated: (e) => `${e.name || nameOf(e.seat)} sits down with ${fmt(e.stack ?? e.amount ?? 0)}`,
  stood: (e) => `${nameOf(e.seat)} stands up`,
  deal_started: (e) => `Deal ${e.deal_no ?? ""} — dealer ${nameOf(e.dealer)}`,
  check: (e) => `${nameOf(e.seat)} checks`,
  bet: (e) => `${nameOf(e.seat)} bets ${fmt(e.amount ?? e.level ?? 0)}`,
  call: (e) => `${nameOf(e.seat)} calls`,
  raise: (e) => `${nameOf(e.seat)} raises to ${fmt(e.amount ?? e.level ?? 0)}`,
  fold: (e) => `${nameOf(e.seat)} folds`,
  blind: (e) => `${nameOf(e.seat)} goes blind ${fmt(e.amount ?? e.level ?? "")}`,
  dark: (e) => `${nameOf(e.seat)} bets ${fmt(e.amount ?? e.level ?? "")} in the dark`,
  all_in: (e) => `${nameOf(e.seat)} is all-in`,
  showdown_shown: (e) => `${nameOf(e.seat)} shows ${(e.cards || []).join(" ")} — ${e.points}${e.hand_name ? ` (${e.hand_name})` : ""}`,
  folded_unseen: (e) => `${nameOf(e.seat)} folds unseen`,
  split_chosen: (e) => `${nameOf(e.seat)} wants to split`,
  play_on_chosen: (e) => `${nameOf(e.seat)} wants to play on`,
  split: (e) => `The pot is split: ${(e.winners || []).map((w) => `${nameOf(w.seat)} ${fmt(w.amount)}`).join(", ")}`,
  svara: () => "Svara!",
  buy_in: (e) => `${nameOf(e.seat)} buys into the svara`,
  declined: (e) => `${nameOf(e.seat)} declines`,
  pot_awarded: (e) => `${(e.winners || []).map((w) => `${nameOf(w.seat)} takes ${fmt(w.amount)}`).join(", ")}${e.rake ? ` (rake ${fmt(e.rake)})` : ""}`,
  timeout: (e) => `Time is up${(e.seats || []).length ? ` for ${e.seats.map(nameOf).join(", ")}` : ""}`,
  svara_dealt: () => "The svara is dealt",
  sat_out: (e) => `${nameOf(e.seat)} sits out`,
  back: (e) => `${nameOf(e.seat)} is back`,
  chips_added: (e) => `${nameOf(e.seat)} adds ${fmt(e.amount)}`,
};

// After a reload the log is empty while the last result is still on the felt: start it with that result.
function seedLog(last) {
  const lines = $("log-lines");
  if (!last || lines.childElementCount) return;
  const winners = last.winners || [];
  if (!winners.length) return;
  const what = winners.map((w) => {
    const hand = w.hand_name ? ` (${w.hand_name})` : w.points != null ? ` (${w.points} points)` : "";
    return `${nameOf(w.seat)} ${last.kind === "split" ? "takes" : "wins"} ${fmt(w.amount)}${hand}`;
  }).join(", ");
  const deal = last.deal_no != null ? `Deal ${last.deal_no}: ` : "";
  lines.append(node("li", "log-line log-pot_awarded log-seeded", `${deal}${what}${last.rake ? ` (rake ${fmt(last.rake)})` : ""}`));
}

function logEvent(event) {
  const make = EVENT_TEXT[event.type];
  if (!make) return;
  let text;
  try { text = make(event); } catch { return; }
  const lines = $("log-lines");
  const line = node("li", `log-line log-${event.type}`, text);
  lines.append(line);
  while (lines.childElementCount > 60) lines.firstElementChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

// ---------------------------------------------------------------- clocks

function tick() {
  if (snap && snap.clock && clockEnd != null) {
    const left = Math.max(0, (clockEnd - performance.now()) / 1000);
    const total = snap.clock.seconds || (snap.state.clock && snap.state.clock.seconds) || Math.max(left, 1);
    const fraction = Math.max(0, Math.min(1, left / total));
    for (const fill of document.querySelectorAll(".seat-clock-fill")) {
      fill.style.width = `${fraction * 100}%`;
      fill.classList.toggle("hurry", left < 5 || fraction < 0.25);
    }
    const mine = (snap.clock.seats || []).includes(mySeat());
    const text = `${left.toFixed(left < 10 ? 1 : 0)} s`;
    const label = $("clock-label") || (() => {
      const l = node("div", "clock-label num");
      l.id = "clock-label";
      $("center").append(l);
      return l;
    })();
    label.hidden = false;
    label.textContent = `${CLOCK_NAMES[snap.clock.kind] || snap.clock.kind}: ${text}`;
    label.classList.toggle("mine", mine);
    label.classList.toggle("hurry", left < 5);
    const promptClock = $("prompt-clock");
    if (promptClock) promptClock.textContent = text;
  } else if ($("clock-label")) {
    $("clock-label").hidden = true;
  }
  requestAnimationFrame(tick);
}

// ---------------------------------------------------------------- keyboard

const help = $("help");
$("help-toggle").addEventListener("click", () => {
  help.hidden = !help.hidden;
  $("help-toggle").setAttribute("aria-expanded", String(!help.hidden));
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target instanceof HTMLElement && (target.closest("input, textarea, select, dialog[open]") )) return;
  const key = e.key.toLowerCase();
  const first = (...kinds) => kinds.find((k) => legal(k));
  let kind = null;
  if (key === "f") kind = first("fold", "fold_hand");
  else if (key === "c") kind = first("check", "call");
  else if (key === "b") kind = first("raise", "bet", "dark");
  else if (key === "l") kind = first("blind", "dark");
  else if (key === "s") kind = first("show");
  else if (key === "n") kind = first("new_deal");
  else if (key === "o") {
    const mine = me();
    if (mine && legal("open")) {
      const next = (mine.cards || []).findIndex((c) => !c);
      if (next >= 0) { send({ type: "open", card: next }, "open"); e.preventDefault(); }
    }
    return;
  } else if (key === "?") {
    $("help-toggle").click();
    return;
  } else if (key === "escape") {
    help.hidden = true;
    return;
  }
  if (kind) { e.preventDefault(); doAction(kind); }
});

connect();
requestAnimationFrame(tick);

// Arriving with #sit (the lobby's "Sit" and quick seat): offer the buy-in for the first free seat once we know it.
function offerSeatFromHash() {
  if (location.hash !== "#sit" || !LOGGED_IN) return;
  const wait = setInterval(() => {
    if (!snap) return;
    clearInterval(wait);
    history.replaceState(null, "", location.pathname);
    if (mySeat() != null) return;
    const free = snap.state.seats.findIndex((s) => !s);
    if (free >= 0) openChipsDialog("sit", free);
  }, 100);
}
offerSeatFromHash();

// For tests and the console: the last snapshot as received (what this viewer may see, nothing more).
window.svaraSnapshot = () => snap;
