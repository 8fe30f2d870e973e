"""`table_changed`: sent after every committed change to a table (from `transaction.on_commit`).

Receivers get `table_id`, `version`, `state` (the engine's TableState as committed) and `bot_seats` (the seats
where a bot sits in it). The bots part listens to
schedule bot moves; a receiver must not assume it runs in the process that serves any particular client. A
receiver reads `state` while it runs and must neither change nor keep it: the door keeps that object for the
table's next action right after the receivers return (tables/state_memo.py).
"""

from django.dispatch import Signal

table_changed = Signal()
