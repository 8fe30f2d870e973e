// Your standing choices (docs/protocol.md "Standing choices"): kept by the server in the table's state, so they hold
// across reloads and sockets; the snapshot gives back your own (state.standing), and that is what is shown.
import { $, app, toast } from "./dom.js";
import { isClosed, me, st } from "./state.js";
import { send } from "./socket.js";
import { freshSeed } from "./fair.js";

export function renderStanding() {
  const box = $("standing");
  const mine = st() && st().standing;
  box.hidden = !me() || !mine || isClosed();
  if (box.hidden) return;
  $("standing-deal-me-in").checked = Boolean(mine.deal_me_in);
  $("standing-if-losing").value = mine.if_losing || "ask";
  $("standing-on-tie").value = mine.on_tie || "ask";
}

export function setupStanding() {
  $("standing-deal-me-in").addEventListener("change", (e) => {
    // "Deal me in" carries the seed of the next deal pressed for him (docs/fair.md).
    send(e.target.checked ? { type: "standing", choice: "deal_me_in", seed: freshSeed() }
      : { type: "standing", choice: "deal_me_out" }, "standing");
  });
  $("standing-if-losing").addEventListener("change", (e) => {
    send({ type: "standing", choice: `${e.target.value}_if_losing` }, "standing");
  });
  $("standing-on-tie").addEventListener("change", (e) => {
    send({ type: "standing", choice: `${e.target.value}_on_tie` }, "standing");
  });
  const bots = $("bot-tools");
  if (bots) bots.addEventListener("submit", seatBots);
}

// Bots at your own table: one click seats one or more (a POST the server checks: creator or staff, bots allowed).
async function seatBots(e) {
  e.preventDefault();
  const button = $("seat-bots");
  button.disabled = true;
  try {
    const body = new URLSearchParams({ level: $("bot-level").value, count: $("bot-count").value });
    const response = await fetch(app.dataset.botsUrl, {
      method: "POST", body, headers: { "X-CSRFToken": app.dataset.csrf, Accept: "application/json" },
      credentials: "same-origin",
    });
    const answer = await response.json().catch(() => ({ error: gettext("The server did not answer; try again.") }));
    if (answer.error) toast(answer.error);
  } catch {
    toast(gettext("Not connected: the bots were not seated."));
  } finally {
    button.disabled = false;
  }
}

export function renderBotTools() {
  const bots = $("bot-tools");
  if (!bots) return;
  const s = st();
  const free = s ? s.seats.filter((seat) => !seat).length : 0;
  bots.hidden = isClosed() || free === 0;
  const count = $("bot-count");
  for (const option of count.options) option.hidden = option.disabled = Number(option.value) > free;
  if (Number(count.value) > free) count.value = "1";
}
