// Your turn and your prompts announce themselves: a short tone (Web Audio, no file to fetch) unless muted (kept in
// localStorage), and the tab's title, while a clock waits for you.
import { $ } from "./dom.js";
import { mySeat, table } from "./state.js";
import { keepBarInView } from "./prompts.js";

const MUTE_KEY = "svara-muted";
const baseTitle = document.title;
let audio = null;
let announced = null;  // the clock (kind, deadline) last announced

export function isMuted() { return localStorage.getItem(MUTE_KEY) === "1"; }

function renderSoundToggle() {
  const b = $("sound-toggle");
  b.textContent = isMuted() ? gettext("Sound off") : gettext("Sound on");
  b.setAttribute("aria-pressed", String(!isMuted()));
}

export function setupAnnounce() {
  renderSoundToggle();
  $("sound-toggle").addEventListener("click", () => {
    localStorage.setItem(MUTE_KEY, isMuted() ? "0" : "1");
    renderSoundToggle();
    if (!isMuted()) unlock();
  });
  // Browsers start audio only after a gesture on the page: the first click or key unlocks it.
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}

function unlock() {
  if (audio || isMuted()) return;
  try { audio = new AudioContext(); } catch { audio = null; }
}

function tone() {
  if (isMuted() || !audio) return;
  if (audio.state === "suspended") audio.resume();
  const now = audio.currentTime;
  for (const [at, freq] of [[0, 660], [0.16, 880]]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.15);
  }
  window.svaraTones = (window.svaraTones || 0) + 1;  // for tests: how many tones were played
}

const ASKS = {
  move: gettext("Your turn"), show: gettext("Show or fold?"), split: gettext("Split or play on?"),
  svara_buy_in: gettext("Buy into the svara?"), new_deal: gettext("New deal?"),
};

/** After every render: does a clock wait for me now? Then the tab says so and, once per clock, a tone. */
export function announce() {
  const clock = table.snap && table.snap.clock;
  const mine = clock && mySeat() != null && (clock.seats || []).includes(mySeat());
  if (!mine) {
    document.title = baseTitle;
    document.body.classList.remove("asked");
    announced = null;
    return;
  }
  const ask = ASKS[clock.kind] || gettext("Your turn");
  document.title = `● ${ask} · ${baseTitle}`;
  document.body.classList.add("asked");
  const key = `${clock.kind}:${clock.deadline}`;
  if (announced !== key) {
    announced = key;
    window.svaraAnnounced = (window.svaraAnnounced || 0) + 1;  // for tests: how many prompts announced themselves
    tone();
    requestAnimationFrame(() => requestAnimationFrame(keepBarInView));  // once the page has settled
  }
}
