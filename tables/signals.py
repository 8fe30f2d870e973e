"""`table_changed`: sent after every committed change to a table (from `transaction.on_commit`).

Receivers get `table_id`, `version`, `state` (the engine's TableState as committed) and `bot_seats` (the seats
where a bot sits in it). The bots part listens to
schedule bot moves; a receiver must not assume it runs in the process that serves any particular client. A
receiver reads `state` while it runs and must not change it (every receiver gets the same object).
"""

from django.dispatch import Signal

table_changed = Signal()
