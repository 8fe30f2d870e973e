"""The load client of `python -m bench live`: real WebSockets, asyncio, one process of its own.

    python -m bench.live_client SPEC.json RESULT.json

SPEC is written by bench/live.py; this process imports nothing from Django, so it shares the machine's two cores
with the servers as cheaply as it can (asyncio on uvloop's event loop, the `websockets` library, orjson). A real
player's browser runs on his own machine: every millisecond this client spends is one the servers lose. On uvloop's
loop it spends about a tenth less CPU a message than on asyncio's, a fifth less a floor turn (docs/benchmarks.md,
session 15). The echo and the floor are driven by the same client. Three kinds of run:

- `play`: every player opens `/ws/tables/<id>/` with his session cookie, sits if he is not seated, and plays
  whole deals for `seconds`: whenever the latest snapshot offers him a move he picks one (mostly check or call,
  sometimes the minimum bet or raise, rarely a fold; show, split, decline a svara offer; now and then he opens a
  card first) and sends it with an id; between deals he tops his stack up and presses New deal (once his table's
  players all sit). He acts only on the newest snapshot and never has two messages outstanding, so a healthy server
  answers him with no error frame.
  When the step ends the running deals are played out and he stands up (a sweep's next step sits him again).
  `full` acts as soon as it may; `paced` thinks 1–3 s first (never past the running clock).
- `echo`: the same number of sockets to the echo consumer (bench/echo_asgi.py), in groups of four that take turns
  like a table's seats, sending the same small frames at the same rate.
  With `fanout` (`bench live --floor`), to its floor consumer: each frame is answered and also reaches the group's
  three other sockets through the channel layer, and the next seat's turn begins once all three have it.
- `idle`: N spectator sockets to one table; opened as fast as allowed, held until the parent says `close` on
  stdin, then closed all at once.

A round trip is the time from sending a message with an id to receiving its answer: the snapshot of its change
(which carries the id), an `ack` or an `error` (for echo: the frame coming back). The server's own rate limit (10 actions a second a socket) is kept on the client side with a margin
(8); a wait for it is counted (`throttled`). A clock about to run out on a player is left to run out.
"""

from __future__ import annotations

import asyncio
import os
import random
import resource
import sys
import time
from collections import Counter

import orjson
import uvloop
from websockets.asyncio.client import connect

MOVES = frozenset(
    ("check", "bet", "call", "raise", "fold", "blind", "dark", "show", "fold_hand", "split", "play_on", "buy_in",
     "decline")
)
CLOCK_MARGIN = 0.5  # a clock with less left than this for me is left to run out: the answer would come too late
RESYNC_AFTER = 8.0  # seconds without any frame before a player asks for a full snapshot
ANSWER_TIMEOUT = 15.0  # an answer that never comes is counted, and the player goes on
CONNECT_CONCURRENCY = 40


def percentiles(samples: list[float]) -> dict:
    """p50/p95/p99/max in milliseconds (nearest rank), and the count."""
    if not samples:
        return {"count": 0, "p50_ms": None, "p95_ms": None, "p99_ms": None, "max_ms": None}
    ordered = sorted(samples)
    n = len(ordered)

    def rank(q: float) -> float:
        return round(ordered[min(n - 1, max(0, int(q * n + 0.999999) - 1))] * 1000, 2)

    return {"count": n, "p50_ms": rank(0.50), "p95_ms": rank(0.95), "p99_ms": rank(0.99),
            "max_ms": round(ordered[-1] * 1000, 2)}


