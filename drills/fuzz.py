"""The fuzz drill: hostile messages against a real deployment, and what must hold after every one.

`python -m drills.fuzz [--messages N] [--tables T] [--seed S] [--http N]`

Starts the production-like deployment of bench/live_stack.py (its own Redis and PostgreSQL database, two daphne,
a Celery worker and beat, production settings; the game clocks scaled far out so that nothing but the drill's own
messages changes a table). Per table it seats three players and opens six sockets on both daphne processes: the
three players, a second socket of one of them, a player seated elsewhere and an anonymous spectator. One driver per
table then sends N / T frames, one at a time or in floods: bad JSON, deep nesting, huge frames, binary noise, NUL
and odd unicode, wrong types, huge/negative/float/string amounts, unknown types, other tables and seats, replayed
ids, floods past the rate limit, and honest moves so deals are played (drills/hostile.py). It checks:

- every frame gets its answer, in order: the snapshot of its change (with its id) or an `ack`, or an `error` whose
  code is the protocol's (the exact code for a frame the protocol refuses), never `server_error`; a repeated id
  gets an ack of the version it was applied at;
- applied exactly once: an applied frame moves the table's version by exactly one (a chat by none), an `error` by none,
  so a refused frame changed nothing (the version the driver expects is the database's at the end);
- the version rule of docs/protocol.md on every socket (snapshots never go back, and no frame but a snapshot
  carries events), and no socket is ever closed by the server;
- at the end: the ledger audit is clean, every stack account holds the engine's stack, every presence is released
  once the sockets close, and no server log holds a traceback or an ERROR line.

Then hostile socket paths (a `no_such_table` or a refused handshake, never a 500) and `--http` hostile HTTP forms
(lobby, quick seat, login, sign-up, the table and count pages: never a 500). Prints its figures; exit status 0 only
when everything held. Full size: `--messages 100000`; CI runs it small (.ci/run).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import random
import re
import signal
import sys
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field

import orjson

from bench import live_players, live_stack
from bench.live_client import choose
from drills.hostile import DOOR_CODES, Generator, Hostile, dumps, hostile_paths

PROTOCOL_CODES = DOOR_CODES | {"bad_json", "unknown_type", "chat_closed", "wrong_table", "no_such_table"}
ANTE = 10
ANSWER_SECONDS = 20
FLOOD = 25
# Frames a socket may send to the door per second (tables/consumers.py ACTIONS_PER_SECOND), kept under it.
DOOR_RATE = 8.0
# Ids are replayed only this soon after their ack: the server keeps a reply SVARA_REPLY_SECONDS (900) at least.
REPLAY_WITHIN = 600.0


def say(text: str = "") -> None:
    print(text, flush=True)


@dataclass
class Failure:
    where: str
    what: str


@dataclass
class Socket:
    name: str
    user_pk: int | None
    url: str
    cookie: str | None
    ws: object = None
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    snapshot: dict | None = None
    last_version: int = -1
    closed_code: int | None = None
    tokens: float = DOOR_RATE
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(DOOR_RATE, self.tokens + (now - self.at) * DOOR_RATE)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Driver:
    """One table's sockets, driven one frame (or one flood) at a time, so every version change is its own."""

    def __init__(self, table_id: int, other_table: int, sockets: list[Socket], seated: list[Socket],
                 budget: int, seed: int, failures: list[Failure]):  # fmt: skip
        self.table_id, self.sockets, self.seated = table_id, sockets, seated
        self.budget, self.failures = budget, failures
        self.rng = random.Random(seed)
        self.generator = Generator(self.rng, table_id, other_table)
        self.expected_version = 0
        self.sent = 0
        self.answers: Counter = Counter()
        self.acked: dict[tuple[int, str], dict] = {}  # (user, id) -> the ack it got first
        self.acked_at: dict[tuple[int, str], float] = {}
        self.replays = 0
        self.late_snapshots = 0

    def fail(self, what: str) -> None:
        self.failures.append(Failure(f"table {self.table_id}", what))

    # --- reading ---------------------------------------------------------------------------------------------

    async def reader(self, socket: Socket) -> None:
        try:
            async for raw in socket.ws:
                message = orjson.loads(raw)
                self.watch(socket, message)
                await socket.queue.put(message)
        except Exception:  # noqa: BLE001 - the close code says what happened
            pass
        socket.closed_code = socket.ws.close_code if socket.ws.close_code is not None else -1

    def watch(self, socket: Socket, message: dict) -> None:
        """The version rule on every socket: snapshots never go back; no frame but a snapshot carries events."""
        kind = message.get("type")
        if kind == "snapshot":
            if message["version"] < socket.last_version:
                self.fail(f"{socket.name}: snapshot v{message['version']} after v{socket.last_version}")
            if not isinstance(message.get("events"), list):
                self.fail(f"{socket.name}: snapshot v{message['version']} without its events")
            socket.last_version = message["version"]
            socket.snapshot = message
        elif "events" in message:
            self.fail(f"{socket.name}: events in a {kind} frame")
        elif kind == "error" and message.get("code") == "server_error":
            self.fail(f"{socket.name}: server_error: {message.get('message')}")

    async def answer(self, socket: Socket, hostile: Hostile) -> dict | None:
        """The frame that answers `hostile` on its socket (frames in between are watched and skipped)."""
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or socket.closed_code is not None and socket.queue.empty():
                self.fail(f"{socket.name}: no answer to {hostile.what} {hostile.frame[:80]!r} "
                          f"(closed {socket.closed_code})")  # fmt: skip
                return None
            try:
                message = await asyncio.wait_for(socket.queue.get(), timeout=min(left, 1.0))
            except TimeoutError:
                continue
            kind = message.get("type")
            if hostile.category == "snapshot":
                if kind == "snapshot" and message["version"] == self.expected_version:
                    return message
                if kind == "error":
                    return message
                continue
            if hostile.category == "ping":
                if kind == "pong":
                    return message
                if kind == "error":
                    return message
                continue
            if kind in ("ack", "error") or (kind == "snapshot" and "id" in message):  # an applied one's: its snapshot
                return message

    # --- checking one answer ---------------------------------------------------------------------------------

    def check(self, socket: Socket, hostile: Hostile, message: dict | None, replay: dict | None = None) -> None:
        if message is None:
            return
        kind = message.get("type")
        if kind == "snapshot" and "id" in message and hostile.category != "snapshot":
            # An applied message is answered by the snapshot of its change: taken as the ack a repeat of its id gets.
            message, kind = {"type": "ack", "id": message["id"], "version": message["version"]}, "ack"
        self.answers[message.get("code") or kind] += 1
        shown = f"{hostile.what} {hostile.frame[:80]!r}"
        if kind == "error":
            code = message.get("code")
            if code not in PROTOCOL_CODES:
                self.fail(f"{socket.name}: {shown} answered with code {code!r}")
            if hostile.category == "parse" and code not in hostile.codes:
                self.fail(f"{socket.name}: {shown} answered {code!r}, expected {sorted(hostile.codes)}")
            if hostile.category in ("chat",) and code not in hostile.codes | {"bad_field", "out_of_range"}:
                self.fail(f"{socket.name}: {shown} answered {code!r}")
            if message.get("id") != hostile.id:
                self.fail(f"{socket.name}: {shown}: the error carries id {message.get('id')!r}")
            if replay is not None:
                self.fail(f"{socket.name}: the replay of an applied id was refused ({code})")
            return
        if kind == "ack":
            if hostile.category == "parse":
                self.fail(f"{socket.name}: {shown} was applied")
                return
            if message.get("id") != hostile.id:
                self.fail(f"{socket.name}: {shown}: the ack carries id {message.get('id')!r}")
            if replay is not None:
                if message != replay:
                    self.fail(f"{socket.name}: a replayed id got {message}, first {replay}")
                self.replays += 1
                return
            if hostile.id is not None and (socket.user_pk, hostile.id) in self.acked:
                first = self.acked[(socket.user_pk, hostile.id)]
                if message != first:
                    self.fail(f"{socket.name}: id {hostile.id} acked twice differently: {first} then {message}")
                return
            step = 0 if hostile.category == "chat" else 1
            if message["version"] != self.expected_version + step:
                self.fail(f"{socket.name}: {shown} acked at v{message['version']}, expected "
                          f"v{self.expected_version + step}: a change that was not this message's alone")  # fmt: skip
            self.expected_version = message["version"]
            if hostile.id is not None:
                self.acked[(socket.user_pk, hostile.id)] = message
                self.acked_at[(socket.user_pk, hostile.id)] = time.monotonic()

    # --- choosing and sending --------------------------------------------------------------------------------

    async def fresh(self, socket: Socket) -> dict | None:
        """The socket's snapshot at the table's current version (asked for once if it is late)."""
        for attempt in range(2):
            deadline = time.monotonic() + 3
            while socket.last_version < self.expected_version and time.monotonic() < deadline:
                try:
                    await asyncio.wait_for(socket.queue.get(), timeout=0.5)  # watched already by the reader
                except TimeoutError:
                    pass
            if socket.last_version >= self.expected_version:
                return socket.snapshot
            if attempt == 0:
                self.late_snapshots += 1
                if socket.take():
                    await socket.ws.send(dumps({"type": "snapshot"}))
        return socket.snapshot

    async def honest(self) -> tuple[Socket, tuple[str, dict]] | None:
        """An honest move for the table as it is now: from a socket whose snapshot is current, else from the one
        the clock waits for (waiting for its snapshot only then)."""
        current = [s for s in self.seated if s.snapshot is not None and s.last_version >= self.expected_version]
        for socket in self.rng.sample(current, len(current)):
            move = self.move_of(socket.snapshot)
            if move is not None:
                return socket, move
        waiting = set()
        for socket in current:
            waiting |= set((socket.snapshot.get("clock") or {}).get("seats") or ())
        for socket in self.seated:
            if socket not in current and socket.snapshot is not None and socket.snapshot["seat"] in waiting:
                snapshot = await self.fresh(socket)
                move = self.move_of(snapshot) if snapshot is not None else None
                if move is not None:
                    return socket, move
        return None

    def move_of(self, snapshot: dict) -> tuple[str, dict] | None:
        if snapshot["seat"] is None:
            return ("sit", {"amount": 40 * ANTE}) if snapshot["state"].get("phase") == "waiting" else None
        return choose(snapshot, self.rng, False, ANTE)

    async def send(self, socket: Socket, hostile: Hostile) -> None:
        await socket.ws.send(hostile.frame)
        self.sent += 1

    async def one(self) -> None:
        rng = self.rng
        r = rng.random()
        recent = time.monotonic() - REPLAY_WITHIN
        if r < 0.02 and self.acked and self.acked_at[next(reversed(self.acked))] > recent:
            # A replayed id of an applied message, with any payload, within the reply window (SVARA_REPLY_SECONDS:
            # older replies are pruned, and their ids are new again).
            young = [key for key in self.acked if self.acked_at[key] > recent]
            user_pk, message_id = rng.choice(young)
            first = self.acked[(user_pk, message_id)]
            socket = rng.choice([s for s in self.sockets if s.user_pk == user_pk])
            if socket.take():
                body = {"type": rng.choice(["check", "fold", "stand", "new_deal", "bet"]), "id": message_id}
                if body["type"] == "bet":
                    body["amount"] = 20
                hostile = Hostile(dumps(body), "door", id=message_id, what="replayed id")
                await self.send(socket, hostile)
                self.check(socket, hostile, await self.answer(socket, hostile), replay=first)
                return
        if r < 0.03:  # a flood: past the rate limit, every frame still answered, in order
            socket = rng.choice(self.sockets)
            frames = [self.generator.door_level(None) for _ in range(FLOOD)]
            for hostile in frames:
                await self.send(socket, hostile)
            for hostile in frames:
                self.check(socket, hostile, await self.answer(socket, hostile))
            socket.tokens, socket.at = 0, time.monotonic()  # the server's bucket is empty now
            return
        if r < 0.45:
            picked = await self.honest() if rng.random() < 0.7 else None
            socket = picked[0] if picked else rng.choice(self.sockets)
            if socket.take():
                hostile = self.generator.door_level(picked[1] if picked else None)
                await self.send(socket, hostile)
                self.check(socket, hostile, await self.answer(socket, hostile))
                return
        socket = rng.choice(self.sockets)
        if r < 0.5:
            hostile = self.generator.chat()
        elif r < 0.53:
            hostile = self.generator.ping()
        elif r < 0.55 and socket.take():
            hostile = self.generator.snapshot()
        else:
            hostile = self.generator.parse_level()
            if hostile.category == "door" and not socket.take():
                return
        await self.send(socket, hostile)
        self.check(socket, hostile, await self.answer(socket, hostile))

    async def run(self) -> None:
        readers = [asyncio.ensure_future(self.reader(s)) for s in self.sockets]
        first = await self.fresh(self.sockets[0])
        self.expected_version = first["version"] if first else 0
        for socket in self.seated:  # everybody sits first
            message_id = self.generator.next_id()
            hostile = Hostile(dumps({"type": "sit", "amount": 40 * ANTE, "id": message_id}), "door", id=message_id,
                              what="sit down")  # fmt: skip
            socket.take()
            await self.send(socket, hostile)
            self.check(socket, hostile, await self.answer(socket, hostile))
        while self.sent < self.budget and not self.failures:
            await self.one()
        for socket in self.sockets:
            if socket.closed_code is not None:
                self.fail(f"{socket.name} was closed by the server with {socket.closed_code}")
        for socket in self.sockets:
            await socket.ws.close()
        await asyncio.gather(*readers, return_exceptions=True)


