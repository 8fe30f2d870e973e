"""A bot's move was sent to Celery from the door's thread, after the action commits (bots/receivers.py). With Redis
down, Celery's default publish policy retried three times at growing intervals: every action at a bot table held a
door thread for 0.6-0.75 s, and four such actions stalled every table of that daphne. The web processes now retry
once at once (config/settings/base.py `CELERY_TASK_PUBLISH_RETRY_POLICY`), which still carries a move over a Redis
restart. A Redis that hangs (stopped, its port still taking connections) fails the move within the broker's socket
timeout (config/settings/base.py `REDIS_SOCKET_TIMEOUT`); kombu sets none of its own, and the send waited for ever.
The bots' receiver sends from a thread of its own (bots/receivers.py), so no caller waits, and after a failure it
drops the moves due for that long rather than let them queue up behind the broker's timeouts."""

import logging
import signal
import threading
import time

import pytest
import redis
from kombu.exceptions import OperationalError

from bench.live_stack import free_port
from bots import tasks
from config.celery import app


def _policy_counting(retries: list) -> dict:
    return {**app.conf.task_publish_retry_policy, "errback": lambda error, interval: retries.append(interval)}


def test_a_bot_move_sent_while_redis_is_down_fails_after_one_immediate_retry():
    retries = []
    with app.connection_for_write(f"redis://127.0.0.1:{free_port()}/0") as down:  # nobody listens there
        with pytest.raises(OperationalError):
            tasks.bot_act.apply_async((1, 1, 0), countdown=1, connection=down, retry_policy=_policy_counting(retries))
    assert retries == [0]


def test_a_bot_move_sent_after_redis_restarted_reaches_the_queue(restartable_redis):
    url, restart = restartable_redis
    with app.connection_for_write(url) as connection:
        tasks.bot_act.apply_async((1, 1, 0), countdown=1, connection=connection)
        restart()  # the connection above now points at a closed socket
        retries = []
        tasks.bot_act.apply_async((1, 2, 0), countdown=1, connection=connection, retry_policy=_policy_counting(retries))
    assert redis.Redis.from_url(url).llen("celery") == 1  # the second move (the first went with the old server)
    assert len(retries) <= 1


def test_a_bot_move_sent_while_redis_hangs_fails_within_the_socket_timeout(stoppable_redis, settings):
    url, server = stoppable_redis
    outcome = []

    def send():
        began = time.monotonic()
        try:
            with app.connection_for_write(url) as connection:
                tasks.bot_act.apply_async((1, 1, 0), countdown=1, connection=connection)
            outcome.append(("sent", time.monotonic() - began))
        except OperationalError:
            outcome.append(("failed", time.monotonic() - began))

    server.send_signal(signal.SIGSTOP)
    try:
        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        sender.join(6 * settings.REDIS_SOCKET_TIMEOUT)
        assert outcome, "the send still waits on the hung Redis"
    finally:
        server.send_signal(signal.SIGCONT)
    kind, seconds = outcome[0]
    assert kind == "failed" and seconds < 3 * settings.REDIS_SOCKET_TIMEOUT


def test_after_a_failed_send_the_bots_moves_due_meanwhile_are_dropped_not_queued(caplog, monkeypatch, settings):
    from bots import receivers

    monkeypatch.setattr(receivers, "_down_until", 0.0)
    due = [(seat, None) for seat in (0, 1, 2)]
    with caplog.at_level(logging.WARNING, logger="bots.receivers"):
        with app.connection_for_write(f"redis://127.0.0.1:{free_port()}/0") as down:  # nobody listens there
            began = time.monotonic()
            receivers.send(7, 3, due, connection=down)
            receivers.send(7, 4, due, connection=down)
    failed = [r for r in caplog.records if "could not schedule" in r.getMessage()]
    dropped = [r for r in caplog.records if "is not sent" in r.getMessage()]
    assert len(failed) == 1 and "seat 0" in failed[0].getMessage()  # the first seat's failure ends that call
    assert len(dropped) == 1 and "(v4)" in dropped[0].getMessage()  # the next call sends nothing
    assert receivers._down_until >= began + settings.REDIS_SOCKET_TIMEOUT
