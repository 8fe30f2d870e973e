// The session reminder a player sets for himself (profile → Your limits; wallet/limits.py): after that many
// minutes seated at this table, a banner says how long he has played. The page knows when he sat down (the
// server's seat row, data-seated-since); a seat taken on this page starts the count when the snapshot shows it.
const app = document.getElementById("table-app");
const minutes = Number(app.dataset.sessionMinutes || 0);
const banner = document.getElementById("session-reminder");
let since = app.dataset.seatedSince ? Date.parse(app.dataset.seatedSince) : null;
let next = null;  // when the next reminder is due (ms), once seated

function check() {
  const snap = window.svaraSnapshot ? window.svaraSnapshot() : null;
  if (!snap) return;
  if (snap.seat === null || snap.seat === undefined) {
    since = null;
    next = null;
    return;
  }
  if (since === null) since = Date.now();
  if (next === null) next = since + minutes * 60000;
  if (Date.now() < next || !banner.hidden) return;
  const played = Math.floor((Date.now() - since) / 60000);
  const hours = Math.floor(played / 60);
  const spoken = hours ? interpolate(gettext("%(hours)s h %(minutes)s min"), { hours, minutes: played % 60 }, true)
    : interpolate(gettext("%(minutes)s min"), { minutes: played }, true);
  document.getElementById("session-reminder-text").textContent = interpolate(
    gettext("You have been playing at this table for %(spoken)s (your reminder is every %(minutes)s min)."),
    { spoken, minutes }, true);
  banner.hidden = false;
}

if (minutes > 0) {
  document.getElementById("session-reminder-ok").addEventListener("click", () => {
    banner.hidden = true;
    next = Date.now() + minutes * 60000;
  });
  setInterval(check, 1000);
  check();
}
