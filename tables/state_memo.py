"""Each table's last stored state, decoded, kept in this process so the next action need not decode it again.

The truth stays in the database: the door reads the row's stored text under the row lock on every action and writes
the new text before it commits. This memo only saves re-reading text this process itself wrote: an entry is the
exact text and the TableState decoded from it, and `take` hands the object out only when the row holds exactly that
text. Any other writer (another daphne process, a Celery worker, the admin) wrote a different text (the version is
inside it), so the state is decoded afresh. An entry is owned by one caller at a time: `take` removes it, and the
door puts the new state back with `keep` only after its transaction committed, so a rolled-back change never
reaches the memo. Pure Python (no Django), so the benchmark keeps the state exactly as the server does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class StateMemo:
    def __init__(self, loads: Callable[[str], Any], size: int = 512) -> None:
        """`loads` decodes a stored text into a state (any object with a `version`)."""
        self._loads = loads
        self._size = size
        # The door runs in several threads of one process. `take` needs no lock: a dict's pop is atomic under the
        # GIL, so one thread's take never gets an entry another thread took. `keep` compares and sets, so keeps
        # are serialised (their callbacks run after commit, off the table's row lock).
        self._entries: dict[Hashable, tuple[str, Any]] = {}
        self._keeping = threading.Lock()
        self.hits = self.misses = 0

    def take(self, key: Hashable, text: str):
        """The state stored as `text`: the kept object when it was decoded from exactly this text, else a fresh
        one. Either way the caller owns it; it is no longer in the memo."""
        entry = self._entries.pop(key, None)
        if entry is not None and entry[0] == text:
            self.hits += 1
            return entry[1]
        self.misses += 1
        return self._loads(text)

    def keep(self, key: Hashable, text: str, state) -> None:
        """Remember that `text` (as stored for `key`) decodes to `state`; the caller must not change it after.
        An older version never replaces a newer one (a later change may commit and be kept first, e.g. by a
        listener acting at once); a wrong pairing could only cost a decode, since `take` compares the text."""
        with self._keeping:
            entries = self._entries
            kept = entries.get(key)
            if kept is not None and kept[1].version > state.version:
                return
            entries.pop(key, None)  # re-inserted last: the dict's order is the order of use
            if len(entries) >= self._size:
                try:
                    del entries[next(iter(entries))]
                except (KeyError, RuntimeError, StopIteration):  # a take removed it meanwhile
                    pass
            entries[key] = (text, state)

    def forget(self, key: Hashable) -> None:
        self._entries.pop(key, None)

    def __len__(self) -> int:
        return len(self._entries)
