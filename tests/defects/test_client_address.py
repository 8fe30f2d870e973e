"""Issue 11, defect 5: rate limits are shared by every process (Django's cache on Redis), and the client's address
comes from X-Forwarded-For only through a trusted proxy (config/client_address.py)."""

import asyncio
import os
import re

import pytest
import redis
from django.test import Client

from config.client_address import TrustedProxies, client_address, networks

TRUSTED = networks("127.0.0.1, 10.0.0.0/8")


@pytest.mark.parametrize(
    ("peer", "header", "client"),
    [
        ("203.0.113.9", "1.2.3.4", "203.0.113.9"),  # not from a proxy: the header is the client's own word
        ("127.0.0.1", "198.51.100.7", "198.51.100.7"),  # the proxy says whom it forwards for
        ("127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # a forged first hop, appended to by the proxy
        ("127.0.0.1", "198.51.100.7, 10.1.2.3", "198.51.100.7"),  # two proxies of ours
        ("127.0.0.1", "not-an-address", "127.0.0.1"),  # garbled: the peer
        ("127.0.0.1", "10.0.0.1, 10.0.0.2", "10.0.0.1"),  # only proxies: the farthest one
        ("127.0.0.1", None, "127.0.0.1"),
    ],
)
def test_the_client_address_is_believed_only_from_a_trusted_proxy(peer, header, client):
    assert client_address(peer, header, TRUSTED) == client


def test_without_trusted_proxies_the_header_is_ignored():
    assert client_address("127.0.0.1", "198.51.100.7", ()) == "127.0.0.1"


def test_a_bad_trusted_proxy_entry_is_refused_at_start_up():
    with pytest.raises(ValueError, match="not an address"):
        networks("10.0.0.0/8, proxy.example")


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_the_middleware_gives_the_application_the_client_s_address(kind):
    seen = []

    async def application(scope, receive, send):
        seen.append(scope["client"])

    scope = {"type": kind, "client": ("127.0.0.1", 5000), "headers": [(b"x-forwarded-for", b"6.6.6.6, 198.51.100.7")]}
    asyncio.run(TrustedProxies(application, TRUSTED)(scope, None, None))
    asyncio.run(TrustedProxies(application, ())(scope, None, None))
    assert seen == [("198.51.100.7", 0), ("127.0.0.1", 5000)]


def test_allauth_counts_failed_logins_in_the_cache_every_process_shares(db, settings):
    url = os.environ.get("REDIS_URL", "")
    if not url.startswith("redis"):
        pytest.skip("needs Redis: set REDIS_URL=redis://…")
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "3/m/ip"}
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    store = redis.Redis.from_url(url)
    for key in store.scan_iter(f"{prefix}:*allauth:rl:*"):
        store.delete(key)
    client = Client()
    answers = [client.post("/accounts/login/", {"login": "nobody@example.com", "password": "wrong"}).content.decode()
               for _ in range(4)]  # fmt: skip
    # Another process (another daphne, or this one restarted) reads the same count: it is in Redis.
    counted = [key.decode() for key in store.scan_iter(f"{prefix}:*allauth:rl:*")]
    assert any(re.search(r"login_failed:.*127\.0\.0\.1", key) for key in counted), counted
    assert "Too many failed login attempts" not in answers[0]
    assert "Too many failed login attempts" in answers[-1]
