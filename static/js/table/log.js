// The deal log: one line for each public event the server sends (docs/protocol.md: a snapshot's `events`), names (not seat
// numbers) even after a player left, and every result with its reason, in the order the hands were shown.
import { $, fill, fmt, handName, nameNode, node } from "./dom.js";
import { isBotSeat, nameOf, table } from "./state.js";

const LOG_MAX = 80;

function who(seat) { return nameNode(nameOf(seat), isBotSeat(seat)); }
function names(seats) {
  const out = [];
  (seats || []).forEach((seat, n) => { if (n) out.push(", "); out.push(who(seat)); });
  return out;
}

/** Why the pot went where it did (the engine's `reason`, RULES §5–§7), in words. */
export function reasonText(reason, winners) {
  const first = (winners || [])[0];
  const hand = first && first.points != null ? `${first.points}${first.hand_name ? ` (${handName(first.hand_name)})` : ""}` : "";
  if (reason === "best hand") return hand ? fill(gettext("the best hand: %(hand)s"), { hand }) : gettext("the best hand");
  if (reason === "all others folded") return gettext("everyone else folded");
  if (reason === "all checked (D17)") return gettext("everyone checked: the dealer takes the pot (D17)");
  if (reason === "split") return hand ? fill(gettext("a tie on %(hand)s: the pot is split"), { hand }) : gettext("a tie: the pot is split");
  return reason || "";
}

function awarded(e) {
  const parts = [];
  (e.winners || []).forEach((w, n) => {
    if (n) parts.push(", ");
    parts.push(who(w.seat), " ", fill(gettext("takes %(amount)s"), { amount: fmt(w.amount) }));
  });
  parts.push(` — ${reasonText(e.reason, e.winners)}`);
  if (e.rake) parts.push(" ", fill(gettext("(rake %(amount)s)"), { amount: fmt(e.rake) }));
  return parts;
}

// "<name> does this": the name, then the translated rest (%(name)s places filled from `values`).
function does(seat, text, values) { return [who(seat), " ", values ? fill(text, values) : text]; }
const SAT_OUT_WHY = {  // the engine's reasons (tables/engine/play.py)
  "less than one ante (D16)": gettext("less than one ante (D16)"), "no New deal in time": gettext("no New deal in time"),
};
const level = (e) => ({ level: fmt(e.level ?? e.amount ?? 0) });

const EVENT_PARTS = {
  seated: (e) => [nameNode(e.name || nameOf(e.seat), isBotSeat(e.seat)), " ",
    fill(gettext("sits down with %(amount)s"), { amount: fmt(e.stack ?? e.amount ?? 0) })],
  stood: (e) => does(e.seat, e.leaving ? gettext("stands up (folds; the seat frees after the deal)") : gettext("stands up")),
  deal_started: (e) => [fill(gettext("Deal %(n)s — dealer"), { n: e.deal_no ?? "" }), " ", who(e.dealer)],
  check: (e) => does(e.seat, gettext("checks")),
  bet: (e) => does(e.seat, gettext("bets %(level)s"), level(e)),
  call: (e) => does(e.seat, gettext("calls")),
  raise: (e) => does(e.seat, gettext("raises to %(level)s"), level(e)),
  fold: (e) => does(e.seat, gettext("folds")),
  blind: (e) => does(e.seat, e.unblind ? gettext("looks and bets %(level)s (unblind)") : gettext("goes blind %(level)s"),
    { level: fmt(e.level ?? "") }),
  dark: (e) => does(e.seat, gettext("bets %(level)s in the dark"), { level: fmt(e.level ?? e.amount ?? "") }),
  all_in: (e) => does(e.seat, gettext("is all-in")),
  opened: (e) => does(e.seat, e.count === 1 ? gettext("looks at a card") : gettext("has opened %(count)s cards"), { count: e.count }),
  showdown_shown: (e) => does(e.seat, gettext("shows %(cards)s — %(points)s"), {
    cards: (e.cards || []).join(" "), points: `${e.points}${e.hand_name ? ` (${handName(e.hand_name)})` : ""}`,
  }),
  folded_unseen: (e) => does(e.seat, gettext("folds unseen")),
  split_chosen: (e) => does(e.seat, gettext("wants to split")),
  play_on_chosen: (e) => does(e.seat, gettext("wants to play on")),
  split: awarded,
  svara: (e) => [gettext("Svara!"), " ", ...names(e.seats), " ", gettext("play on")],
  buy_in: (e) => does(e.seat, gettext("buys into the svara")),
  declined: (e) => does(e.seat, gettext("declines")),
  pot_awarded: awarded,
  timeout: (e) => [gettext("Time is up"), ...((e.seats || []).length ? [" ", gettext("for"), " ", ...names(e.seats)] : [])],
  svara_dealt: () => [gettext("The svara is dealt")],
  sat_out: (e) => does(e.seat, e.reason ? gettext("sits out (%(reason)s)") : gettext("sits out"), e.reason ? { reason: SAT_OUT_WHY[e.reason] || e.reason } : undefined),
  back: (e) => does(e.seat, gettext("is back")),
  chips_added: (e) => does(e.seat, gettext("adds %(amount)s"), { amount: fmt(e.amount) }),
};

export function logEvent(event) {
  if (event.type === "deal_started") {
    // The deal's players by seat: a name outlives the seat (a player who leaves mid-deal is still named).
    (event.seats || []).forEach((seat, n) => { if (event.names && event.names[n]) table.seatNames.set(seat, event.names[n]); });
  }
  const make = EVENT_PARTS[event.type];
  if (!make) return;
  let parts;
  try { parts = make(event); } catch { return; }
  const lines = $("log-lines");
  const line = node("li", `log-line log-${event.type}`);
  line.append(...parts);
  lines.append(line);
  while (lines.childElementCount > LOG_MAX) lines.firstElementChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

/** The server's log of this deal (the `history` message after the first snapshot): the log starts from it. */
export function showHistoryLog(history) {
  for (const [seat, name] of Object.entries(history.names || {})) table.seatNames.set(Number(seat), name);
  $("log-lines").replaceChildren();
  for (const event of history.log || []) logEvent(event);
}
