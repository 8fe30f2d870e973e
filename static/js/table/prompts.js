// What you may do now: the prompts with their own clocks (Show/Fold, Split/Play on, the svara buy-in), the action
// bar with its amount, and the keyboard. Only the snapshot's legal actions are offered.
import { $, app, fill, fmt, LOGGED_IN, node } from "./dom.js";
import { legal, me, mySeat, nameOf, st, table } from "./state.js";
import { send } from "./socket.js";
import { freshSeed } from "./fair.js";

// The buttons' words; a button is found by its data-action (the protocol's kind), never by its label.
export const PLAY_NAMES = {
  check: gettext("Check"), call: gettext("Call"), bet: gettext("Bet"), raise: gettext("Raise"), fold: gettext("Fold"),
  blind: gettext("Blind"), dark: gettext("Dark bet"), show: gettext("Show"), fold_hand: gettext("Fold"),
  split: gettext("Split"), play_on: gettext("Play on"), buy_in: gettext("Buy in"), decline: gettext("Decline"),
  new_deal: gettext("New deal"),
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
    title = gettext("Show or fold?");
    text = gettext("Your hand does not beat the best one shown. Show it, or fold it unseen.");
  } else if (found[0] === "split") {
    title = gettext("A tie on top");
    text = gettext("Split the pot, or play on in a svara? You play on if either of you wants to.");
  } else {
    title = gettext("Svara!");
    const price = s.svara ? s.svara.price : null;
    text = price != null ? fill(ngettext("Buy into the svara for %(price)s chip?", "Buy into the svara for %(price)s chips?", price), { price: fmt(price) }) : gettext("Buy into the svara?");
  }
  prompt.append(node("h2", "prompt-title", title));
  prompt.append(node("p", "prompt-text", text));
  // A visible countdown: the rules' clock (RULES §9) answers for you when it runs out.
  const clock = node("div", "prompt-clock num");
  clock.id = "prompt-clock";
  prompt.append(clock);
  const bar = node("div", "prompt-clock-bar");
  const clockFill = node("span", "prompt-clock-fill");
  clockFill.id = "prompt-clock-fill";
  bar.append(clockFill);
  prompt.append(bar);
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
  const noAnswer = { show: gettext("fold unseen"), split: gettext("split"), buy_in: gettext("declined") }[found[0]];
  prompt.append(node("p", "prompt-note muted", fill(gettext("No answer in time: %(what)s. Answer ahead under the table."), { what: noAnswer })));
}

// The highest level this seat can reach: its level plus its stack (an amount there is all-in).
function top() { const m = me(); return m ? (m.level || 0) + m.stack : 0; }

