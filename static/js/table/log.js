// The deal log: one line for each public event the server sends (docs/protocol.md "event"), names (not seat
// numbers) even after a player left, and every result with its reason, in the order the hands were shown.
import { $, fmt, nameNode, node } from "./dom.js";
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
  const hand = first && first.points != null ? `${first.points}${first.hand_name ? ` (${first.hand_name})` : ""}` : "";
  if (reason === "best hand") return hand ? `the best hand: ${hand}` : "the best hand";
  if (reason === "all others folded") return "everyone else folded";
  if (reason === "all checked (D17)") return "everyone checked: the dealer takes the pot (D17)";
  if (reason === "split") return hand ? `a tie on ${hand}: the pot is split` : "a tie: the pot is split";
  return reason || "";
}

function awarded(e) {
  const parts = [];
  (e.winners || []).forEach((w, n) => { if (n) parts.push(", "); parts.push(who(w.seat), ` takes ${fmt(w.amount)}`); });
  parts.push(` — ${reasonText(e.reason, e.winners)}`);
  if (e.rake) parts.push(` (rake ${fmt(e.rake)})`);
  return parts;
}

const EVENT_PARTS = {
  seated: (e) => [nameNode(e.name || nameOf(e.seat), isBotSeat(e.seat)), ` sits down with ${fmt(e.stack ?? e.amount ?? 0)}`],
  stood: (e) => [who(e.seat), e.leaving ? " stands up (folds; the seat frees after the deal)" : " stands up"],
  deal_started: (e) => [`Deal ${e.deal_no ?? ""} — dealer `, who(e.dealer)],
  check: (e) => [who(e.seat), " checks"],
  bet: (e) => [who(e.seat), ` bets ${fmt(e.level ?? e.amount ?? 0)}`],
  call: (e) => [who(e.seat), " calls"],
  raise: (e) => [who(e.seat), ` raises to ${fmt(e.level ?? e.amount ?? 0)}`],
  fold: (e) => [who(e.seat), " folds"],
  blind: (e) => [who(e.seat), e.unblind ? ` looks and bets ${fmt(e.level ?? "")} (unblind)` : ` goes blind ${fmt(e.level ?? "")}`],
  dark: (e) => [who(e.seat), ` bets ${fmt(e.level ?? e.amount ?? "")} in the dark`],
  all_in: (e) => [who(e.seat), " is all-in"],
  opened: (e) => [who(e.seat), e.count === 1 ? " looks at a card" : ` has opened ${e.count} cards`],
  showdown_shown: (e) => [who(e.seat), ` shows ${(e.cards || []).join(" ")} — ${e.points}${e.hand_name ? ` (${e.hand_name})` : ""}`],
  folded_unseen: (e) => [who(e.seat), " folds unseen"],
  split_chosen: (e) => [who(e.seat), " wants to split"],
  play_on_chosen: (e) => [who(e.seat), " wants to play on"],
  split: awarded,
  svara: (e) => ["Svara! ", ...names(e.seats), " play on"],
  buy_in: (e) => [who(e.seat), " buys into the svara"],
  declined: (e) => [who(e.seat), " declines"],
  pot_awarded: awarded,
  timeout: (e) => ["Time is up", ...((e.seats || []).length ? [" for ", ...names(e.seats)] : [])],
  svara_dealt: () => ["The svara is dealt"],
  sat_out: (e) => [who(e.seat), ` sits out${e.reason ? ` (${e.reason})` : ""}`],
  back: (e) => [who(e.seat), " is back"],
  chips_added: (e) => [who(e.seat), ` adds ${fmt(e.amount)}`],
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
