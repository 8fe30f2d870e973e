// The running clock (RULES §9), counted down on every animation frame from the snapshot's seconds_left.
import { $, node } from "./dom.js";
import { mySeat, table } from "./state.js";
import { keepBarInView } from "./prompts.js";

const CLOCK_NAMES = {
  move: gettext("to act"), show: gettext("Show or fold"), split: gettext("Split or play on"),
  svara_buy_in: gettext("Svara buy-in"), new_deal: gettext("New deal"),
};

export function tick() {
  const snap = table.snap;
  if (snap && snap.clock && table.clockEnd != null) {
    const left = Math.max(0, (table.clockEnd - performance.now()) / 1000);
    const total = snap.clock.seconds || (snap.state.clock && snap.state.clock.seconds) || Math.max(left, 1);
    const fraction = Math.max(0, Math.min(1, left / total));
    for (const fill of document.querySelectorAll(".seat-clock-fill")) {
      fill.style.width = `${fraction * 100}%`;
      fill.classList.toggle("hurry", left < 5 || fraction < 0.25);
    }
    const mine = (snap.clock.seats || []).includes(mySeat());
    const text = interpolate(gettext("%(seconds)s s"), { seconds: left.toFixed(left < 10 ? 1 : 0) }, true);
    const label = $("clock-label") || (() => {
      const l = node("div", "clock-label num");
      l.id = "clock-label";
      $("center").append(l);
      return l;
    })();
    label.hidden = false;
    label.textContent = `${CLOCK_NAMES[snap.clock.kind] || snap.clock.kind}: ${text}`;
    label.classList.toggle("mine", mine);
    label.classList.toggle("hurry", left < 5);
    const promptClock = $("prompt-clock");
    if (promptClock) {
      promptClock.textContent = text;
      promptClock.classList.toggle("hurry", left < 3);
    }
    const promptFill = $("prompt-clock-fill");
    if (promptFill) promptFill.style.width = `${fraction * 100}%`;
    // Your own clock in the action bar too, where your eyes are when it is your move.
    const myClock = $("my-clock");
    const wasHidden = myClock.hidden;
    myClock.hidden = !mine || snap.clock.kind !== "move" && snap.clock.kind !== "new_deal";
    if (wasHidden && !myClock.hidden) keepBarInView();  // the bar just grew by a line
    if (!myClock.hidden) {
      myClock.textContent = `${snap.clock.kind === "move" ? gettext("Your move") : gettext("New deal")}: ${text}`;
      myClock.classList.toggle("hurry", left < 5);
    }
  } else {
    if ($("clock-label")) $("clock-label").hidden = true;
    $("my-clock").hidden = true;
  }
  requestAnimationFrame(tick);
}
