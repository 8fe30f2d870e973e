// The page's fixed facts (from the template's data attributes) and the small DOM helpers every module uses.
import { wildOf } from "../cards.js";

export const app = document.getElementById("table-app");
export const TABLE_ID = Number(app.dataset.tableId);
export const ANTE = Number(app.dataset.ante);
export const MIN_BUY_IN_ANTES = Number(app.dataset.minBuyInAntes); // RULES §10, from tables/engine/rules.py
export const MAX_STACK_ANTES = Number(app.dataset.maxStackAntes); // RULES §10, D15
export const SEAT_COUNT = Number(app.dataset.seats);
export const FAMILY = app.dataset.family;
export const LOGGED_IN = app.dataset.loggedIn === "1";
export const WILD = wildOf(FAMILY);

export const $ = (id) => document.getElementById(id);

// Chips as the page's language writes numbers (1,000 in English, 1 000 in Russian and Bulgarian), as the server does.
const NUMBERS = new Intl.NumberFormat(document.documentElement.lang || "en");
export function fmt(n) { return NUMBERS.format(Number(n)); }

// The page's words in the viewer's language: Django's JavaScript catalogue (/jsi18n/, loaded before the modules)
// defines gettext, ngettext and interpolate; `fill` puts values into a translated text's %(name)s places.
export function fill(text, values) { return interpolate(text, values, true); }

// The named hands as the server names them (tables/engine/points.py), in the players' words of each language.
const HAND_NAMES = {
  "three shakhas": gettext("three shakhas"), "three foreheads": gettext("three foreheads"),
  "top trynki": gettext("top trynki"), "two foreheads": gettext("two foreheads"),
  "three sevens": gettext("three sevens"), "three aces": gettext("three aces"),
  "two sevens": gettext("two sevens"), "two aces": gettext("two aces"),
};
export function handName(name) { return HAND_NAMES[name] || name; }

export function node(tag, className, text) {
  const n = document.createElement(tag);
  if (className) n.className = className;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}

export function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

// Bots' display names end in "(bot)"; everywhere a name is shown (seat, result, log) it becomes the same small badge.
const BOT_SUFFIX = /\s*\(bot\)\s*$/i;
export function nameNode(name, bot = false, className = "who") {
  const el = node("span", className);
  el.title = name;
  const isBot = bot || BOT_SUFFIX.test(name);
  el.append(node("span", "who-name", name.replace(BOT_SUFFIX, "")));
  if (isBot) el.append(" ", node("span", "bot-badge", "bot"));
  return el;
}
