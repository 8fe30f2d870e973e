// A finished deal's replay: the steps the server built for this viewer (only what he could see then), drawn on the
// live table's felt (table.css, the seat and card drawing of static/js/table/), stepped with buttons and keys.
import { cardSvg } from "./cards.js";
import { $, app, fill, fmt, handName, nameNode, node, SEAT_COUNT, WILD } from "./table/dom.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
const you = app.dataset.you != null ? Number(app.dataset.you) : null;
const PLAY_MS = 1100;
let at = 0;
let timer = null;

const PHASES = {
  betting: gettext("Betting"), showdown: gettext("Showdown"), svara: gettext("Tie: svara"),
  svara_buy_in: gettext("Svara: buy-in offers"), over: gettext("Deal over"),
};

function seatAngle(i) {
  const base = you != null ? you : 0;
  return Math.PI / 2 + ((i - base + SEAT_COUNT) % SEAT_COUNT) * (2 * Math.PI / SEAT_COUNT);
}

function hand(seat) {
  const box = node("div", "hand");
  seat.cards.forEach((card, index) => {
    const wrap = node("span", "hand-card");
    wrap.dataset.index = index;
    if (card) wrap.classList.add("is-open");
    wrap.append(cardSvg(card, { wild: card === WILD || (card && card.replace("♣", "c") === WILD) }));
    box.append(wrap);
  });
  if (seat.points != null) box.append(node("span", "hand-points num", seat.points));
  return box;
}

function draw() {
  const step = steps[at];
  if (!step) return;
  const frame = step.frame;
  $("pot-amount").textContent = fmt(frame.pot);
  $("phase").textContent = `${PHASES[frame.phase] || frame.phase} · ${step.line}`;
  const seats = $("seats");
  seats.replaceChildren();
  for (const seat of frame.seats) {
    const i = seat.seat;
    const angle = seatAngle(i);
    const box = node("div", `seat status-${seat.status}`);
    box.dataset.seat = i;
    box.style.left = `${50 + 44 * Math.cos(angle)}%`;
    box.style.top = `${50 + 41 * Math.sin(angle)}%`;
    if (i === you) box.classList.add("seat-me");
    if (step.seat === i) box.classList.add("seat-turn");
    const plate = node("div", "plate");
    plate.append(nameNode(seat.name, seat.bot, "seat-name"));
    plate.append(node("div", "seat-stack num", fmt(seat.stack)));
    const status = seat.status === "folded" ? gettext("folded") : seat.status === "all_in" ? gettext("all-in") : handName(seat.hand_name) || "";
    if (status) plate.append(node("div", "seat-status", status));
    if (!seat.shown) {
      const badges = node("div", "seat-badges");
      badges.append(node("span", `badge badge-looked${seat.opened ? " has-looked" : ""}`,
        seat.opened ? fill(gettext("looked %(opened)s/3"), { opened: seat.opened }) : gettext("not looked")));
      plate.append(badges);
    }
    if (frame.dealer === i) plate.append(node("span", "dealer-button", "D"));
    box.append(plate);
    box.append(hand(seat));
    seats.append(box);
    if (seat.level) {
      const level = node("div", "level");
      level.style.left = `${50 + 27 * Math.cos(angle)}%`;
      level.style.top = `${50 + 24 * Math.sin(angle)}%`;
      level.append(node("span", "chip-stack"), node("span", "num", fmt(seat.level)));
      seats.append(level);
    }
  }
  $("replay-position").textContent = fill(gettext("step %(n)s of %(of)s"), { n: at + 1, of: steps.length });
  document.querySelectorAll("#log-lines li").forEach((li, n) => {
    li.classList.toggle("is-current", n === at);
    li.classList.toggle("is-future", n > at);
    if (n === at) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
  });
  $("replay-back").disabled = $("replay-first").disabled = at === 0;
  $("replay-forward").disabled = $("replay-last").disabled = at === steps.length - 1;
}

function go(n) { at = Math.max(0, Math.min(steps.length - 1, n)); draw(); }
function stop() { clearInterval(timer); timer = null; $("replay-play").textContent = gettext("Play"); }
function play() {
  if (timer) { stop(); return; }
  if (at === steps.length - 1) go(0);
  $("replay-play").textContent = gettext("Pause");
  timer = setInterval(() => { if (at >= steps.length - 1) stop(); else go(at + 1); }, PLAY_MS);
}

const log = $("log-lines");
steps.forEach((step, n) => {
  const li = node("li", `log-line log-${step.kind}`);
  const b = node("button", "btn-link", step.line);
  b.type = "button";
  b.addEventListener("click", () => { stop(); go(n); });
  li.append(b);
  log.append(li);
});
$("replay-first").addEventListener("click", () => { stop(); go(0); });
$("replay-back").addEventListener("click", () => { stop(); go(at - 1); });
$("replay-forward").addEventListener("click", () => { stop(); go(at + 1); });
$("replay-last").addEventListener("click", () => { stop(); go(steps.length - 1); });
$("replay-play").addEventListener("click", play);
document.addEventListener("keydown", (e) => {
  if (e.target.closest && e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") { stop(); go(at + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { stop(); go(at - 1); e.preventDefault(); }
  else if (e.key === "Home") { stop(); go(0); e.preventDefault(); }
  else if (e.key === "End") { stop(); go(steps.length - 1); e.preventDefault(); }
  else if (e.key === " ") { play(); e.preventDefault(); }
});
go(0);
