// The lobby: the open tables, live over /ws/lobby/ (docs/protocol.md), filtered in the page.
const root = document.getElementById("lobby");
const list = document.getElementById("table-list");
const empty = document.getElementById("table-empty");
const filters = {
  family: document.getElementById("filter-family"),
  anteMin: document.getElementById("filter-ante-min"),
  anteMax: document.getElementById("filter-ante-max"),
  bots: document.getElementById("filter-bots"),
  free: document.getElementById("filter-free"),
};
let tables = JSON.parse(document.getElementById("lobby-tables").textContent) || [];
let previous = new Map(tables.map((t) => [t.id, JSON.stringify(t)]));
let retry = 0;
// The page's words come from Django's JavaScript catalogue (/jsi18n/: gettext, ngettext, interpolate).
const fill = (text, values) => interpolate(text, values, true);
const FAMILIES = { classic: gettext("classic"), bulgarian: gettext("bulgarian") };

function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text !== undefined) n.textContent = String(text);
  return n;
}

// A bot is marked once, by a small "bot" badge (no emoji: not every machine has an emoji font); a bot's
// display name may already end in "(bot)", which the badge replaces.
function playerName(p) {
  const span = node("span", "player-name", p.is_bot ? p.name.replace(/\s*\(bot\)\s*$/i, "") : p.name);
  if (p.is_bot) {
    const mark = node("span", "bot-badge", gettext("bot"));
    mark.title = gettext("a bot");
    span.append(" ", mark);
  }
  return span;
}

function fits(t) {
  const family = filters.family.value;
  const low = Number(filters.anteMin.value) || null;
  const high = Number(filters.anteMax.value) || null;
  if (family && t.family !== family) return false;
  if (low != null && t.ante < low) return false;
  if (high != null && t.ante > high) return false;
  if (filters.bots.value === "yes" && !t.bots_allowed) return false;
  if (filters.bots.value === "no" && t.bots_allowed) return false;
  if (filters.free.checked && t.seats_taken >= t.seats) return false;
  return true;
}

function row(t, changed) {
  const li = node("li", "table-row");
  li.dataset.tableId = t.id;
  li.dataset.family = t.family;
  if (changed) li.classList.add("just-changed");
  const badge = node("span", `table-badge ${t.family}`, t.ante);
  badge.title = fill(gettext("ante %(ante)s"), { ante: t.ante });
  li.append(badge);
  const main = node("div", "table-main");
  main.append(node("div", "table-title", fill(gettext("Table %(id)s · %(family)s"), { id: t.id, family: FAMILIES[t.family] || t.family })));
  const meta = node("div", "table-meta");
  meta.append(node("span", "", fill(gettext("ante %(ante)s"), { ante: t.ante })));
  const seats = node("span", "table-seats");
  const dots = node("span", "seat-dots");
  for (let i = 0; i < t.seats; i++) dots.append(node("span", `seat-dot${i < t.seats_taken ? " taken" : ""}`));
  seats.append(dots, document.createTextNode(` ${fill(gettext("%(taken)s/%(seats)s seats"), { taken: t.seats_taken, seats: t.seats })}`));
  seats.dataset.taken = t.seats_taken;
  meta.append(seats);
  if (t.bots_allowed) meta.append(node("span", "badge badge-info", gettext("bots")));
  if (t.private) meta.append(node("span", "badge badge-warning", gettext("private")));
  main.append(meta);
  const players = node("div", "table-players");
  (t.players || []).forEach((p, i) => {
    if (i) players.append(", ");
    players.append(playerName(p));
  });
  if (!players.childNodes.length) players.textContent = gettext("nobody yet");
  main.append(players);
  li.append(main);
  const actions = node("div", "table-actions");
  if (t.seats_taken < t.seats) {
    const sit = node("a", "btn btn-small btn-primary", gettext("Sit"));
    sit.href = `${t.url}#sit`;
    actions.append(sit);
  }
  const watch = node("a", "btn btn-small btn-ghost", gettext("Watch"));
  watch.href = t.url;
  actions.append(watch);
  li.append(actions);
  return li;
}

function render() {
  const shown = tables.filter(fits);
  const next = new Map(tables.map((t) => [t.id, JSON.stringify(t)]));
  list.replaceChildren(...shown.map((t) => row(t, previous.size && previous.get(t.id) !== next.get(t.id))));
  previous = next;
  empty.hidden = shown.length > 0;
}

function setLive(state, text) {
  document.getElementById("live-dot").className = `live-dot ${state}`;
  document.getElementById("live-text").textContent = text;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}${root.dataset.wsPath}`);
  socket.addEventListener("open", () => { retry = 0; setLive("on", gettext("Live: updates as seats are taken")); });
  socket.addEventListener("message", (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg.type === "lobby" && Array.isArray(msg.tables)) {
      tables = msg.tables;
      render();
    } else if (msg.type === "lobby_table") {
      // One table changed: its entry replaces the old one (the server sends only the newest); null: it closed.
      const rest = tables.filter((t) => t.id !== msg.id);
      tables = msg.table ? [...rest, msg.table].sort((a, b) => a.id - b.id) : rest;
      render();
    }
  });
  socket.addEventListener("close", () => {
    const delay = Math.min(10000, 500 * 2 ** retry++) * (0.75 + Math.random() * 0.5);
    setLive("off", fill(gettext("Connection lost — retrying in %(seconds)s s"), { seconds: Math.ceil(delay / 1000) }));
    setTimeout(connect, delay);
  });
}

for (const input of Object.values(filters)) input.addEventListener("input", render);
render();
connect();

// Wide screens show the filters; on a phone they fold under "Filters", so the tables and the buttons come first.
const filtersBox = document.getElementById("filters-box");
if (filtersBox && window.matchMedia("(min-width: 700px)").matches) filtersBox.open = true;
