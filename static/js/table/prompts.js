// What you may do now: the prompts with their own clocks (Show/Fold, Split/Play on, the svara buy-in), the action
// bar with its amount, and the keyboard. Only the snapshot's legal actions are offered.
import { $, app, fmt, LOGGED_IN, node } from "./dom.js";
import { legal, me, mySeat, st } from "./state.js";
import { send } from "./socket.js";

export const PLAY_NAMES = {
  check: "Check", call: "Call", bet: "Bet", raise: "Raise", fold: "Fold", blind: "Blind", dark: "Dark bet",
  show: "Show", fold_hand: "Fold", split: "Split", play_on: "Play on", buy_in: "Buy in", decline: "Decline",
  new_deal: "New deal",
};
const AMOUNT_KINDS = ["raise", "bet", "dark"];
let amountKind = null;        // which legal amount the slider is set for

export function renderPrompt() {
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

export function renderActions() {
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

export function setupActions() {
  $("amount-range").addEventListener("input", (e) => setAmount(Number(e.target.value)));
  $("amount-number").addEventListener("input", () => {
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
  setupKeyboard();
}

function setupKeyboard() {
  const help = $("help");
  $("help-toggle").addEventListener("click", () => {
    help.hidden = !help.hidden;
    $("help-toggle").setAttribute("aria-expanded", String(!help.hidden));
  });
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target instanceof HTMLElement && (target.closest("input, textarea, select, dialog[open]"))) return;
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
}
