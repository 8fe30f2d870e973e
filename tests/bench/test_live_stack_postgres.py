"""How `bench live` reaches the machine's PostgreSQL (bench/live_stack.py machine_pg_url)."""

import pytest

from bench import live_stack


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.delenv("BENCH_PG_URL", raising=False)
    live_stack.machine_pg_url.cache_clear()
    yield monkeypatch
    live_stack.machine_pg_url.cache_clear()


def test_without_a_socket_that_answers_the_stack_connects_over_tcp(fresh, tmp_path):
    fresh.setattr(live_stack, "PG_SOCKET_URL", f"postgres://postgres@{str(tmp_path).replace('/', '%2F')}/postgres")
    assert live_stack.machine_pg_url() == live_stack.PG_TCP_URL
    assert live_stack.database_url("svara_x") == "postgres://postgres@127.0.0.1:5432/svara_x"


def test_bench_pg_url_names_the_server(fresh):
    fresh.setenv("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5999/postgres")
    assert live_stack.database_url("svara_x") == "postgres://postgres@127.0.0.1:5999/svara_x"


def test_the_url_it_picks_lets_the_stack_in(fresh):
    live_stack.pg_admin("SELECT 1")  # the socket's or TCP's: either way a working way in
