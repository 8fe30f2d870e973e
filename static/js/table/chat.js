// The table chat: open between deals only (RULES §10); user text is only ever set as textContent.
import { $, LOGGED_IN, node } from "./dom.js";
import { isClosed, mySeat, st } from "./state.js";
import { send } from "./socket.js";

export function renderChatState() {
  if (isClosed()) return;  // view.showClosed: no chat at a closed table
  const open = st().phase === "waiting";
  const input = $("chat-input");
  const canChat = open && (mySeat() != null || LOGGED_IN);
  input.disabled = !canChat;
  input.placeholder = !LOGGED_IN ? gettext("Log in to chat") : open ? gettext("Say something…") : gettext("Between deals");
  $("chat-form").querySelector("button").disabled = !canChat;
}

export function addChat(msg) {
  const line = node("li", "chat-line");
  line.append(node("span", "chat-who", msg.user || "?"));
  line.append(node("span", "chat-text", msg.text));  // textContent: user text is never HTML
  const lines = $("chat-lines");
  lines.append(line);
  while (lines.childElementCount > 100) lines.firstElementChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

/** The last lines the server kept (the first snapshot's `history`): the chat starts from them after a reload. */
export function showHistoryChat(lines) {
  $("chat-lines").replaceChildren();
  for (const line of lines || []) addChat(line);
}

export function setupChat() {
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text }, "chat")) input.value = "";
  });
}
