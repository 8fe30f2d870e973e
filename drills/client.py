"""The drills' clients: bench/live_client.py's scripted players, plus spectators, that record every frame they
receive and come back after their socket breaks.

    python -m drills.client SPEC.json RESULT.json

Like the load client it runs in a process of its own and imports nothing from Django. Every frame goes to
`SPEC["frames"]` as one line: table, user id (`-` for a spectator), connection number, the frame's text as
received. A client whose socket closes opens a new one (the next of its URLs, so a dead daphne's clients move to
the other), resends the message that was waiting for its answer with the same id (the door answers a repeated id
from its store, never applying it twice), and checks that the first frame of the new connection is a whole
snapshot. It plays until its parent writes a line to its stdin (or `SPEC["seconds"]` pass), then lets the
running deals end and writes its figures to RESULT.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import resource
import sys
import time
from collections import Counter

import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.live_client import CONNECT_CONCURRENCY, Player, Run, gather_limited

SNAPSHOT_KEYS = frozenset(("version", "seat", "table", "clock", "legal", "state"))
RECONNECT_PAUSE = 0.3  # between two tries to open a socket while the servers are away


class Recorder:
    def __init__(self, path: str):
        self.handle = open(path, "w", encoding="utf-8", buffering=1 << 20)  # noqa: SIM115 - closed in close()
        self.count = 0

    def write(self, table: int, user: int | None, connection: int, raw) -> None:
        text = raw if isinstance(raw, str) else raw.decode()
        self.handle.write(f"{table}\t{'-' if user is None else user}\t{connection}\t{text}\n")
        self.count += 1

    def close(self) -> None:
        self.handle.close()


class DrillPlayer(Player):
    """A scripted player (or, with no cookie, a spectator) that records every frame and survives a broken socket."""

    def __init__(self, run: Run, spec: dict, common: dict, index: int, recorder: Recorder, stats: Counter,
                 outages: list):
        super().__init__(run, spec, common, index)
        self.urls = spec["urls"]
        self.recorder, self.stats, self.outages = recorder, stats, outages
        self.user = spec.get("user")
        self.connection = 0
        self.fresh = False  # the next frame is the first of a new connection
        self.lazy = common.get("lazy", 0.0)  # how often this player leaves his move to the clock

    def _clock_left(self, snapshot: dict) -> float:
        left = super()._clock_left(snapshot)
        clock = snapshot.get("clock") or {}
        if left != float("inf") and clock.get("kind") != "new_deal" and self.lazy:
            # Decided once a version (the same answer however often it is asked): this time, let it run out.
            if random.Random(f"{self.index}:{snapshot['version']}").random() < self.lazy:
                return 0.0
        return left

    async def open(self) -> None:
        url = self.urls[(self.index + self.connection) % len(self.urls)]
        headers = {"Cookie": self.spec["cookie"]} if self.spec.get("cookie") else {}
        self.ws = await connect(url, origin=self.spec["origin"], additional_headers=headers, compression=None,
                                open_timeout=10, close_timeout=2, ping_interval=None, max_size=2**22)
        self.connection += 1
        self.fresh = True
        self.told = False  # this connection heard the error `unavailable`
        self.last_frame = time.monotonic()
        self.reader = asyncio.ensure_future(self.read())

    def heard(self, raw, message: dict) -> None:
        self.recorder.write(self.spec["table"], self.user, self.connection, raw)
        if self.fresh:
            self.fresh = False
            if message.get("type") == "error" and message.get("code") == "unavailable":
                self.stats["refused_unavailable"] += 1  # told the server cannot serve now; the socket closes
            elif self.connection > 1:
                self.stats["reconnects"] += 1
                whole = message.get("type") == "snapshot" and SNAPSHOT_KEYS <= message.keys() and isinstance(
                    message.get("state"), dict)
                if whole:
                    self.stats["first_frame_snapshot"] += 1
                    # The new connection's first snapshot is the truth now: a move refused `unavailable` on the
                    # old one (nothing changed) may be made again on it, as a person would press the button again.
                    # Waiting for a newer version instead left a whole table idle until its New deal clock sat
                    # every player out (CI's fault drill, a table's four presses refused during Redis's restart).
                    self.wait_above = min(self.wait_above, message["version"] - 1)
                else:
                    self.stats["first_frame_not_snapshot"] += 1
                    self.run.failure("first_frame_not_snapshot", str(raw)[:200], "reconnect")
        if message.get("type") == "error":
            self.stats[f"error:{message.get('code')}"] += 1
            self.told = self.told or message.get("code") == "unavailable"

    async def keep_playing(self, seated: bool) -> None:
        run = self.run
        while True:
            try:
                await (self.play() if seated else self.watch())
            except ConnectionClosed:
                pass  # it broke while sending: open another below
            if run.stopping and (time.monotonic() > run.drain_until or self._between_deals()):
                return
            if self.ws.close_code is None:
                continue
            # The close code shows before the reader has handed on the frames that came ahead of it (the
            # `unavailable` that says why): let it finish first.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.reader), 5)
            self.closed(self.ws.close_code)
            waiting = self.outstanding
            self.outstanding = None
            await self.reconnect()
            if waiting is not None and self.sent_text is not None:
                # The answer may have been lost with the socket: ask again under the same id.
                self.stats["resent"] += 1
                self.outstanding = (waiting[0], time.perf_counter(), waiting[2])
                self.answered.clear()
                try:
                    await self.ws.send(self.sent_text)
                except Exception:  # noqa: BLE001 - broke again: the loop reconnects
                    continue
                await self.wait_answer()

    def closed(self, code: int) -> None:
        """A socket the server closed on purpose (a close frame with a code, not a dead process's 1006) must have
        said why: 4503 after the error `unavailable`, 4000 (the table closed) or 4404 (no such table)."""
        self.stats[f"close:{code}"] += 1
        if code not in (1000, 1006, 4000, 4404) and not (self.told and code == 4503):
            self.stats["closed_untold"] += 1
            self.run.failure("closed_untold", f"closed with {code} and no word why", "close")

    async def watch(self) -> None:
        """A spectator reads (the reader task records) until the socket closes or the run ends."""
        while self.ws.close_code is None:
            await self.wait_changed(1.0)
            if self.run.stopping:
                return
            await self._resync_if_silent()

    async def reconnect(self) -> None:
        """Open a socket again, trying the URLs in turn; how long this client was without one is an outage."""
        started = time.monotonic()
        tries = 0
        while True:
            tries += 1
            try:
                await self.open()
                break
            except Exception as failure:  # noqa: BLE001 - the servers are away: a figure, then try again
                self.stats[f"connect_failed:{type(failure).__name__}"] += 1
                self.connection += 1  # the next URL
                await asyncio.sleep(RECONNECT_PAUSE)
        self.outages.append({"table": self.spec["table"], "user": self.user, "seconds": time.monotonic() - started,
                             "tries": tries, "at": time.time()})


async def run_drill(spec: dict) -> dict:
    run = Run(spec.get("seconds", 3600.0))
    recorder = Recorder(spec["frames"])
    stats: Counter = Counter()
    outages: list = []
    clients = [DrillPlayer(run, p, spec, i, recorder, stats, outages) for i, p in enumerate(spec["players"])]
    players = [c for c in clients if c.spec.get("cookie")]
    started = time.monotonic()
    opened = await gather_limited([c.open() for c in clients], CONNECT_CONCURRENCY)
    failed = [repr(o) for o in opened if isinstance(o, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(clients)} sockets did not open: {failed[:3]}")
    seated = await gather_limited([p.sit() for p in players], CONNECT_CONCURRENCY)
    failed = [repr(o) for o in seated if isinstance(o, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(players)} players could not sit: {failed[:3]}")
    print(orjson.dumps({"ready": round(time.monotonic() - started, 2)}).decode(), flush=True)
    run.start = time.monotonic()
    tasks = [asyncio.ensure_future(c.keep_playing(bool(c.spec.get("cookie")))) for c in clients]
    loop = asyncio.get_running_loop()
    told = loop.run_in_executor(None, sys.stdin.readline)
    await asyncio.wait([told], timeout=run.seconds)
    run.end = time.monotonic()
    run.stopping = True
    run.drain_until = time.monotonic() + spec.get("drain", 30.0)
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            run.failure(f"client:{type(outcome).__name__}", str(outcome), "play")
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    recorder.close()
    return {
        "sockets": len(clients), "players": len(players), "spectators": len(clients) - len(players),
        "seconds": round(run.end - run.start, 2), "frames": recorder.count, "acked": dict(run.kinds),
        "errors_by_code": dict(run.errors), "failures": dict(run.failures), "error_samples": run.error_samples,
        "counts": dict(run.counts), "stats": dict(stats), "outages": outages,
    }


def main(argv: list[str]) -> int:
    spec_path, result_path = argv
    with open(spec_path, "rb") as handle:
        spec = orjson.loads(handle.read())
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    result = asyncio.run(run_drill(spec))
    with open(result_path + ".tmp", "wb") as handle:
        handle.write(orjson.dumps(result))
    os.replace(result_path + ".tmp", result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
