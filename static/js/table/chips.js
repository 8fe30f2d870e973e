// Your seat's tools (add chips, sit out, stand up) and the buy-in / add-chips dialog (RULES §10).
import { $, ANTE, fill, fmt, MAX_STACK_ANTES, MIN_BUY_IN_ANTES, node } from "./dom.js";
import { me, st } from "./state.js";
import { send } from "./socket.js";
import { freshSeed } from "./fair.js";

let chipsMode = null;
let chipsSeat = null;

export function renderSeatTools() {
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
  if (between && mine.stack < MAX_STACK_ANTES * ANTE) add(gettext("Add chips"), () => openChipsDialog("add_chips")).dataset.tool = "add_chips";
  if (mine.status === "sitting_out") add(gettext("I'm back"), () => send({ type: "back", seed: freshSeed() }, "back")).dataset.tool = "back";
  else if (mine.status !== "leaving") add(gettext("Sit out"), () => send({ type: "sit_out" }, "sit_out")).dataset.tool = "sit_out";
  add(gettext("Stand up"), () => {
    if (s.phase !== "waiting" && mine.in_deal && !["folded"].includes(mine.status) &&
        !window.confirm(gettext("Standing up now folds your hand. Stand up?"))) return;
    send({ type: "stand" }, "stand");
  }).dataset.tool = "stand";
}

export function openChipsDialog(mode, seat) {
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
    $("chips-title").textContent = fill(gettext("Sit at seat %(n)s"), { n: seat + 1 });
    $("chips-help").textContent = fill(gettext("Buy-in: %(min)s–%(max)s chips (%(low)s–%(high)s antes) from your balance."),
      { min: fmt(min), max: fmt(max), low: MIN_BUY_IN_ANTES, high: MAX_STACK_ANTES });
    $("chips-ok").textContent = gettext("Sit down");
  } else {
    min = 1;
    max = MAX_STACK_ANTES * ANTE - (me() ? me().stack : 0);
    $("chips-title").textContent = gettext("Add chips");
    $("chips-help").textContent = fill(gettext("Your stack may hold up to %(max)s chips (%(antes)s antes)."),
      { max: fmt(MAX_STACK_ANTES * ANTE), antes: MAX_STACK_ANTES });
    $("chips-ok").textContent = gettext("Add");
  }
  if (Number.isFinite(balance) && balance >= min) max = Math.min(max, balance);
  range.min = number.min = min;
  range.max = number.max = max;
  const start = mode === "sit" ? Math.min(max, 50 * ANTE) : max;
  range.value = number.value = Math.max(min, start);
  $("chips-error").hidden = true;
  if (Number.isFinite(balance) && balance < min) {
    $("chips-error").textContent = fill(gettext("Your balance (%(balance)s) is below the %(min)s needed."), { balance: fmt(balance), min: fmt(min) });
    $("chips-error").hidden = false;
  }
  dialog.showModal();
  number.focus();
}

export function setupChipsDialog() {
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
      $("chips-error").textContent = fill(gettext("Choose a whole number from %(min)s to %(max)s."), { min: fmt(min), max: fmt(max) });
      $("chips-error").hidden = false;
      return;
    }
    const message = chipsMode === "sit" ? { type: "sit", amount, seat: chipsSeat } : { type: "add_chips", amount };
    send(message, chipsMode);
    $("chips-dialog").close();
  });
}
