"""The one door through which every change to a table passes; its public surface.

Callers (consumers, tasks, bots, the admin, tests) use only these names. The package holds the door by concern:
door.py (creating and closing tables, acting, a clock running out), optimistic.py (a move in a deal in one
statement, without the row's lock), ledger.py (an action's chips as one ledger
batch), history.py (hand histories), replies.py (stored replies to message ids), presence.py, chat.py, notify.py
(who hears of a committed change) and test_decks.py (the test settings' fixed decks).
"""

from ..errors import DoorError
from .chat import chat
from .door import Ack, act, close_table, create_table, run_out_clock, sit, stand
from .optimistic import accounts_told, act_from_loop, known, ready_next_move
from .optimistic import act as act_unlocked
from .optimistic import seen as committed_seen
from .presence import PRESENCE_HEARTBEAT_SECONDS, connected, disconnected, offline_players, still_here
from .replies import prune as prune_replies
from .test_decks import queue_test_deck

__all__ = [
    "DoorError",
    "Ack",
    "create_table",
    "close_table",
    "act",
    "act_unlocked",
    "act_from_loop",
    "committed_seen",
    "accounts_told",
    "ready_next_move",
    "known",
    "sit",
    "stand",
    "run_out_clock",
    "chat",
    "connected",
    "disconnected",
    "still_here",
    "offline_players",
    "PRESENCE_HEARTBEAT_SECONDS",
    "prune_replies",
    "queue_test_deck",
]
