// Fair deals (docs/fair.md): the commitment of the running (or coming) deal, small under the pot with a link to
// /fair/, and this player's own seeds, made with crypto.getRandomValues and sent with New deal, "I'm back" and
// "Deal me in" (the deals the server presses for him then use the seed the page sent ahead).
import { $ } from "./dom.js";
import { st, table } from "./state.js";
import { send } from "./socket.js";

/** A fresh seed: 16 random bytes as 32 lowercase hex characters (the server takes 1 to 64). */
export function freshSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let seedSentAt = -1;  // the version at which the page last sent a seed ahead for "Deal me in"

export function renderFair() {
  const box = $("fair-commitment");
  const s = st();
  const fair = s && s.fair;
  box.hidden = !fair;
  if (!fair) return;
  box.querySelector(".fair-deal-no").textContent = fair.deal_no;
  const code = box.querySelector("code");
  code.textContent = fair.stacked ? gettext("a test deck: not verifiable") : `${fair.commitment.slice(0, 16)}…`;
  code.title = fair.stacked ? "" : interpolate(gettext("SHA-256 of this deal's server seed: %(commitment)s"), { commitment: fair.commitment }, true);
  box.dataset.commitment = fair.commitment;
  // "Deal me in": once his last seed is used up by a deal, the page sends the next one ahead.
  const mine = s.standing;
  if (mine && mine.deal_me_in && !mine.seed && seedSentAt < table.version) {
    seedSentAt = table.version;
    send({ type: "standing", choice: "deal_me_in", seed: freshSeed() }, "standing");
  }
}
