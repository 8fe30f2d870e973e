// The deal log: one line for each public event the server sends (docs/protocol.md "event").
import { $, fmt, node } from "./dom.js";
import { nameOf } from "./state.js";

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
export function seedLog(last) {
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

export function logEvent(event) {
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
