"""Which language a person reads (accounts/language.py): his browser's until he picks one with the header's
switcher; the choice is kept in a cookie for a visitor and on the profile for a player, whose profile wins on any
browser. The table's socket speaks the same language: the codes of its refusals stay the same, their words do not."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.test import Client

from accounts.language import language_of_scope
from tables import services
from tables.models import Table
from tests.tables.conftest import make_user
from tests.tables.sockets import ORIGIN, receive, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    return response.headers["Content-Language"]


def test_the_browsers_language_is_followed_and_english_is_the_default(db):
    assert lang_of(Client().get("/")) == "en"
    assert lang_of(Client(headers={"accept-language": "ru-RU,ru;q=0.9,en;q=0.5"}).get("/")) == "ru"
    assert lang_of(Client(headers={"accept-language": "bg"}).get("/")) == "bg"
    assert lang_of(Client(headers={"accept-language": "de-DE,de;q=0.9"}).get("/")) == "en"
    page = Client(headers={"accept-language": "bg"}).get("/").content.decode()
    assert '<html lang="bg">' in page and "Отворени маси" in page


def test_the_header_offers_the_three_languages_in_their_own_names(db):
    page = Client(headers={"accept-language": "ru"}).get("/rules/").content.decode()
    assert 'action="/i18n/setlang/"' in page and 'name="next"' not in page  # back to the Referer
    for code, name in (("en", "English"), ("ru", "Русский"), ("bg", "Български")):
        assert f'<option value="{code}" lang="{code}"' in page and f"{code.upper()} · {name}</option>" in page
    assert '<option value="ru" lang="ru" selected>' in page


def test_a_visitors_choice_is_kept_in_a_cookie_over_his_browsers(db):
    client = Client(headers={"accept-language": "ru"})
    # The header's form has no "next": the answer sends the reader back to the page he was on.
    response = client.post(
        "/i18n/setlang/", {"language": "bg"}, headers={"referer": "http://testserver/rules/"}
    )
    assert response.status_code == 302 and response.headers["Location"] == "http://testserver/rules/"
    assert client.cookies[COOKIE].value == "bg"
    assert lang_of(client.get("/")) == "bg"


def test_a_language_the_site_does_not_speak_is_refused(db):
    client = Client()
    assert client.post("/i18n/setlang/", {"language": "de"}).status_code == 400
    assert client.get("/i18n/setlang/").status_code == 405
    assert COOKIE not in client.cookies


def test_a_players_choice_is_saved_on_his_profile_and_follows_him_to_any_browser(db):
    ivan = make_user("ivan@example.com", display_name="Иван")
    phone = Client(headers={"accept-language": "en"})
    phone.force_login(ivan)
    phone.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    ivan.refresh_from_db()
    assert ivan.language == "ru"
    laptop = Client(headers={"accept-language": "bg"})  # another browser, no cookie, another language
    laptop.force_login(ivan)
    assert lang_of(laptop.get("/")) == "ru"
    laptop.cookies[COOKIE] = "bg"  # his profile wins over a cookie left by someone else on that browser
    assert lang_of(laptop.get("/profile/")) == "ru"


def test_a_visitor_who_picked_a_language_keeps_it_when_he_logs_in(db):
    from allauth.account.models import EmailAddress

    olga = make_user("olga@example.com", display_name="Ольга")
    EmailAddress.objects.create(user=olga, email=olga.email, verified=True, primary=True)
    client = Client()
    client.post("/i18n/setlang/", {"language": "bg", "next": "/"})
    response = client.post("/accounts/login/", {"login": "olga@example.com", "password": "pw-for-tests-1"})
    assert response.status_code == 302 and response.headers["Location"] == "/"
    olga.refresh_from_db()
    assert olga.language == "bg"


def test_a_player_without_a_choice_follows_his_browser(db):
    petar = make_user("petar@example.com", display_name="Петър")
    client = Client(headers={"accept-language": "bg"})
    client.force_login(petar)
    assert lang_of(client.get("/profile/")) == "bg"
    petar.refresh_from_db()
    assert petar.language == ""


def js_catalogue(language: str | None) -> dict:
    """The messages /jsi18n/ gives a reader of `language` (the catalogue the pages' scripts translate with)."""
    headers = {"accept-language": language} if language else {}
    script = Client(headers=headers).get("/jsi18n/").content.decode()
    assert "django.gettext = function" in script
    found = re.search(r"const newcatalog = (\{.*?\});\n", script, re.S)
    return json.loads(found.group(1)) if found else {}


def test_the_javascript_catalogue_is_in_the_readers_language(db):
    ru, bg = js_catalogue("ru"), js_catalogue("bg")
    assert ru["Check"] == "Чек" and ru["three shakhas"] == "три шахи" and ru["three foreheads"] == "три чела"
    assert bg["Raise"] == "Качи" and bg["three sevens"] == "три седмици"
    assert ru["%(points)s point"] == ["%(points)s очко", "%(points)s очка", "%(points)s очков"]
    assert js_catalogue(None) == {}  # English: the messages are their own text


def test_every_page_loads_the_catalogue_before_its_scripts(db):
    page = Client().get("/").content.decode()
    assert page.index('<script src="/jsi18n/">') < page.index('src="/static/js/lobby.js"')


def test_a_sockets_language_is_the_profiles_then_the_cookies_then_the_browsers(db):
    class Someone:
        is_authenticated = True
        language = "bg"

    scope = {"user": Someone(), "cookies": {COOKIE: "ru"}, "headers": [(b"accept-language", b"en")]}
    assert language_of_scope(scope) == "bg"
    Someone.language = ""
    assert language_of_scope(scope) == "ru"
    assert language_of_scope({"cookies": {}, "headers": [(b"accept-language", b"bg-BG,bg;q=0.9")]}) == "bg"
    assert language_of_scope({"headers": [(b"accept-language", b"fr, *;q=0.1")]}) == "en"
    assert language_of_scope({}) == "en"


async def _refused(path: str, headers: list, message: dict) -> dict:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    socket = WebsocketCommunicator(
        application, path, headers=[(b"origin", ORIGIN), (b"host", b"127.0.0.1"), *headers]
    )
    connected, _ = await socket.connect()
    assert connected
    await receive(socket)  # the snapshot
    await socket.send_json_to(message)
    answer = await receive(socket)
    await socket.disconnect()
    return answer


def test_the_doors_refusals_reach_each_viewer_in_his_language_with_the_same_code(db):
    anna = make_user("anna@example.com", display_name="Анна")
    boris = make_user("boris@example.com", display_name="Борис", language="bg")
    from wallet import services as wallet

    staff = make_user("staff@example.com", is_staff=True)
    for user in (anna, boris):
        wallet.credit(user, 5_000, reason="фишки", staff=staff)
    table = services.create_table(anna, "classic", 10, 2, False)
    path = f"/ws/tables/{table.pk}/"
    sit = {"type": "sit", "amount": 400, "id": "s1"}

    visitor_ru = async_to_sync(_refused)(path, [(b"accept-language", b"ru")], sit)
    visitor_en = async_to_sync(_refused)(path, [], sit)
    assert visitor_ru["code"] == visitor_en["code"] == "login_required"
    assert visitor_en["message"] == "Log in to take a seat and play; anonymous visitors may only watch."
    assert visitor_ru["message"] == "Войдите, чтобы сесть и играть; гости могут только смотреть."

    # Boris chose Bulgarian on his profile: his browser's English does not matter. Too big a buy-in is refused.
    cookie = [(b"cookie", f"sessionid={session_cookie(boris)}".encode()), (b"accept-language", b"en")]
    refused = async_to_sync(_refused)(path, cookie, {"type": "sit", "amount": 99_999, "id": "s2"})
    assert refused["code"] == "out_of_range"
    assert refused["message"].startswith("Входът за масата е от 200 до 1000 чипа (от 20 до 100 анте по 10)")

    # The engine's own refusal (RULES: not his turn), through the door, in Russian for Anna's browser.
    services.sit(table.pk, anna, 400, seat=0)
    services.sit(table.pk, boris, 400, seat=1)
    for user in (anna, boris):
        services.act(table.pk, user, {"kind": "new_deal"})
    waiting = Table.objects.get(pk=table.pk).clock_seats[0]
    other = (anna, boris)[1 - waiting]
    headers = [(b"cookie", f"sessionid={session_cookie(other)}".encode()), (b"accept-language", b"ru")]
    turn = async_to_sync(_refused)(path, headers, {"type": "check", "id": "c1"})
    assert turn["code"] == "not_your_turn"
    if other is anna:
        assert turn["message"] == f"Сейчас не ваш ход: ходит место {waiting}."
    else:  # Boris's profile says Bulgarian whatever his browser says
        assert turn["message"] == f"Не е ваш ред: на ход е място {waiting}."


def test_a_refusal_names_the_moves_as_the_viewers_buttons_do(db):
    """"You cannot raise now (you may: …)" names the moves in the reader's words («Повысить», „Качи“), never the
    protocol's (`raise`, `call`), and so does an amount out of range."""
    from django.utils import translation

    from wallet import services as wallet

    anna, boris = make_user("anna@example.com", display_name="Анна"), make_user("boris@example.com")
    staff = make_user("staff@example.com", is_staff=True)
    for user in (anna, boris):
        wallet.credit(user, 5_000, reason="фишки", staff=staff)
    table = services.create_table(anna, "classic", 10, 2, False)
    services.sit(table.pk, anna, 400, seat=0)
    services.sit(table.pk, boris, 400, seat=1)
    for user in (anna, boris):
        services.act(table.pk, user, {"kind": "new_deal"})
    first = (anna, boris)[Table.objects.get(pk=table.pk).clock_seats[0]]
    with pytest.raises(services.DoorError) as no_raise:
        services.act(table.pk, first, {"kind": "raise", "amount": 20})
    with pytest.raises(services.DoorError) as too_much:
        services.act(table.pk, first, {"kind": "bet", "amount": 10**6})
    for language, raise_word, bet_word in (("ru", "«Повысить»", "«Ставка»"), ("bg", "„Качи“", "„Залог“"),
                                           ("en", "“Raise”", "“Bet”")):  # fmt: skip
        with translation.override(language):
            said, amount = no_raise.value.message, too_much.value.message
        assert raise_word in said and bet_word in amount, (language, said, amount)
        if language != "en":
            assert not re.search(r"\b(raise|bet|call|check|fold|blind|dark)\b", said + amount), (said, amount)


def test_a_limits_refusal_writes_its_chips_as_the_readers_language_does(db):
    """"1,500" in English, "1 500" in Russian, "1500" in Bulgarian (Django's formats; a comma is the decimal mark
    in both): the refusal is made in the door and its numbers are written when it is read."""
    from django.utils import translation

    from wallet import limits
    from wallet import services as wallet

    anna, staff = make_user("anna@example.com"), make_user("staff@example.com", is_staff=True)
    wallet.credit(anna, 5_000, reason="фишки", staff=staff)
    first, second = (services.create_table(staff, "classic", 10, 2, False) for _ in range(2))
    limits.set_limits(anna, daily_buy_in_cap=1_500)
    services.sit(first.pk, anna, 1_000)
    with pytest.raises(services.DoorError) as refused:
        services.sit(second.pk, anna, 1_000)
    for language, cap in (("en", "1,500"), ("ru", "1\xa0500"), ("bg", "1500")):
        with translation.override(language):
            assert cap in refused.value.message, (language, refused.value.message)
    for language in ("ru", "bg"):
        with translation.override(language):
            assert "1,500" not in refused.value.message and "1,000" not in refused.value.message
