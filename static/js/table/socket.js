// One WebSocket to /ws/tables/<id>/ (docs/protocol.md): connecting, reconnecting with backoff, sending with ids.
import { $, app, fill, toast } from "./dom.js";
import { isClosed } from "./state.js";

let socket = null;
let retry = 0;
let reconnectTimer = null;
let messageNo = 0;
let onMessage = () => {};
export const pending = new Map();    // id → what was asked (for the toast on error)

function wsUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${app.dataset.wsPath}`;
}

export function setConn(state, text) {
  const conn = $("conn");
  conn.dataset.state = state;
  conn.querySelector(".conn-text").textContent = text;
  $("lost-banner").hidden = state !== "lost";
  app.classList.toggle("is-offline", state === "lost");
}

export function connect(receive) {
  if (receive) onMessage = receive;
  clearTimeout(reconnectTimer);
  setConn(retry ? "lost" : "connecting", retry ? gettext("Reconnecting…") : gettext("Connecting…"));
  socket = new WebSocket(wsUrl());
  socket.addEventListener("open", () => {
    retry = 0;
    setConn("live", gettext("Live"));
  });
  socket.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    onMessage(msg);
  });
  socket.addEventListener("close", () => {
    if (isClosed()) {
      setConn("closed", gettext("Table closed"));
      return;
    }
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  // Exponential backoff with jitter: 0.5 s, 1 s, 2 s … at most 10 s.
  const delay = Math.min(10000, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
  retry += 1;
  const seconds = Math.ceil(delay / 1000);
  setConn("lost", fill(gettext("Connection lost — retrying in %(seconds)s s"), { seconds }));
  $("lost-banner").textContent = fill(gettext("Connection lost — reconnecting in %(seconds)s s…"), { seconds });
  reconnectTimer = setTimeout(() => connect(), delay);
}

export function send(message, label) {
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    toast(gettext("Not connected: wait for the connection to come back."));
    return null;
  }
  const id = `m${Date.now().toString(36)}-${++messageNo}`;
  pending.set(id, label || message.type);
  socket.send(JSON.stringify({ ...message, id }));
  return id;
}

export function requestSnapshot() {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "snapshot" }));
}
