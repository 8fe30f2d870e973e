// The last snapshot the server sent (docs/protocol.md) and the questions every view asks of it.
export const table = {
  snap: null,      // the last snapshot
  version: -1,
  clockEnd: null,  // performance.now() ms when the running clock ends
  seatNames: new Map(),    // seat → the name of who sat there last (the log and the result name a player who left)
  seatBots: new Map(),     // seat → whether that player is a bot
  playerNames: new Map(),  // player id → name
  offline: new Set(),      // player ids of seated humans with no open connection (the "presence" message)
};

export function st() { return table.snap ? table.snap.state : null; }
export function mySeat() { return table.snap ? table.snap.seat : null; }
export function me() { const s = st(); return s && mySeat() != null ? s.seats[mySeat()] : null; }
export function legal(kind) { return table.snap ? (table.snap.legal || []).find((l) => l.kind === kind) : undefined; }
export function isClosed() { return Boolean(table.snap && table.snap.table && table.snap.table.status === "closed"); }

export function nameOf(seat) {
  const s = st();
  if (s && seat != null && s.seats[seat]) return s.seats[seat].name;
  if (seat != null && table.seatNames.has(seat)) return table.seatNames.get(seat);
  return seat != null ? fill(gettext("seat %(n)s"), { n: seat + 1 }) : "";
}

export function isBotSeat(seat) {
  const s = st();
  if (s && seat != null && s.seats[seat]) return Boolean(s.seats[seat].bot);
  return Boolean(table.seatBots.get(seat));
}

/** Remember who sits where, so a name outlives the seat (after a player leaves, the log still says who). */
export function rememberNames(seats) {
  (seats || []).forEach((seat, i) => {
    if (!seat) return;
    table.seatNames.set(i, seat.name);
    table.seatBots.set(i, Boolean(seat.bot));
    if (seat.player != null) table.playerNames.set(String(seat.player), seat.name);
  });
}

/** Whether a snapshot message is newer than the last one taken (a stale or repeated one is dropped). */
export function fresh(msg) {
  const snap = table.snap;
  const closing = msg.table && msg.table.status === "closed" && !isClosed();  // closing keeps the version
  return !(snap && msg.version <= table.version && msg.seat === snap.seat && !closing);
}

/** Take a snapshot message; false when it is stale or repeated. */
export function accept(msg) {
  if (!fresh(msg)) return false;
  table.snap = msg;
  table.version = msg.version;
  rememberNames(msg.state && msg.state.seats);
  table.clockEnd = msg.clock && msg.clock.seconds_left != null ? performance.now() + msg.clock.seconds_left * 1000 : null;
  return true;
}
