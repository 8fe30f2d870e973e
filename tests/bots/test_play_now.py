"""“Play against bots now”: the player sits with bots at once, at a bot table with a free seat or a new one with
bots seated; the buy-in is his, within 20 to 100 antes (RULES §10); refusals say why and change nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from bots import services as bots
from bots.play_now import BUY_IN_ANTES, buy_in_for, play_against_bots
from bots.services import BotError
from tables import services as door
from tables.models import Table, TableSeat
from wallet import services as wallet
from wallet.selectors import balance_of


def make_user(email, **extra):
    return get_user_model().objects.create_user(email=email, password="pw-for-tests-1", **extra)


@pytest.fixture
def staff(db):
    return make_user("staff@example.com", is_staff=True, display_name="Staff")


@pytest.fixture
def pool(db):
    bots.fund_bots(100_000, key="tests:pool")


def player_with(chips, staff, name="Ann"):
    user = make_user(f"{name.lower()}@example.com", display_name=name)
    if chips:
        wallet.credit(user, chips, reason="test chips", staff=staff)
    return user


def bot_table(staff, ante=10, seats=4, bots_seated=2):
    table = door.create_table(staff, "classic", ante, seats, bots_allowed=True, kept_open=True)
    for _ in range(bots_seated):
        bots.seat_bot(table, "strong")
    return table


@pytest.mark.parametrize(
    ("balance", "ante", "buy_in"),
    [(10_000, 10, 500), (300, 10, 300), (200, 10, 200), (199, 10, None), (2_000, 50, 2_000), (10_000, 50, 2_500), (20, 1, 20)],
)
def test_the_buy_in_is_50_antes_or_all_he_has_down_to_20_antes_section_10(balance, ante, buy_in):
    assert buy_in_for(balance, ante) == buy_in


def test_a_bot_table_with_a_free_seat_seats_him_at_once(staff, pool):
    ann = player_with(10_000, staff)
    full = bot_table(staff, seats=2, bots_seated=1)
    door.sit(full.pk, player_with(10_000, staff, "Bea"), 400)
    people = bot_table(staff)
    door.sit(people.pk, player_with(10_000, staff, "Cid"), 400)
    quiet = bot_table(staff)
    seated = play_against_bots(ann)
    assert seated.table.pk == quiet.pk and not seated.new_table  # no person there yet: no deal to wait out
    assert TableSeat.objects.get(table=quiet, user=ann).stack == BUY_IN_ANTES * 10
    assert balance_of(ann) == 10_000 - 500
    # Pressing again takes him back to the same seat, and nothing moves.
    assert play_against_bots(ann).table.pk == quiet.pk and balance_of(ann) == 9_500
    call_command("audit_ledger")


def test_with_no_bot_table_free_a_table_of_his_own_opens_with_two_bots(staff, pool):
    ann = player_with(450, staff)
    seated = play_against_bots(ann)
    table = seated.table
    assert seated.new_table and table.created_by == ann and table.bots_allowed and not table.kept_open
    assert TableSeat.objects.filter(table=table, user__is_bot=True).count() == 2
    assert TableSeat.objects.get(table=table, user=ann).stack == 450 and balance_of(ann) == 0
    call_command("audit_ledger")


def test_a_small_balance_gets_a_table_of_a_smaller_ante(staff, pool):
    ann = player_with(60, staff)
    table = play_against_bots(ann).table
    assert table.ante == 3 and TableSeat.objects.get(table=table, user=ann).stack == 60


def test_a_bot_table_he_cannot_buy_in_at_is_passed_over(staff, pool):
    bot_table(staff, ante=50)
    ann = player_with(500, staff)
    table = play_against_bots(ann).table
    assert table.ante == 10 and table.created_by == ann


def test_no_chips_is_told_how_to_get_them_and_nothing_changes(staff, pool):
    ann = player_with(0, staff)
    with pytest.raises(BotError, match="You have 0 chips.*ask them to credit your balance"):
        play_against_bots(ann)
    assert not Table.objects.exists() and not TableSeat.objects.exists()


def test_an_empty_bots_pool_opens_nothing_and_says_why(staff):
    ann = player_with(1_000, staff)
    with pytest.raises(BotError, match="No table with bots could be opened just now"):
        play_against_bots(ann)
    assert not Table.objects.exists() and not TableSeat.objects.exists() and balance_of(ann) == 1_000
    call_command("audit_ledger")


def test_the_lobby_button_goes_to_the_table_or_back_with_the_reason(client, staff, pool):
    ann = player_with(1_000, staff)
    assert client.post(reverse("lobby:play_bots"))["Location"].startswith(reverse("account_login"))
    client.force_login(ann)
    response = client.post(reverse("lobby:play_bots"))
    table = TableSeat.objects.get(user=ann).table
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert client.get(reverse("lobby:play_bots"))["Location"] == "/"  # a GET changes nothing
    broke = player_with(0, staff, "Bob")
    client.force_login(broke)
    response = client.post(reverse("lobby:play_bots"), follow=True)
    assert "ask them to credit your balance" in response.content.decode()
    assert not TableSeat.objects.filter(user=broke).exists()
