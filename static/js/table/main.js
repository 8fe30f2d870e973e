// The table page (docs/protocol.md): every render comes from the last snapshot the server sent.
// The server is the truth: this page shows what the snapshot says and offers only the snapshot's legal actions.
// One module a concern, as Lichess splits its round UI: dom, state, socket, view, clock, prompts, chips, standing,
// announce, chat, log.
import { app, fmt, LOGGED_IN, toast } from "./dom.js";
import { accept, fresh, mySeat, table } from "./state.js";
import { connect, pending, requestSnapshot } from "./socket.js";
import { render } from "./view.js";
import { tick } from "./clock.js";
import { setupActions } from "./prompts.js";
import { openChipsDialog, setupChipsDialog } from "./chips.js";
import { addChat, setupChat, showHistoryChat } from "./chat.js";
import { logEvent, showHistoryLog } from "./log.js";
import { renderBotTools, renderStanding, setupStanding } from "./standing.js";
import { announce, setupAnnounce } from "./announce.js";
import { renderFair } from "./fair.js";

function receive(msg) {
  switch (msg.type) {
    case "snapshot": {
      if (msg.history) {
        // A connection's first snapshot: the chat and the log start from what the server kept.
        table.offline = new Set(msg.history.offline || []);
        showHistoryChat(msg.history.chat);
      }
      if ("id" in msg) answered(msg.id);  // the snapshot of our own change answers our message
      if (!fresh(msg)) return;  // stale or repeated
      // The change's events go to the log before its snapshot is taken: they name the seats as they were.
      for (const event of msg.events || []) logEvent(event);
      accept(msg);
      if (msg.history) showHistoryLog(msg.history);
      renderAll();
      break;
    }
    case "presence":
      table.offline = new Set(msg.offline || []);
      if (table.snap) renderAll();
      break;
    case "ack":
      answered(msg.id);
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

function renderAll() {
  render();
  renderStanding();
  renderBotTools();
  renderFair();
  announce();
}

// Our message was applied (its snapshot or, for a repeated id, its ack came back).
function answered(id) {
  const label = pending.get(id);
  pending.delete(id);
  if (["sit", "stand", "add_chips"].includes(label)) refreshBalance();
}

async function refreshBalance() {
  try {
    const response = await fetch(app.dataset.balanceUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const body = await response.json();
    const el = document.getElementById("user-balance");
    if (el && body.balance != null) el.textContent = fmt(body.balance);
  } catch { /* the figure refreshes on the next page load */ }
}

// Arriving with #sit (the lobby's "Sit" and quick seat): offer the buy-in for the first free seat once we know it.
function offerSeatFromHash() {
  if (location.hash !== "#sit" || !LOGGED_IN) return;
  const wait = setInterval(() => {
    if (!table.snap) return;
    clearInterval(wait);
    history.replaceState(null, "", location.pathname);
    if (mySeat() != null) return;
    const free = table.snap.state.seats.findIndex((s) => !s);
    if (free >= 0) openChipsDialog("sit", free);
  }, 100);
}

setupActions();
setupChipsDialog();
setupChat();
setupStanding();
setupAnnounce();
connect(receive);
// After a long silence (a tab in the background may have been throttled), one fresh snapshot.
document.addEventListener("visibilitychange", () => { if (!document.hidden) requestSnapshot(); });
requestAnimationFrame(tick);
offerSeatFromHash();

// For tests and the console: the last snapshot as received (what this viewer may see, nothing more).
window.svaraSnapshot = () => table.snap;
