"""Players, chips, tables and logins for `python -m bench live`, set up from the tool's own process.

Needs Django set up on the deployment's database (bench/live.py does it). Users come from the accounts' user
model with one shared password hash (hashing is the server's job at login, not the tool's), a verified primary
e-mail for allauth, and chips credited by a staff user through `wallet.services.credit`; tables come from
`tables.services.create_table`, the door's public surface.

Logging in goes over real HTTP: GET /accounts/login/ for the CSRF cookie, POST the form, keep `sessionid`. The
production settings mark both cookies Secure; this plain-http client reads Set-Cookie itself and sends the
values back in a Cookie header, which is what a browser behind TLS would do. allauth allows 30 logins a minute
from one address (ACCOUNT_RATE_LIMITS "login", counted in Redis for every process at once), and every bench player
comes from 127.0.0.1: so at most `http_logins` players log in over HTTP; the others get the session
`django.contrib.auth.login` would have written, created through the session store, and the report says how many
of each.
"""

from __future__ import annotations

import http.client
import re
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

PASSWORD = "bench-live-pw-7431"
CHIPS = 10_000_000


@dataclass
class Player:
    pk: int
    email: str
    cookie: str = ""  # "sessionid=…"
    how: str = ""  # "http" or "session"


def make_players(count: int, run_id: str, chips: int = CHIPS, say=print) -> list[Player]:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from wallet.services import credit

    User = get_user_model()  # noqa: N806
    started = time.monotonic()
    staff = User.objects.create_user(email=f"staff-{run_id}@bench.example.com", is_staff=True,
                                     display_name=f"staff {run_id}"[:32])
    hashed = make_password(PASSWORD)
    users = [
        User(username=f"p-{run_id}-{i}@bench.example.com", email=f"p-{run_id}-{i}@bench.example.com",
             display_name=f"b{run_id}-{i}"[:32], password=hashed)
        for i in range(count)
    ]
    User.objects.bulk_create(users)
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users]
    )
    for user in users:
        credit(user, chips, reason="bench live: chips to play with", staff=staff)
    say(f"  {count} players with {chips:,} chips each in {time.monotonic() - started:.1f} s")
    return [Player(u.pk, u.email) for u in users]


def make_tables(players: list[Player], ante: int, seats: int = 4) -> list[int]:
    """One classic table per `seats` players, created by its first player."""
    from django.contrib.auth import get_user_model

    from tables.services import create_table

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[p.pk for p in players[::seats]])}
    return [create_table(users[players[i].pk], "classic", ante, seats, False).pk
            for i in range(0, len(players) - seats + 1, seats)]


class LoginFailed(RuntimeError):
    pass


def _cookies(response: http.client.HTTPResponse) -> dict:
    jar = {}
    for header in response.headers.get_all("Set-Cookie") or ():
        name, _, rest = header.partition("=")
        jar[name.strip()] = rest.split(";", 1)[0]
    return jar


def http_login(base_url: str, email: str, password: str = PASSWORD) -> str:
    """Log in through the login form; return the `sessionid` value. 429 (allauth's rate limit) → LoginFailed."""
    parts = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        connection.request("GET", "/accounts/login/")
        response = connection.getresponse()
        page = response.read().decode(errors="replace")
        if response.status != 200:
            raise LoginFailed(f"GET /accounts/login/: HTTP {response.status}")
        jar = _cookies(response)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if "csrftoken" not in jar or token is None:
            raise LoginFailed("the login page set no CSRF cookie or form token")
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token.group(1), "login": email, "password": password}
        )
        connection.request(
            "POST", "/accounts/login/", body=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={jar['csrftoken']}",
                     "Origin": base_url, "Referer": f"{base_url}/accounts/login/"},
        )
        response = connection.getresponse()
        response.read()
        session = _cookies(response).get("sessionid")
        if response.status == 429:
            raise LoginFailed("HTTP 429: allauth's login rate limit")
        if response.status not in (302, 303) or not session:
            raise LoginFailed(f"POST /accounts/login/: HTTP {response.status}, "
                              f"{'a' if session else 'no'} session cookie")
        return session
    finally:
        connection.close()


def direct_session(user_pk: int) -> str:
    """The session `django.contrib.auth.login` writes for this user, through the configured session store."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.utils.module_loading import import_string

    user = get_user_model().objects.get(pk=user_pk)
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "allauth.account.auth_backends.AuthenticationBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def log_in(players: list[Player], web_urls: list[str], http_logins: int, say=print) -> dict:
    """Every player gets a session; the first `http_logins` through the login form (4 at a time)."""
    started = time.monotonic()
    over_http = players[:http_logins]
    failures: list[str] = []

    def one(index_player):
        index, player = index_player
        try:
            player.cookie = "sessionid=" + http_login(web_urls[index % len(web_urls)], player.email)
            player.how = "http"
        except LoginFailed as failure:
            failures.append(str(failure))

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(one, enumerate(over_http)))
    http_seconds = time.monotonic() - started
    hard = [f for f in failures if "429" not in f]
    if hard:
        raise LoginFailed(f"{len(hard)} of {len(over_http)} logins over HTTP failed, e.g. {hard[0]}")
    for player in players:
        if not player.cookie:
            player.cookie = "sessionid=" + direct_session(player.pk)
            player.how = "session"
    done = sum(p.how == "http" for p in players)
    summary = {"http": done, "http_seconds": round(http_seconds, 2), "rate_limited": len(failures),
               "direct_sessions": len(players) - done, "seconds": round(time.monotonic() - started, 2)}
    say(f"  logins: {done} over HTTP in {http_seconds:.1f} s ({len(failures)} refused by the rate limit), "
        f"{summary['direct_sessions']} direct sessions")
    return summary
