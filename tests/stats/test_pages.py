"""The profile's statistics and the leaderboard (issue 13): figures per family from the tallied day rows, people
only, a minimum of deals, this week or all time, and a clear error for a bad choice."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from stats.models import PlayerDay, PlayerTotal, PlayerWeek
from stats.standings import chart_points, week_start
from tests.tables.conftest import make_user

pytestmark = pytest.mark.django_db


def day_row(user, day, family="classic", **figures):
    """A day's tally, added to its week and all time as beat's tally adds it (tests/stats/test_tally.py)."""
    values = {"deals": 10, "deals_won": 3, "played": 4, "svaras": 1, "svaras_won": 1, "biggest_pot": 120, "net": 50}
    values |= figures
    PlayerDay.objects.create(user=user, family=family, day=day, bot=user.is_bot, **values)
    for model, span in ((PlayerWeek, {"week": day - timedelta(days=day.weekday())}), (PlayerTotal, {})):
        row, _ = model.objects.get_or_create(user=user, family=family, bot=user.is_bot, **span)
        for field, value in values.items():
            setattr(row, field, max(row.biggest_pot, value) if field == "biggest_pot" else getattr(row, field) + value)
        row.save()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def today():
    return datetime.now(UTC).date()


def test_the_profile_shows_each_familys_figures_and_a_chart():
    ann = make_user("ann@example.com", display_name="Ann")
    day_row(ann, today() - timedelta(days=2), net=-30, biggest_pot=40)
    day_row(ann, today(), deals=30, deals_won=9, played=12, svaras=2, svaras_won=0, net=130, biggest_pot=300)
    day_row(ann, today(), family="bulgarian", deals=5, net=-5)
    page = logged_in(ann).get("/profile/").content.decode()
    classic = page[page.index('data-family="classic"'):page.index('data-family="bulgarian"')]
    for figure in ("Deals played</dt><dd>40", "Deals won</dt><dd>12", "beyond the ante</dt><dd>40 %",
                   "Svaras played / won</dt><dd>3 / 1", "Biggest pot won</dt><dd>300", "+100"):
        assert figure in classic, figure
    assert "<polyline" in classic and 'aria-label="Net chips over time' in classic
    assert 'data-family="bulgarian"' in page and "Deals played</dt><dd>5" in page


def test_a_player_with_no_deals_is_told_so():
    ann = make_user("ann@example.com", display_name="Ann")
    assert "No deals yet" in logged_in(ann).get("/profile/").content.decode()


def test_the_chart_scales_into_its_box_and_needs_two_days():
    assert chart_points([0, 5]) == ""
    points = [tuple(map(float, p.split(","))) for p in chart_points([0, -10, 30], 240, 60).split()]
    assert points == [(0.0, 45.0), (120.0, 60.0), (240.0, 0.0)]  # zero a quarter up from the lowest


def test_the_leaderboard_ranks_people_by_net_chips_with_enough_deals(settings):
    settings.SVARA_LEADERBOARD_MIN_DEALS = 20
    ann, boris, vera = (make_user(f"{n}@example.com", display_name=n.title()) for n in ("ann", "boris", "vera"))
    bot = make_user("bot@example.com", display_name="Ava (bot)", is_bot=True)
    day_row(ann, today(), deals=20, net=300)
    day_row(boris, today(), deals=25, net=500)
    day_row(vera, today(), deals=19, net=900)  # one deal short
    day_row(bot, today(), deals=400, net=5000)  # bots are not on it
    page = Client().get("/leaderboard/?family=classic&period=all").content.decode()
    assert page.index("Boris") < page.index("Ann")
    assert "Vera" not in page and "Ava (bot)" not in page
    assert "+500" in page and "+300" in page


def test_this_week_counts_from_monday_all_time_from_the_start(settings):
    settings.SVARA_LEADERBOARD_MIN_DEALS = 1
    ann, boris = make_user("ann@example.com", display_name="Ann"), make_user("b@example.com", display_name="Boris")
    day_row(ann, week_start() - timedelta(days=1), net=1000)  # last Sunday
    day_row(ann, week_start(), net=-10)
    day_row(boris, today(), net=20)
    week = Client().get("/leaderboard/?family=classic&period=week").content.decode()
    assert week.index("Boris") < week.index("Ann") and "-10" in week and "+990" not in week
    every = Client().get("/leaderboard/?family=classic&period=all").content.decode()
    assert every.index("Ann") < every.index("Boris") and "+990" in every


def test_families_are_ranked_apart(settings):
    settings.SVARA_LEADERBOARD_MIN_DEALS = 1
    ann = make_user("ann@example.com", display_name="Ann")
    day_row(ann, today(), family="bulgarian")
    assert "Ann" not in Client().get("/leaderboard/?family=classic").content.decode()
    assert "Ann" in Client().get("/leaderboard/?family=bulgarian").content.decode()


@pytest.mark.parametrize("query, said", [
    ("family=poker", "There is no family “poker”"),
    ("period=year", "There is no period “year”"),
    ("family=%00&period=all", "There is no family"),
])
def test_a_bad_choice_gets_a_clear_error_and_no_table(query, said):
    response = Client().get(f"/leaderboard/?{query}")
    assert response.status_code == 400
    assert said in response.content.decode() and "<table" not in response.content.decode()


def test_the_header_links_the_leaderboard():
    assert 'href="/leaderboard/"' in Client().get("/rules/").content.decode()