export function renderActions() {
  const bar = $("action-buttons");
  bar.replaceChildren();
  const s = st();
  const mine = me();
  const seat = mySeat();
  const info = $("my-info");
  info.replaceChildren();
  if (seat == null) {
    info.append(node("span", "muted", LOGGED_IN ? gettext("You are watching. Pick an empty seat to sit down.") : gettext("You are watching.")));
    if (!LOGGED_IN) {
      const a = node("a", "btn btn-small btn-primary", gettext("Log in to play"));
      a.href = app.dataset.loginUrl;
      info.append(a);
    }
  } else if (mine) {
    info.append(node("span", "", `${fill(gettext("Seat %(n)s · stack"), { n: seat + 1 })} `));
    info.append(node("strong", "num my-stack", fmt(mine.stack)));
    if (mine.level) info.append(node("span", "muted", ` · ${fill(gettext("your level %(level)s"), { level: fmt(mine.level) })}`));
  }
  const playable = ["check", "call", "blind", "dark", "bet", "raise", "fold", "new_deal"];
  const kinds = playable.filter((k) => legal(k));
  const ranged = (k) => legal(k) && legal(k).min != null && legal(k).max != null && legal(k).max > legal(k).min;
  // The shared amount box follows raise, else bet; a dark bet with a choice (D7) gets its own amount beside it.
  setupAmount(["raise", "bet"].find(ranged) || (ranged("dark") && !legal("bet") ? "dark" : undefined));
  const darkOwn = ranged("dark") && amountKind !== "dark";
  const looked = mine && (mine.has_looked || mine.opened > 0);
  for (const kind of kinds) {
    const l = legal(kind);
    let label = PLAY_NAMES[kind];
    if (kind === "call" && l.min != null && mine) {
      label = l.min >= top() ? fill(gettext("Call all-in %(amount)s"), { amount: fmt(l.min - (mine.level || 0)) })
        : fill(gettext("Call %(amount)s"), { amount: fmt(Math.max(0, l.min - (mine.level || 0))) });
    }
    // A player who has looked doubles openly: the move is still `blind`, but it unblinds the round (RULES §4).
    const at = { amount: fmt(l.min) };
    if (kind === "blind" && l.min != null) label = looked ? fill(gettext("Bet %(amount)s (unblind)"), at) : fill(gettext("Blind %(amount)s"), at);
    if (kind === "blind" && l.min != null && l.min >= top()) {
      label = looked ? fill(gettext("All-in %(amount)s (unblind)"), at) : fill(gettext("All-in %(amount)s blind"), at);
    }
    if (AMOUNT_KINDS.includes(kind)) {
      const named = kind === "dark" && looked ? PLAY_NAMES.bet : PLAY_NAMES[kind];
      label = kind === amountKind || (kind === "dark" && darkOwn) ? fill(gettext("%(move)s to"), { move: named })
        : fill(gettext("%(move)s %(amount)s"), { move: named, amount: fmt(l.min) });
      if (!(kind === amountKind || (kind === "dark" && darkOwn)) && l.min >= top()) label = fill(gettext("All-in %(amount)s"), at);
    }
    const b = node("button", "btn action", label);
    b.type = "button";
    b.dataset.action = kind;
    if (kind === "fold") b.classList.add("btn-danger");
    else if (["raise", "bet", "dark", "new_deal"].includes(kind)) b.classList.add("btn-primary");
    if (kind === amountKind) {
      const amount = node("span", "num action-amount");
      amount.id = "action-amount";
      b.append(amount);
    }
    b.addEventListener("click", () => doAction(kind));
    if (kind === "dark" && darkOwn) {
      const group = node("span", "dark-group");
      const input = node("input", "dark-amount num");
      input.type = "number";
      input.id = "dark-amount";
      input.min = l.min;
      input.max = l.max;
      input.step = 1;
      input.inputMode = "numeric";
      input.value = darkValue != null && darkValue >= l.min && darkValue <= l.max ? darkValue : l.min;
      input.setAttribute("aria-label", fill(gettext("Dark bet: your level, %(min)s to %(max)s (D7)"), { min: l.min, max: l.max }));
      input.title = fill(gettext("Dark bet: %(min)s (one ante) to %(max)s (the pot), D7"), { min: fmt(l.min), max: fmt(l.max) });
      input.addEventListener("input", () => { darkValue = input.value; typed.dark = true; confirming = null; refreshAmounts(); });
      input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); doAction("dark"); } });
      group.append(b, input);
      bar.append(group);
    } else {
      bar.append(b);
    }
  }
  if (!kinds.length && seat != null && s.phase !== "waiting") {
    const clock = table.snap.clock;
    const waitingOn = clock ? (clock.seats || []).filter((i) => i !== seat) : [];
    if (clock && (clock.seats || []).includes(seat)) {
      // The prompt above asks you; never "Waiting for <you>".
    } else if (waitingOn.length) {
      bar.append(node("span", "muted waiting-note",
        fill(gettext("Waiting for %(names)s…"), { names: waitingOn.map(nameOf).join(` ${gettext("and")} `) })));
    } else {
      bar.append(node("span", "muted waiting-note", gettext("Waiting…")));
    }
  }
  refreshAmounts();
  const myTurn = kinds.some((k) => k !== "new_deal");
  $("action-bar").classList.toggle("my-turn", myTurn);
  app.classList.toggle("my-turn", myTurn);
  if (myTurn && !wasMyTurn) keepBarInView();
  wasMyTurn = myTurn;
}

let wasMyTurn = false;

// On a phone the action bar sits in the page under the felt (so it never covers your own seat): when your turn
// comes, or the window changes, the page scrolls so that the bar's bottom is the window's bottom.
export function keepBarInView() {
  if (!wasMyTurnNow() || window.innerWidth > 640) return;
  const bar = $("action-bar").getBoundingClientRect();
  if (bar.bottom > window.innerHeight || bar.top < 0) $("action-bar").scrollIntoView({ block: "end" });
}
function wasMyTurnNow() { return $("action-bar").classList.contains("my-turn"); }
window.addEventListener("resize", keepBarInView);

let darkValue = null;          // what was typed in the dark bet's own amount
const typed = { main: false, dark: false };  // an amount typed by hand (an all-in typed is confirmed)
let confirming = null;         // the kind whose typed all-in waits for its confirming click

