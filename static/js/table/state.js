// The last snapshot the server sent (docs/protocol.md) and the questions every view asks of it.
export const table = {
  snap: null,      // the last snapshot
  version: -1,
  clockEnd: null,  // performance.now() ms when the running clock ends
};

export function st() { return table.snap ? table.snap.state : null; }
export function mySeat() { return table.snap ? table.snap.seat : null; }
export function me() { const s = st(); return s && mySeat() != null ? s.seats[mySeat()] : null; }
export function legal(kind) { return table.snap ? (table.snap.legal || []).find((l) => l.kind === kind) : undefined; }
export function isClosed() { return Boolean(table.snap && table.snap.table && table.snap.table.status === "closed"); }

export function nameOf(seat) {
  const s = st();
  return s && seat != null && s.seats[seat] ? s.seats[seat].name : seat != null ? `seat ${seat + 1}` : "";
}

/** Take a snapshot message; false when it is stale or repeated. */
export function accept(msg) {
  const snap = table.snap;
  if (snap && msg.version <= table.version && msg.seat === snap.seat) return false;
  table.snap = msg;
  table.version = msg.version;
  table.clockEnd = msg.clock && msg.clock.seconds_left != null ? performance.now() + msg.clock.seconds_left * 1000 : null;
  return true;
}
