"""A real WebSocket client for the live tests (the `websockets` package, synchronous API)."""

import json
import time
import uuid

from websockets.sync.client import connect


class Refused(AssertionError):
    pass


class LiveClient:
    """One browser tab: a socket to a table (or the lobby when table_id is None) with the player's session cookie.

    Every snapshot received is checked: no card this viewer may not see (RULES D1, §6)."""

    def __init__(self, port: int, table_id: int | None, sessionid: str | None = None, origin: str | None = None):
        self.port, self.table_id = port, table_id
        path = "/ws/lobby/" if table_id is None else f"/ws/tables/{table_id}/"
        headers = {"Cookie": f"sessionid={sessionid}"} if sessionid else {}
        self.ws = connect(
            f"ws://127.0.0.1:{port}{path}",
            origin=origin or f"http://127.0.0.1:{port}",
            additional_headers=headers,
            open_timeout=10,
            close_timeout=2,
        ).__enter__()
        self.snapshot: dict | None = None
        self.received: list[dict] = []
        self.latest_version = -1  # the newest version this client heard of (ack, event or snapshot)

    def close(self) -> None:
        self.ws.close()

    def recv(self, timeout: float = 10) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.received.append(message)
        if isinstance(message.get("version"), int):
            self.latest_version = max(self.latest_version, message["version"])
        if message.get("type") == "snapshot":
            check_no_hidden_cards(message)
            for event in message["events"]:
                private_to = event.get("private_to")
                assert private_to is None or private_to == message["seat"], f"seat {message['seat']} got {event}"
            if self.snapshot is None or message["version"] >= self.snapshot["version"]:
                self.snapshot = message
        return message

    def until(self, predicate, timeout: float = 10) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message in {timeout} s; last: {self.received[-3:]}")
            message = self.recv(timeout=left)
            if predicate(message):
                return message

    def send(self, kind: str, **fields) -> str:
        message_id = fields.pop("id", None) or uuid.uuid4().hex[:12]
        self.ws.send(json.dumps({"type": kind, "id": message_id, **fields}))
        return message_id

    def request(self, kind: str, **fields) -> dict:
        message_id = self.send(kind, **fields)
        # An applied action is answered by the snapshot of its change with the message's id (or an ack).
        return self.until(lambda m: m.get("id") == message_id and m["type"] in ("snapshot", "ack", "error"))

    def act(self, kind: str, **fields) -> dict:
        answer = self.request(kind, **fields)
        if answer["type"] == "error":
            raise Refused(f"{kind} {fields} refused: {answer}")
        return answer

    def state_where(self, predicate, timeout: float = 10) -> dict:
        """The latest snapshot once it satisfies predicate(snapshot)."""
        if self.snapshot is not None and predicate(self.snapshot):
            return self.snapshot
        return self.until(lambda m: m["type"] == "snapshot" and m is self.snapshot and predicate(m), timeout)

    def at_version(self, version: int, timeout: float = 10) -> dict:
        return self.state_where(lambda s: s["version"] >= version, timeout)

    @property
    def state(self) -> dict:
        return self.snapshot["state"]

    def my_turn(self) -> bool:
        return self.snapshot["seat"] is not None and self.state["turn"] == self.snapshot["seat"]

    def legal(self) -> dict:
        return {legal["kind"]: legal for legal in self.snapshot["legal"]}


def check_no_hidden_cards(snapshot: dict) -> None:
    """Only the viewer's own opened cards and cards shown at the showdown may appear (D1, §6)."""
    you = snapshot["seat"]
    for seat in snapshot["state"]["seats"]:
        if not seat:
            continue
        cards = seat.get("cards") or []
        visible = sum(card is not None for card in cards)
        if seat["seat"] == you:
            assert seat.get("shown") or visible <= seat["opened"], f"viewer {you} sees unopened cards: {seat}"
        else:
            assert visible == 0 or seat.get("shown"), f"viewer {you} sees hidden cards of {seat}"