/** A typed amount checked against the engine's range: {level} or {error} saying why (nothing is clamped). */
function checkAmount(kind, text) {
  const l = legal(kind);
  const what = {
    raise: gettext("A raise brings your level to"), bet: gettext("A bet brings your level to"),
    dark: gettext("A dark bet brings your level to"),
  }[kind];
  const range = `${fmt(l.min)}–${fmt(l.max)}`;
  const trimmed = String(text).trim();
  if (!/^\d+$/.test(trimmed)) return { error: fill(gettext("%(what)s a whole number of chips, %(range)s."), { what, range }) };
  const level = Number(trimmed);
  if (level < l.min) {
    return { error: fill(gettext("%(what)s at least %(min)s (%(range)s); %(level)s is too little."), { what, min: fmt(l.min), range, level: fmt(level) }) };
  }
  if (level > l.max) {
    const why = l.max >= top() ? gettext("your stack goes no higher") : gettext("a bet is at most the pot (D2)");
    return { error: fill(gettext("%(what)s at most %(max)s: %(why)s; %(level)s is too much."), { what, max: fmt(l.max), why, level: fmt(level) }) };
  }
  return { level };
}

function amountText(kind) { return kind === "dark" && $("dark-amount") ? $("dark-amount").value : $("amount-number").value; }

/** Labels and errors follow the amounts as they are typed. */
function refreshAmounts() {
  const errors = [];
  for (const kind of [amountKind, $("dark-amount") ? "dark" : null]) {
    if (!kind || !legal(kind)) continue;
    const button = document.querySelector(`#action-buttons [data-action=${kind}]`);
    if (!button) continue;
    const checked = checkAmount(kind, amountText(kind));
    button.classList.toggle("is-invalid", Boolean(checked.error));
    button.setAttribute("aria-invalid", String(Boolean(checked.error)));
    const allIn = !checked.error && checked.level >= top();
    button.classList.toggle("is-all-in", allIn);
    const named = kind === "dark" && me() && me().opened > 0 ? PLAY_NAMES.bet : PLAY_NAMES[kind];
    const at = { move: named, amount: fmt(checked.level) };
    let label = checked.error ? fill(gettext("%(move)s to …"), at) : allIn ? fill(gettext("All-in %(amount)s"), at)
      : fill(gettext("%(move)s to %(amount)s"), at);
    if (confirming === kind && allIn) label = fill(gettext("Confirm all-in %(amount)s"), at);
    const amount = button.querySelector(".action-amount");
    if (amount) {
      button.firstChild.textContent = "";
      amount.textContent = label;
    } else {
      button.textContent = label;
    }
    if (checked.error) errors.push(checked.error);
  }
  const box = $("amount-error");
  box.textContent = errors.join(" ");
  box.hidden = errors.length === 0;
}

function doAction(kind) {
  const l = legal(kind);
  if (!l) return;
  const message = { type: kind };
  if (AMOUNT_KINDS.includes(kind)) {
    const own = kind === amountKind || (kind === "dark" && $("dark-amount"));
    if (own) {
      const checked = checkAmount(kind, amountText(kind));
      if (checked.error) { refreshAmounts(); $("amount-error").hidden = false; return; }  // nothing is sent
      const wasTyped = kind === "dark" ? typed.dark : typed.main;
      if (checked.level >= top() && wasTyped && confirming !== kind) {
        confirming = kind;  // a typed all-in: the button asks to be pressed once more
        refreshAmounts();
        return;
      }
      message.amount = checked.level;
    } else {
      message.amount = l.min;
    }
  }
  confirming = null;
  if (kind === "new_deal") message.seed = freshSeed();  // his part of the next deck (docs/fair.md)
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
  if (changed) {
    range.value = number.value = l.min;
    typed.main = false;
    confirming = null;
  }
  // "All-in" is offered only where the top of the range is all-in (a bet's top may be the pot instead, D2).
  $("quick").querySelector("[data-quick=max]").hidden = l.max < top();
}

function setAmount(v) {
  const l = amountKind && legal(amountKind);
  if (!l) return;
  const clamped = Math.min(l.max, Math.max(l.min, Math.round(v)));  // a quick pick, never a typed amount
  $("amount-range").value = clamped;
  $("amount-number").value = clamped;
  typed.main = false;
  confirming = null;
  refreshAmounts();
}

export function setupActions() {
  $("amount-range").addEventListener("input", (e) => setAmount(Number(e.target.value)));
  $("amount-number").addEventListener("input", () => {
    typed.main = true;
    confirming = null;
    const checked = amountKind ? checkAmount(amountKind, $("amount-number").value) : {};
    if (checked.level != null) $("amount-range").value = checked.level;
    refreshAmounts();
  });
  $("amount-number").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && amountKind) { e.preventDefault(); doAction(amountKind); }
  });
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