class Bucket:
    """The server's token bucket (tables/ratelimit.py's numbers), kept on the client so it is never exceeded."""

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def wait_time(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        wait = 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate
        self.tokens -= 1  # the token this message spends, now or once the wait is over (it may go below zero)
        return wait


class Run:
    """What every socket of one run adds to: the window, round trips, counters."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.start = self.end = None
        self.stopping = False
        self.drain_until = float("inf")
        self.round_trips: list[float] = []
        self.kinds: Counter = Counter()  # acked messages by type, inside the window
        self.errors: Counter = Counter()  # error frames by code, whenever they came
        self.failures: Counter = Counter()  # no answer in time, broken sockets
        self.error_samples: list[dict] = []
        self.resync_samples: list[dict] = []
        self.by_kind: dict[str, list[float]] = {}  # acked round trips by message type
        self.by_web: dict[str, list[float]] = {}  # … and by the daphne that answered (bench/live.py --compare)
        self.counts: Counter = Counter()
        self.deals: set = set()
        # Message ids unique across runs: a sweep re-uses players at the same tables, and the door answers an id it
        # has answered before with that stored reply, applying nothing (the "press storm" of New deal acks that
        # moved nothing, counted as actions, in sweeps before this).
        self.id_prefix = os.urandom(4).hex()

    def in_window(self, at: float) -> bool:
        return self.start is not None and self.start <= at and (self.end is None or at <= self.end)

    def error(self, message: dict, context: str) -> None:
        """An `error` frame from the server."""
        self.errors[message.get("code") or "?"] += 1
        self._sample(message, context)

    def failure(self, code: str, text: str, context: str) -> None:
        """Not a frame: an answer that never came, a socket that broke, a client task that failed."""
        self.failures[code] += 1
        self._sample({"code": code, "message": text[:200]}, context)

    def _sample(self, message: dict, context: str) -> None:
        if len(self.error_samples) < 8:
            self.error_samples.append({"code": message.get("code"), "message": message.get("message"),
                                       "context": context})


def choose(snapshot: dict, rng: random.Random, stopping: bool, ante: int, players: int = 1) -> tuple[str, dict] | None:
    """The simple policy: what this player sends now on this snapshot, or None. New deal only once the table's
    `players` all sit: else the first two seated at a step's start deal alone, and the others' presses on the
    snapshot they sat down with are refused ("a deal is being played"): a race of the tool's, not the server's."""
    seat = snapshot.get("seat")
    legal = {entry["kind"]: entry for entry in snapshot.get("legal") or ()}
    state = snapshot.get("state") or {}
    moves = MOVES.intersection(legal)
    if moves:
        r = rng.random()
        if "show" in moves:
            return ("show", {}) if r < 0.9 or "fold_hand" not in moves else ("fold_hand", {})
        if "split" in moves:
            # Both tied seats may answer at once, and a split settles it for both: the second answer would then be
            # refused. So the lower tied seat answers first; the other answers only if asked again (play on).
            waiting = (snapshot.get("clock") or {}).get("seats") or [seat]
            if seat != min(waiting):
                return None
            return ("split", {}) if r < 0.8 or "play_on" not in moves else ("play_on", {})
        if "decline" in moves:
            return ("decline", {}) if r < 0.7 or "buy_in" not in moves else ("buy_in", {})
        if "open" in legal and r < 0.08:
            me = state["seats"][seat]
            low, high = legal["open"]["min"] or 0, legal["open"]["max"] or 2
            closed = [i for i, card in enumerate(me.get("cards") or ()) if card is None and low <= i <= high]
            if closed:
                return "open", {"card": closed[0]}
        if r < 0.04 and "fold" in moves and "check" not in moves:
            return "fold", {}
        if r < 0.2:
            for kind in ("raise", "bet"):
                if kind in moves and legal[kind]["min"] is not None:
                    return kind, {"amount": legal[kind]["min"]}
        for kind in ("check", "call", "blind"):
            if kind in moves:
                return kind, {}
        if "dark" in moves:
            return "dark", ({"amount": legal["dark"]["min"]} if legal["dark"]["min"] is not None else {})
        for kind in ("bet", "raise"):
            if kind in moves and legal[kind]["min"] is not None:
                return kind, {"amount": legal[kind]["min"]}
        return "fold", {}
    if state.get("phase") != "waiting" or stopping or seat is None:
        return None
    me = state["seats"][seat]
    add = legal.get("add_chips")
    if add and me["stack"] < 50 * ante and add.get("max"):
        return "add_chips", {"amount": add["max"]}
    if "new_deal" in legal and sum(1 for other in state["seats"] if other is not None) >= players:
        return "new_deal", {}
    return None


class Player:
    def __init__(self, run: Run, spec: dict, common: dict, index: int):
        self.run, self.spec, self.index = run, spec, index
        self.paced = common["mode"] == "paced"
        self.think = common.get("think", [1.0, 3.0])
        self.ante = spec["ante"]
        self.rng = random.Random(common.get("seed", 0) * 100_003 + index)
        # Below the server's 10 a second: it counts when it reads a message, and messages can bunch on the way.
        self.bucket = Bucket(common.get("rate", 8), common.get("rate", 8))
        self.snapshot: dict | None = None
        self.received = 0.0  # when the snapshot came (monotonic)
        self.version = -1
        self.wait_above = -1  # act only on a snapshot with a version above this (after an answer)
        self.outstanding: tuple[str, float, str] | None = None
        self.changed = asyncio.Event()
        self.answered = asyncio.Event()
        self.sent_text: str | None = None  # the last message sent, as sent
        self.sent_on: dict | None = None  # the version and phase of the snapshot it was chosen on
        self.last_frame = time.monotonic()
        self.sent = 0
        self.last_error = None
        self.ws = None

    async def open(self) -> None:
        self.ws = await connect(
            self.spec["url"], origin=self.spec["origin"], additional_headers={"Cookie": self.spec["cookie"]},
            compression=None, open_timeout=30, close_timeout=5, ping_interval=None, max_size=2**22,
        )
        self.reader = asyncio.ensure_future(self.read())

    def answer(self, message: dict, now: float) -> None:
        """The answer to our outstanding message: the snapshot of its change (or an ack), or an error."""
        run, kind = self.run, message["type"]
        pending = self.outstanding
        if pending is None or message.get("id") != pending[0]:
            run.counts["unmatched_answers"] += 1
            if kind == "error":
                run.error(message, "unmatched")
            return
        self.outstanding = None
        at = time.monotonic()
        if kind != "error":
            if run.in_window(at):
                run.round_trips.append(now - pending[1])
                run.by_kind.setdefault(pending[2], []).append(now - pending[1])
                run.by_web.setdefault(self.spec.get("web", "web1"), []).append(now - pending[1])
                run.kinds[pending[2]] += 1
            self.wait_above = max(self.wait_above, message.get("version", self.version) - 1)
        else:
            if run.in_window(at):
                run.round_trips.append(now - pending[1])
            # Which snapshot the refused move was chosen on: a refusal under load is most often a stale view.
            on = self.sent_on or {}
            run.error(message, f"{pending[2]} chosen on v{on.get('version')} ({on.get('phase')}), "
                               f"now v{self.version}")
            self.last_error = message.get("code")
            self.wait_above = self.version  # nothing changed: wait for news before trying again
        self.answered.set()
        self.changed.set()

    async def read(self) -> None:
        run = self.run
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                self.last_frame = time.monotonic()
                message = orjson.loads(raw)
                self.heard(raw, message)
                kind = message.get("type")
                run.counts["frames"] += 1
                if kind == "snapshot" and "id" in message:  # our action's answer: the snapshot of its change
                    self.answer(message, now)
                if kind == "snapshot":
                    version = message["version"]
                    if message.get("events"):
                        run.counts["events"] += 1
                    if version <= self.version:
                        run.counts["stale_snapshots"] += 1
                        continue
                    if self.version >= 0 and version > self.version + 1:
                        run.counts["version_skips"] += 1
                    self.version, self.snapshot, self.received = version, message, time.monotonic()
                    result = message["state"].get("last_result")
                    if result is not None and run.in_window(time.monotonic()):
                        run.deals.add((self.spec["table"], result.get("deal_no")))
                    self.changed.set()
                elif kind in ("ack", "error"):
                    self.answer(message, now)
        except Exception as failure:  # noqa: BLE001 - a dropped socket is a figure, not a crash
            run.counts["socket_errors"] += 1
            run.failure(f"socket:{type(failure).__name__}", str(failure), "read")
        finally:
            if not run.stopping:
                run.counts["unexpected_closes"] += 1
            self.changed.set()
            self.answered.set()

    def heard(self, raw, message: dict) -> None:
        """Every frame as it came, before it is acted on (the drills record them here)."""

    async def send(self, kind: str, fields: dict) -> None:
        wait = self.bucket.wait_time()
        if wait:
            self.run.counts["throttled"] += 1
            await asyncio.sleep(wait)
        self.sent += 1
        snapshot = self.snapshot or {}
        self.sent_on = {"version": snapshot.get("version"), "phase": (snapshot.get("state") or {}).get("phase")}
        message_id = f"{self.run.id_prefix}-{self.index}-{self.sent}"
        self.outstanding = (message_id, time.perf_counter(), kind)
        self.answered.clear()
        self.sent_text = orjson.dumps({"type": kind, "id": message_id, **fields}).decode()  # a resend repeats it
        await self.ws.send(self.sent_text)

    async def sit(self) -> None:
        """Until seated: the first snapshot says whether this player already sits (a sweep re-uses players)."""
        deadline = time.monotonic() + 60
        while self.snapshot is None:
            await self.wait_changed(1)
            self._check(deadline, "no first snapshot")
        fields = {"amount": self.spec["buyin"], "seat": self.spec["seat"]}
        while self.snapshot.get("seat") is None:
            self.last_error = None
            await self.send("sit", fields)
            await self.wait_answer()
            if self.last_error == "seat_taken":
                fields.pop("seat", None)  # whoever took it, any free seat will do
            # The answering snapshot (or any newer one) tells where we sit.
            while self.version <= self.wait_above:
                await self.wait_changed(1)
                self._check(deadline, "no snapshot after sitting")
            self._check(deadline, f"not seated ({self.last_error})")

    async def stand_up(self) -> None:
        """After a step: leave the seat, so the next step of a sweep sits everyone afresh. Left seated, the players
        stopped pressing New deal, its clock sat them all out meanwhile, and in the next step the first two to come
        back started a deal without the other two, whose presses were refused ("a deal is being played": the
        `illegal_action` errors of every 30- and 50-table step of a sweep, none in a step with new tables)."""
        if self.ws is None or self.ws.close_code is not None or (self.snapshot or {}).get("seat") is None:
            return
        try:
            await self.send("stand", {})
            await self.wait_answer()
        except Exception:  # noqa: BLE001 - a socket that broke: its player stays seated, as before
            pass

    def _check(self, deadline: float, what: str) -> None:
        if self.ws.close_code is not None:
            raise RuntimeError(f"table {self.spec['table']}: the socket closed ({self.ws.close_code}): {what}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"table {self.spec['table']}: {what}")

    async def wait_changed(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            pass
        self.changed.clear()

    async def wait_answer(self) -> None:
        try:
            await asyncio.wait_for(self.answered.wait(), ANSWER_TIMEOUT)
        except TimeoutError:
            self.run.counts["unanswered"] += 1
            self.run.failure("no_answer", f"no answer in {ANSWER_TIMEOUT} s",
                             self.outstanding[2] if self.outstanding else "?")
            self.outstanding = None

    async def play(self) -> None:
        run = self.run
        while self.ws.close_code is None:
            if run.stopping and (time.monotonic() > run.drain_until or self._between_deals()):
                return
            await self.wait_changed(1.0)
            if self.outstanding is not None:
                continue
            snapshot = self.snapshot
            if snapshot is None or snapshot["version"] <= self.wait_above:
                await self._resync_if_silent()
                continue
            choice = choose(snapshot, self.rng, run.stopping, self.ante, self.spec.get("table_players", 1))
            if choice is not None and self._clock_left(snapshot) < CLOCK_MARGIN:
                run.counts["left_to_the_clock"] += 1
                choice = None
            if choice is None:
                await self._resync_if_silent()
                continue
            if self.paced:
                think = self.rng.uniform(*self.think)
                clock = snapshot.get("clock")
                if clock and snapshot.get("seat") in clock.get("seats", ()):
                    # Never past the clock, with room for a slow answer: a 3 s Show/Fold gets at most 1 s.
                    think = min(think, max(0.0, (clock["seconds_left"] - 1.0) / 2))
                await asyncio.sleep(think)
                if self.snapshot is not snapshot:
                    self.changed.set()  # something moved while thinking: decide again on the newest
                    continue
            await self.send(*choice)
            await self.wait_answer()

    def _clock_left(self, snapshot: dict) -> float:
        """Seconds left on a clock that waits for me, by the snapshot's count and the time since it came."""
        clock = snapshot.get("clock")
        if not clock or snapshot.get("seat") not in clock.get("seats", ()):
            return float("inf")
        return clock["seconds_left"] - (time.monotonic() - self.received)

    def _between_deals(self) -> bool:
        """Between deals by a view that is current: not one from before this player's own last message."""
        snapshot = self.snapshot
        if snapshot is None:
            return True
        current = self.outstanding is None and snapshot["version"] > self.wait_above
        return current and snapshot["state"].get("phase") == "waiting"

    async def _resync_if_silent(self) -> None:
        """A table that says nothing for RESYNC_AFTER seconds may have lost a group message: ask for the truth."""
        if time.monotonic() - self.last_frame <= RESYNC_AFTER:
            return
        run = self.run
        run.counts["resyncs"] += 1
        if len(run.resync_samples) < 6:
            snapshot = self.snapshot or {}
            state = snapshot.get("state") or {}
            run.resync_samples.append({
                "table": self.spec["table"], "seat": snapshot.get("seat"), "version": snapshot.get("version"),
                "wait_above": self.wait_above, "phase": state.get("phase"), "turn": state.get("turn"),
                "clock": snapshot.get("clock"), "legal": [e["kind"] for e in snapshot.get("legal") or ()],
                "stopping": run.stopping, "in_window": run.in_window(time.monotonic()),
            })
        self.last_frame = time.monotonic()
        await self._ask_snapshot()

    async def _ask_snapshot(self) -> None:
        wait = self.bucket.wait_time()
        if wait:
            await asyncio.sleep(wait)
        await self.ws.send('{"type":"snapshot"}')

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await self.ws.close()
            except Exception:  # noqa: BLE001
                pass


async def gather_limited(coroutines, limit: int) -> list:
    gate = asyncio.Semaphore(limit)

    async def one(coroutine):
        async with gate:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines), return_exceptions=True)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_play(spec: dict) -> dict:
    run = Run(spec["seconds"])
    players = [Player(run, p, spec, i) for i, p in enumerate(spec["players"])]
    started = time.monotonic()
    opened = await gather_limited([p.open() for p in players], CONNECT_CONCURRENCY)
    failed = [repr(o) for o in opened if isinstance(o, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(players)} sockets did not open: {failed[:3]}")
    seated = await gather_limited([p.sit() for p in players], CONNECT_CONCURRENCY)
    failed = [repr(o) for o in seated if isinstance(o, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(players)} players could not sit: {failed[:3]}")
    ready_seconds = time.monotonic() - started
    errors_before = sum(run.errors.values())
    tasks = [asyncio.ensure_future(p.play()) for p in players]
    await asyncio.sleep(spec.get("warmup", 0.0))  # played, not measured (errors still count)
    cpu0 = cpu_seconds()
    run.start = time.monotonic()
    await asyncio.sleep(spec["seconds"])
    run.end = time.monotonic()
    cpu1 = cpu_seconds()
    # Finish the running deals (no New deal), so a next step of a sweep finds the tables between deals.
    run.stopping = True
    run.drain_until = time.monotonic() + spec.get("drain", 10.0)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            run.failure(f"client:{type(outcome).__name__}", str(outcome), "play")
    await gather_limited([p.stand_up() for p in players], CONNECT_CONCURRENCY)
    await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
    window = run.end - run.start
    acks = sum(run.kinds.values())
    moves = sum(n for kind, n in run.kinds.items() if kind in MOVES)
    return {
        "kind": "play", "mode": spec["mode"], "sockets": len(players), "seconds": round(window, 2),
        "ready_seconds": round(ready_seconds, 2),
        "actions": acks, "actions_per_s": round(acks / window, 1), "moves_per_s": round(moves / window, 1),
        "deals": len(run.deals), "deals_per_s": round(len(run.deals) / window, 2),
        "round_trip": percentiles(run.round_trips),
        "round_trip_by_type": {kind: percentiles(v) for kind, v in sorted(run.by_kind.items())},
        "round_trip_by_web": {web: percentiles(v) for web, v in sorted(run.by_web.items())},
        "error_frames": sum(run.errors.values()), "errors_by_code": dict(run.errors),
        "failures": dict(run.failures),
        "errors_while_seating": errors_before, "error_samples": run.error_samples,
        "acked_by_type": dict(run.kinds), "counts": dict(run.counts), "resync_samples": run.resync_samples,
        "client_cpu_percent": round(100 * (cpu1 - cpu0) / window, 1),
    }


async def run_echo(spec: dict) -> dict:
    run = Run(spec["seconds"])
    paced = spec["mode"] == "paced"
    think = spec.get("think", [1.0, 3.0])
    rng = random.Random(spec.get("seed", 0))
    groups = spec["groups"]

    async def open_one(url: dict):
        return await connect(url["url"], origin=url["origin"], additional_headers={"Cookie": url["cookie"]},
                             compression=None, open_timeout=30, close_timeout=5, ping_interval=None)

    flat = [u for group in groups for u in group]
    sockets = await gather_limited([open_one(u) for u in flat], CONNECT_CONCURRENCY)
    failed = [repr(s) for s in sockets if isinstance(s, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(flat)} echo sockets did not open: {failed[:3]}")
    by_group, at = [], 0
    for group in groups:
        by_group.append(sockets[at:at + len(group)])
        at += len(group)

    fanout = spec.get("fanout", False)
    copies = {id(ws): asyncio.Queue() for ws in sockets} if fanout else {}
    readers = [asyncio.ensure_future(read_into(ws, copies[id(ws)])) for ws in sockets] if fanout else []

    async def table(members, number: int) -> None:
        turn = sent = 0
        while not run.stopping:
            ws = members[turn % len(members)]
            turn += 1
            if paced:
                await asyncio.sleep(rng.uniform(*think))
                if run.stopping:
                    return
            sent += 1
            message_id = f"{number}-{sent}"
            began = time.perf_counter()
            await ws.send(orjson.dumps({"type": "call", "id": message_id}).decode())
            try:
                if fanout:
                    await asyncio.wait_for(this_frame(copies[id(ws)], message_id, run), ANSWER_TIMEOUT)
                    answered = time.perf_counter()
                    others = [this_frame(copies[id(other)], message_id, run) for other in members if other is not ws]
                    try:  # the change reaches the other seats before the next one acts
                        await asyncio.wait_for(asyncio.gather(*others), ANSWER_TIMEOUT)
                    except TimeoutError:
                        run.failure("no_copy", f"a seat got no copy in {ANSWER_TIMEOUT} s", "echo")
                else:
                    raw = await asyncio.wait_for(ws.recv(), ANSWER_TIMEOUT)
                    answered = time.perf_counter()
                    if orjson.loads(raw).get("id") != message_id:
                        run.failure("wrong_echo", "the echo of another frame", "echo")
            except TimeoutError:
                run.failure("no_answer", f"no echo in {ANSWER_TIMEOUT} s", "echo")
                continue
            run.kinds["turns"] += 1  # in the window or not: the CPU of the whole step is divided by them
            if run.in_window(time.monotonic()):
                run.round_trips.append(answered - began)
                run.kinds["echo"] += 1

    cpu0 = cpu_seconds()
    run.start = time.monotonic()
    tasks = [asyncio.ensure_future(table(m, n)) for n, m in enumerate(by_group)]
    await asyncio.sleep(spec["seconds"])
    run.end = time.monotonic()
    cpu1 = cpu_seconds()
    run.stopping = True
    done = await asyncio.gather(*(asyncio.wait_for(t, ANSWER_TIMEOUT + 5) for t in tasks), return_exceptions=True)
    for outcome in done:
        if isinstance(outcome, BaseException):
            run.failure(f"socket:{type(outcome).__name__}", str(outcome), "echo")
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    for reader in readers:
        reader.cancel()
    window = run.end - run.start
    n = run.kinds["echo"]
    return {
        "kind": "echo", "mode": spec["mode"], "sockets": len(flat), "seconds": round(window, 2),
        "echoes": n, "echoes_per_s": round(n / window, 1), "turns": run.kinds["turns"],
        "round_trip": percentiles(run.round_trips),
        "error_frames": sum(run.errors.values()), "errors_by_code": dict(run.errors),
        "failures": dict(run.failures),
        "client_cpu_percent": round(100 * (cpu1 - cpu0) / window, 1),
    }


async def this_frame(queue: asyncio.Queue, message_id: str, run) -> None:
    """Wait for the frame of this turn on a floor socket; a late frame of an earlier turn is skipped and counted."""
    while orjson.loads(await queue.get()).get("id") != message_id:
        run.failure("late_frame", "a frame of an earlier turn came after its turn had timed out", "echo")


async def read_into(ws, queue: asyncio.Queue) -> None:
    """Every frame a floor socket receives, in order, until it closes."""
    try:
        async for raw in ws:
            queue.put_nowait(raw)
    except Exception:  # noqa: BLE001 (a socket closed under load is counted by the turn that waits on it)
        pass


async def run_idle(spec: dict) -> dict:
    """Open N spectator sockets, report, hold until told, close them all at once."""
    count = spec["count"]
    url, origin = spec["url"], spec["origin"]
    first_snapshot_timeout = 60.0

    async def open_one(_):
        ws = await connect(url, origin=origin, compression=None, open_timeout=60, close_timeout=10,
                           ping_interval=None)
        raw = await asyncio.wait_for(ws.recv(), first_snapshot_timeout)  # opened = the first snapshot came
        if orjson.loads(raw).get("type") != "snapshot":
            raise RuntimeError(f"first frame is not a snapshot: {raw[:200]}")
        return ws

    started = time.perf_counter()
    opened = await gather_limited([open_one(i) for i in range(count)], spec.get("concurrency", 50))
    took = time.perf_counter() - started
    sockets = [ws for ws in opened if not isinstance(ws, BaseException)]
    failures = Counter(type(o).__name__ for o in opened if isinstance(o, BaseException))
    samples = [repr(o)[:200] for o in opened if isinstance(o, BaseException)][:3]
    drains = [asyncio.ensure_future(drain(ws)) for ws in sockets]
    print(orjson.dumps({"opened": len(sockets), "seconds": took}).decode(), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # the parent sampled the server's CPU meanwhile
    dropped = sum(1 for d in drains if d.done())
    closing = time.perf_counter()
    closed = await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    close_seconds = time.perf_counter() - closing
    for d in drains:
        d.cancel()
    return {
        "kind": "idle", "asked": count, "opened": len(sockets), "open_seconds": round(took, 3),
        "opened_per_s": round(len(sockets) / took, 1) if took else None,
        "open_failures": dict(failures), "open_failure_samples": samples,
        "dropped_while_idle": dropped, "close_seconds": round(close_seconds, 3),
        "close_failures": sum(1 for c in closed if isinstance(c, BaseException)),
    }


async def drain(ws) -> None:
    """A spectator reads whatever comes (nothing, on an idle table) until its socket closes."""
    try:
        async for _ in ws:
            pass
    except Exception:  # noqa: BLE001
        pass


def main(argv: list[str]) -> int:
    spec_path, result_path = argv
    with open(spec_path, "rb") as handle:
        spec = orjson.loads(handle.read())
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runner = {"play": run_play, "echo": run_echo, "idle": run_idle}[spec["kind"]]
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as loop:
        result = loop.run(runner(spec))
    with open(result_path + ".tmp", "wb") as handle:
        handle.write(orjson.dumps(result))
    os.replace(result_path + ".tmp", result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
