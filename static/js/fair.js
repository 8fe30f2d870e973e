// The /fair/ page: reads a deal's fairness block (docs/fair.md, "The text form") from pasted text, or from
// /history/<id>.txt with ?deal=<id>, and recomputes it with WebCrypto: SHA-256 of the server seed against the
// commitment, then every deck of the deal and its svaras from the seeds (HMAC-SHA256 stream, rejection sampling,
// Fisher–Yates), compared card by card. The same procedure as tables/engine/fair.py and docs/verify_deal.py.

const SUITS = ["♠", "♥", "♦", "♣"];
const RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const LOWEST = { classic: "6", bulgarian: "7" };
const HEX = /^[0-9a-f]+$/;
const enc = new TextEncoder();
// The page's words from Django's JavaScript catalogue (/jsi18n/); outside the page (a test imports the module)
// they stay English. The fairness block's own lines (Family:, Deal number:, …) are a format, never translated.
const gettext = globalThis.gettext || ((text) => text);
const ngettext = globalThis.ngettext || ((one, many, n) => (n === 1 ? one : many));
const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name]));

function startDeck(family) {
  const ranks = RANKS.slice(RANKS.indexOf(LOWEST[family]));
  return SUITS.flatMap((suit) => ranks.map((rank) => rank + suit));
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(hex) {
  return toHex(await crypto.subtle.digest("SHA-256", hexBytes(hex)));
}

/** The deck of one deal (svara 0) or svara, top first. */
export async function deckFor(serverSeed, family, dealNo, svara, seeds) {
  const key = await crypto.subtle.importKey("raw", hexBytes(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const pairs = seeds.map(([seat, seed]) => `${seat}:${seed}`).join(",");
  const message = `svara-fair/1\nfamily=${family}\ndeal=${dealNo}\nsvara=${svara}\nseeds=${pairs}`;
  let stream = [];
  let block = 0;
  async function below(m) {
    const limit = 2 ** 32 - (2 ** 32 % m);
    for (;;) {
      while (stream.length < 4) {
        const bytes = await crypto.subtle.sign("HMAC", key, enc.encode(`${message}\nblock=${block}`));
        stream = stream.concat([...new Uint8Array(bytes)]);
        block += 1;
      }
      const x = ((stream[0] << 24) >>> 0) + (stream[1] << 16) + (stream[2] << 8) + stream[3];
      stream = stream.slice(4);
      if (x < limit) return x % m;
    }
  }
  const cards = startDeck(family);
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const j = await below(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** The fairness block of any text: {fields, seeds, decks} or throws with what is missing. */
export function readBlock(text) {
  const fields = {};
  const seeds = [];
  const decks = new Map();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    let m;
    if ((m = line.match(/^(Family|Deal number|Commitment|Server seed): (\S+)$/))) fields[m[1]] = m[2];
    else if ((m = line.match(/^Seed seat (\d+): (\S+)$/))) seeds.push([Number(m[1]), m[2]]);
    else if ((m = line.match(/^(?:Svara (\d+) dealt|Dealt) seat (\d+): (\S+) (\S+) (\S+)$/))) {
      const svara = Number(m[1] || 0);
      if (!decks.has(svara)) decks.set(svara, []);
      decks.get(svara).push([Number(m[2]), [m[3], m[4], m[5]]]);
    }
  }
  const missing = ["Family", "Deal number", "Commitment", "Server seed"].filter((k) => !(k in fields));
  if (missing.length || !decks.size) {
    const notVerifiable = text.match(/^Fair deal: \S+, not verifiable: (.*)$/m);
    if (notVerifiable) throw new Error(fill(gettext("This deal cannot be checked: %(why)s"), { why: notVerifiable[1] }));
    const what = (missing.length ? missing : [gettext("the dealt cards")]).join(", ");
    throw new Error(fill(gettext("No complete fairness block found: missing %(what)s."), { what }));
  }
  return { fields, seeds: seeds.sort((a, b) => a[0] - b[0]), decks };
}

/** What first differs, or null when the commitment and every dealt card match. */
export async function firstDifference({ fields, seeds, decks }) {
  const seed = fields["Server seed"];
  const family = fields.Family;
  if (!(family in LOWEST)) return fill(gettext("no such family: %(family)s"), { family });
  if (seed.length !== 64 || !HEX.test(seed)) return gettext("the server seed is not 64 lowercase hex characters");
  const committed = await sha256Hex(seed);
  if (committed !== fields.Commitment) {
    return fill(gettext("the commitment: SHA-256 of the server seed is %(committed)s, the deal published %(published)s"),
      { committed, published: fields.Commitment });
  }
  if (seeds.some(([, own]) => !HEX.test(own) || own.length > 64)) return gettext("a player's seed is not 1 to 64 lowercase hex characters");
  for (const svara of [...decks.keys()].sort((a, b) => a - b)) {
    const cards = await deckFor(seed, family, Number(fields["Deal number"]), svara, seeds);
    const dealt = decks.get(svara);
    for (let k = 0; k < dealt.length; k += 1) {
      const [seat, hand] = dealt[k];
      const expected = cards.slice(3 * k, 3 * k + 3);
      if (hand.join(" ") !== expected.join(" ")) {
        const where = svara === 0 ? gettext("the deal") : fill(gettext("svara %(n)s"), { n: svara });
        return fill(gettext("%(where)s, seat %(seat)s: dealt %(dealt)s, the seeds give %(expected)s"),
          { where, seat, dealt: hand.join(" "), expected: expected.join(" ") });
      }
    }
  }
  return null;
}

function show(outcome, text) {
  const box = document.getElementById("fair-result");
  box.hidden = false;
  box.dataset.outcome = outcome;
  box.textContent = text;
}

async function check(text) {
  let block;
  try {
    block = readBlock(text);
  } catch (error) {
    show("error", error.message);
    return;
  }
  const difference = await firstDifference(block);
  const dealNo = block.fields["Deal number"];
  if (difference) {
    show("mismatch", fill(gettext("Deal %(n)s does NOT match: %(difference)s."), { n: dealNo, difference }));
  } else {
    const cards = 3 * [...block.decks.values()].reduce((n, d) => n + d.length, 0);
    const svaras = block.decks.size - 1;
    const text = svaras
      ? ngettext("Deal %(n)s is fair: the server seed matches the commitment published before the deal, and all %(cards)s dealt cards (with %(svaras)s svara) match the seeds.",
        "Deal %(n)s is fair: the server seed matches the commitment published before the deal, and all %(cards)s dealt cards (with %(svaras)s svaras) match the seeds.", svaras)
      : gettext("Deal %(n)s is fair: the server seed matches the commitment published before the deal, and all %(cards)s dealt cards match the seeds.");
    show("match", fill(text, { n: dealNo, cards, svaras }));
  }
}

async function loadDeal(id) {
  if (!/^\d+$/.test(id)) { show("error", fill(gettext("Not a deal number: %(id)s."), { id })); return; }
  try {
    const response = await fetch(`/history/${id}.txt`, { credentials: "same-origin" });
    if (!response.ok) {
      show("error", fill(gettext("The hand history of deal %(id)s could not be read (HTTP %(status)s)."), { id, status: response.status }));
      return;
    }
    const text = await response.text();
    document.getElementById("fair-text").value = text;
    await check(text);
  } catch {
    show("error", fill(gettext("The hand history of deal %(id)s could not be read: not connected."), { id }));
  }
}

const page = typeof document !== "undefined" ? document.getElementById("fair-page") : null;
if (page) {
  document.getElementById("fair-form").addEventListener("submit", (e) => {
    e.preventDefault();
    check(document.getElementById("fair-text").value);
  });
  const deal = new URLSearchParams(location.search).get("deal");
  if (deal) loadDeal(deal);
}