async def open_sockets(specs: list[Socket]) -> None:
    from websockets.asyncio.client import connect

    for socket in specs:
        headers = {"Cookie": socket.cookie} if socket.cookie else {}
        socket.ws = await connect(socket.url, origin=socket.url.replace("ws://", "http://").split("/ws/")[0],
                                  additional_headers=headers, compression=None, open_timeout=30, close_timeout=5,
                                  ping_interval=None, max_size=2**24, max_queue=None)  # fmt: skip


async def socket_paths(web_urls: list[str], rng: random.Random, count: int, failures: list[Failure]) -> Counter:
    """Hostile socket paths: a no_such_table (then close 4404) or a refused handshake (403), never a 500."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    seen: Counter = Counter()
    for index, path in enumerate(hostile_paths(rng, count)):
        base = web_urls[index % len(web_urls)]
        url = base.replace("http://", "ws://") + path
        try:
            async with connect(url, origin=base, open_timeout=10, close_timeout=5, ping_interval=None) as ws:
                first = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
                if first.get("code") != "no_such_table":
                    failures.append(Failure("socket paths", f"{path}: {first}"))
                seen["no_such_table"] += 1
        except InvalidStatus as refused:
            status = refused.response.status_code
            seen[f"HTTP {status}"] += 1
            if status >= 500:
                failures.append(Failure("socket paths", f"{path}: HTTP {status}"))
        except Exception as other:  # noqa: BLE001 - a refusal by the client library itself (a bad URL)
            seen[type(other).__name__] += 1
    return seen


def http_forms(web_urls: list[str], player: live_players.Player, rng: random.Random, count: int,
               failures: list[Failure]) -> Counter:  # fmt: skip
    """Hostile HTTP forms and pages, logged in and not: never a 500."""
    statuses: Counter = Counter()
    junk = ["", "0", "-1", "9" * 30, "1e9", "abc", "\x00", "1\x00", "😀", "<script>", "classic\x00", "classic",
            "bulgarian", "10", "6", "true", "' OR 1=1 --", "%00", "\u202e", "x" * 5000]  # fmt: skip
    for index in range(count):
        base = web_urls[index % len(web_urls)]
        parts = urllib.parse.urlsplit(base)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        logged_in = rng.random() < 0.7
        cookie = player.cookie if logged_in else ""
        try:
            connection.request("GET", "/", headers={"Cookie": cookie} if cookie else {})
            page = connection.getresponse()
            text = page.read().decode(errors="replace")
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text)
            jar = {}
            for header in page.headers.get_all("Set-Cookie") or ():
                name, _, rest = header.partition("=")
                jar[name.strip()] = rest.split(";", 1)[0]
            csrf = jar.get("csrftoken", "")
            cookies = "; ".join(c for c in (cookie, f"csrftoken={csrf}" if csrf else "") if c)
            pick = rng.randrange(7)
            if pick == 0:
                method, path = "POST", "/create/"
                body = {"family": rng.choice(junk), "ante": rng.choice(junk), "seats": rng.choice(junk)}
                if rng.random() < 0.5:
                    body["bots_allowed"] = rng.choice(junk)
            elif pick == 1:
                method, path = "POST", "/quick-seat/"
                body = {k: rng.choice(junk) for k in ("family", "ante_min", "ante_max", "bots") if rng.random() < 0.7}
            elif pick == 2:
                method, path = "POST", "/accounts/login/"
                body = {"login": rng.choice(junk), "password": rng.choice(junk)}
            elif pick == 3:
                method, path = "POST", "/accounts/signup/"
                body = {"email": rng.choice(junk) + "@example.com", "password1": rng.choice(junk),
                        "password2": rng.choice(junk), "display_name": rng.choice(junk)}  # fmt: skip
            elif pick == 4:
                method, path, body = "GET", "/tables/" + urllib.parse.quote(rng.choice(junk)) + "/", None
            elif pick == 5:
                method, path, body = "GET", "/count/?" + urllib.parse.urlencode({"hand": rng.choice(junk),
                                                                               "family": rng.choice(junk)}), None
            else:
                method, path, body = "GET", "/count/points/?" + urllib.parse.urlencode(
                    {"hand": rng.choice(junk), "family": rng.choice(junk)}), None
            headers = {"Cookie": cookies, "Origin": base, "Referer": base + "/"}
            if body is not None:
                if token:
                    body["csrfmiddlewaretoken"] = token.group(1)
                payload = urllib.parse.urlencode(body)
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                connection.request(method, path, body=payload, headers=headers)
            else:
                connection.request(method, path, headers=headers)
            response = connection.getresponse()
            response.read()
            statuses[response.status] += 1
            if response.status >= 500:
                failures.append(Failure("http", f"{method} {path[:80]} answered {response.status}"))
        finally:
            connection.close()
    return statuses


def presences_left() -> int:
    from tables.models import Presence

    return Presence.objects.filter(connections__gt=0).count()


def ledger_against_engine(table_ids: list[int]) -> list[str]:
    from tables.engine.play import TableState
    from tables.models import Table
    from wallet.models import AccountKind, LedgerAccount

    wrong = []
    for table in Table.objects.filter(pk__in=table_ids):
        state = TableState.loads(table.state)
        stacks = {str(a.user_id): a.balance for a in LedgerAccount.objects.filter(kind=AccountKind.STACK,
                                                                                   table_id=table.pk)}  # fmt: skip
        for seat in state.seats:
            if seat.player is not None and stacks.get(seat.player, 0) != seat.stack:
                wrong.append(f"table {table.pk}: {seat.player}'s stack account {stacks.get(seat.player)} "
                             f"!= engine {seat.stack}")  # fmt: skip
        pot = LedgerAccount.objects.filter(kind=AccountKind.POT, table_id=table.pk).first()
        if (pot.balance if pot else 0) != state.pot:
            wrong.append(f"table {table.pk}: pot account {pot.balance if pot else 0} != engine {state.pot}")
    return wrong


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m drills.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="frames to send in all (default 100,000)")
    parser.add_argument("--tables", type=int, default=4, help="tables, one driver each (default 4)")
    parser.add_argument("--seed", type=int, default=None, help="the generator's seed (default: random, printed)")
    parser.add_argument("--http", type=int, default=None, help="hostile HTTP requests (default: 2%% of --messages)")
    parser.add_argument("--paths", type=int, default=40, help="hostile socket paths (default 40)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(10**9)
    http_count = args.http if args.http is not None else max(50, args.messages // 50)
    signal.signal(signal.SIGTERM, _interrupt)  # a CI timeout stops what the drill started, as Ctrl-C does
    say(f"fuzz drill: {args.messages:,} frames at {args.tables} tables, {http_count:,} HTTP requests, "
        f"{args.paths} socket paths, seed {seed}")  # fmt: skip
    # Only the drill's frames may change a table: the clocks and the offline stand-up are pushed far out.
    os.environ.update(SVARA_CLOCK_SCALE="1000", SVARA_OFFLINE_SECONDS="1000000", SVARA_IDLE_TABLE_SECONDS="1000000",
                      SVARA_OPEN_TABLES_PER_PLAYER="1000")  # fmt: skip
    failures: list[Failure] = []
    started = time.monotonic()
    stack = live_stack.Stack(echo=False, say=say)
    try:
        stack.start()
        os.environ.update(live_stack.server_env(stack.db_url, stack.redis_url))
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        from tables.services import create_table

        players = live_players.make_players(3 * args.tables, stack.run_id, chips=1_000_000, say=say)
        for player in players:
            player.cookie = "sessionid=" + live_players.direct_session(player.pk)
        from django.contrib.auth import get_user_model

        users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[p.pk for p in players])}
        tables = [create_table(users[players[3 * t].pk], "classic", ANTE, 6, False).pk for t in range(args.tables)]
        connections.close_all()
        drivers = []
        for t, table_id in enumerate(tables):
            def url(i, table_id=table_id):
                return stack.web_urls[i % 2].replace("http://", "ws://") + f"/ws/tables/{table_id}/"

            mine = players[3 * t: 3 * t + 3]
            elsewhere = players[(3 * t + 3) % len(players)]
            seated = [Socket(f"t{table_id}/p{i}", p.pk, url(i), p.cookie) for i, p in enumerate(mine)]
            extra = [Socket(f"t{table_id}/p0-again", mine[0].pk, url(3), mine[0].cookie),
                     Socket(f"t{table_id}/outsider", elsewhere.pk, url(4), elsewhere.cookie),
                     Socket(f"t{table_id}/spectator", None, url(5), None)]  # fmt: skip
            other = tables[(t + 1) % len(tables)]
            drivers.append(Driver(table_id, other, seated + extra, seated, args.messages // args.tables,
                                  seed + t, failures))  # fmt: skip

        async def play() -> None:
            for driver in drivers:
                await open_sockets(driver.sockets)
            await asyncio.gather(*(driver.run() for driver in drivers))

        t0 = time.monotonic()
        asyncio.run(play())
        seconds = time.monotonic() - t0
        sent = sum(d.sent for d in drivers)
        answers = sum((d.answers for d in drivers), Counter())
        say(f"  {sent:,} frames answered in {seconds:.1f} s ({sent / seconds:,.0f}/s); "
            f"applied (a snapshot or an ack) {answers['ack']:,}, replays answered again {sum(d.replays for d in drivers):,}, "
            f"late snapshots asked for {sum(d.late_snapshots for d in drivers)}")  # fmt: skip
        say("  answers: " + ", ".join(f"{k} {v:,}" for k, v in answers.most_common()))
        paths = asyncio.run(socket_paths(stack.web_urls, random.Random(seed), args.paths, failures))
        say("  socket paths: " + ", ".join(f"{k} {v}" for k, v in paths.most_common()))
        statuses = http_forms(stack.web_urls, players[0], random.Random(seed), http_count, failures)
        say("  HTTP: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))

        from tables.models import Table

        for driver in drivers:
            stored = Table.objects.get(pk=driver.table_id).version
            if stored != driver.expected_version:
                failures.append(Failure(f"table {driver.table_id}", f"version {stored} in the database, "
                                        f"{driver.expected_version} from the acks: a change nobody acked"))
        from tables.models import Deal

        say(f"  deals played: {Deal.objects.filter(table_id__in=tables).count():,}; "
            f"versions: {', '.join(str(d.expected_version) for d in drivers)}")  # fmt: skip
        for _ in range(100):  # the sockets closed: every presence goes back (bounded wait)
            if presences_left() == 0:
                break
            time.sleep(0.1)
        left = presences_left()
        if left:
            failures.append(Failure("presence", f"{left} presences still counted after every socket closed"))
        for wrong in ledger_against_engine(tables):
            failures.append(Failure("ledger", wrong))
        try:
            call_command("audit_ledger", stdout=open(os.devnull, "w"))
            say("  ledger audit: clean")
        except Exception as error:  # noqa: BLE001 - the audit's own message
            failures.append(Failure("ledger", f"audit_ledger: {error}"))
        connections.close_all()
        report = stack.log_report()
        for name, found in report.items():
            if found["Traceback"] or found["ERROR"]:
                failures.append(Failure(f"log of {name}", f"{found['Traceback']} tracebacks, {found['ERROR']} "
                                        f"ERROR lines: {found['lines']} ({found['log']})"))
        say("  server logs: " + ", ".join(f"{n} {f['Traceback']} tracebacks/{f['ERROR']} errors"
                                          for n, f in report.items()))  # fmt: skip
    except KeyboardInterrupt:
        failures.append(Failure("drill", "interrupted"))
    except live_stack.StackError as error:
        failures.append(Failure("deployment", str(error)))
    finally:
        stack.stop()
    say(f"  {time.monotonic() - started:.1f} s in all")
    for failure in failures[:30]:
        say(f"FAILED: {failure.where}: {failure.what}")
    say("fuzz drill: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
