"""Finance pages: staff only; rake by day, table and family over a date range; chips in circulation; a
player's statement with running balance; CSV of each; the daily rake chart as inline SVG."""

import csv
import io
from datetime import date, datetime, time

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from wallet import accounts, services
from wallet.models import LedgerAccount, Transfer, TransferKind

pytestmark = pytest.mark.django_db

PAGES = ["wallet:index", "wallet:rake", "wallet:circulation", "wallet:statement"]


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


def rake_on(day: date, table_id: int, family: str, amount: int):
    """A rake dated `day`: chips reach the pot through the services, the rake transfer is given its date."""
    pot, house = accounts.pot_account(table_id), accounts.house_account(table_id)
    services.fund_bots(amount, f"fund-{day}-{table_id}-{amount}")
    pool = accounts.bots_pool_account()
    Transfer.objects.create(
        key=f"pot-{day}-{table_id}-{amount}",
        kind=TransferKind.BOT_BUY_IN,
        source=pool,
        destination=pot,
        amount=amount,
        table_id=table_id,
    )
    LedgerAccount.objects.filter(pk=pool.pk).update(balance=F("balance") - amount)
    Transfer.objects.create(
        key=f"rake-{day}-{table_id}-{amount}",
        kind=TransferKind.RAKE,
        source=pot,
        destination=house,
        amount=amount,
        table_id=table_id,
        family=family,
        created_at=datetime.combine(day, time(12), tzinfo=timezone.get_current_timezone()),
    )
    LedgerAccount.objects.filter(pk=house.pk).update(balance=F("balance") + amount)


def read_csv(response):
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("page", PAGES)
def test_finance_pages_redirect_a_player_who_is_not_staff(client, player, page):
    client.force_login(player)
    response = client.get(reverse(page))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


@pytest.mark.parametrize("page", PAGES)
def test_finance_pages_redirect_an_anonymous_visitor(client, page):
    assert client.get(reverse(page)).status_code == 302


def test_index_links_every_report(staff_client, funded):
    response = staff_client.get("/finance/")
    assert response.status_code == 200
    for page in PAGES[1:]:
        assert reverse(page).encode() in response.content
    assert b"5,000 chips in circulation" in response.content


@pytest.fixture
def raked():
    rake_on(date(2026, 3, 1), 11, "classic", 30)
    rake_on(date(2026, 3, 1), 12, "bulgarian", 5)
    rake_on(date(2026, 3, 3), 11, "classic", 12)
    rake_on(date(2026, 4, 1), 11, "classic", 99)  # outside the range below


def test_rake_by_day_table_and_family_over_a_date_range_8(staff_client, raked):
    response = staff_client.get(reverse("wallet:rake"), {"date_from": "2026-03-01", "date_to": "2026-03-03"})
    assert response.status_code == 200
    ctx = response.context
    assert ctx["by_day"] == [(date(2026, 3, 1), 35), (date(2026, 3, 2), 0), (date(2026, 3, 3), 12)]
    assert [(r["table_id"], r["family"], r["total"], r["pots"]) for r in ctx["by_table"]] == [
        (11, "classic", 42, 2),
        (12, "bulgarian", 5, 1),
    ]
    assert [(r["family"], r["total"]) for r in ctx["by_family"]] == [("bulgarian", 5), ("classic", 42)]
    assert ctx["total"] == 47
    html = response.content.decode()
    assert '<svg class="rake-chart"' in html
    assert html.count('<rect class="bar"') == 3
    assert "2026-03-01: 35 chips" in html


def test_rake_csv_exports_each_grouping(staff_client, raked):
    url = reverse("wallet:rake")
    span = {"date_from": "2026-03-01", "date_to": "2026-03-03", "format": "csv"}
    assert read_csv(staff_client.get(url, {**span, "by": "day"})) == [
        ["day", "rake"],
        ["2026-03-01", "35"],
        ["2026-03-02", "0"],
        ["2026-03-03", "12"],
    ]
    assert read_csv(staff_client.get(url, {**span, "by": "table"})) == [
        ["table_id", "family", "raked_pots", "rake"],
        ["11", "classic", "2", "42"],
        ["12", "bulgarian", "1", "5"],
    ]
    assert read_csv(staff_client.get(url, {**span, "by": "family"})) == [
        ["family", "raked_pots", "rake"],
        ["bulgarian", "1", "5"],
        ["classic", "2", "42"],
    ]


@pytest.mark.parametrize(
    "params, message",
    [
        ({"date_from": "2026-13-01"}, "Enter a valid date."),
        ({"date_from": "yesterday"}, "Enter a valid date."),
        (
            {"date_from": "2026-03-05", "date_to": "2026-03-01"},
            "The start date 2026-03-05 is after the end date",
        ),
        ({"date_from": "2020-01-01", "date_to": "2026-01-01"}, "Choose at most 366 days."),
    ],
)
def test_bad_dates_get_a_clear_error(staff_client, params, message):
    response = staff_client.get(reverse("wallet:rake"), params)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_rake_defaults_to_the_last_30_days(staff_client):
    response = staff_client.get(reverse("wallet:rake"))
    assert response.status_code == 200
    assert len(response.context["by_day"]) == 30
    assert response.context["by_day"][-1][0] == timezone.localdate()


def test_chips_in_circulation_counts_balances_tables_bots_and_house(staff_client, funded, bot, staff):
    services.buy_in(funded, 5, 1000, ante=10, key="sit")
    services.pay_in(funded, 5, 100, key="ante")
    services.take_rake(5, 3, family="classic", key="rake")
    services.fund_bots(2000, "seed", staff=staff)
    response = staff_client.get(reverse("wallet:circulation"))
    chips = {row.kind: row.chips for row in response.context["rows"]}
    assert chips == {"balance": 4000, "stack": 900, "pot": 97, "bots_pool": 2000, "house": 3}
    assert response.context["total"] == response.context["issued"] == 7000
    assert response.context["at_tables"] == 997
    assert b"The ledger balances" in response.content
    rows = read_csv(staff_client.get(reverse("wallet:circulation"), {"format": "csv"}))
    assert rows[0] == ["kind", "where", "accounts", "chips"]
    assert ["total", "Chips in circulation", "", "7000"] in rows


def test_player_statement_lists_transfers_with_running_balance(staff_client, funded, staff):
    services.buy_in(funded, 5, 1000, ante=10, key="sit")
    services.cash_out(funded, 5, 1000, key="stand")
    services.debit(funded, 300, reason="chargeback", staff=staff)
    response = staff_client.get(reverse("wallet:statement"), {"player": funded.email})
    assert response.status_code == 200
    lines = response.context["lines"]
    assert [(line.kind, line.change, line.balance_after) for line in lines] == [
        ("debit", -300, 4700),
        ("cash_out", 1000, 5000),
        ("buy_in", -1000, 4000),
        ("credit", 5000, 5000),
    ]
    assert b"Debited by staff: chargeback" in response.content
    rows = read_csv(staff_client.get(reverse("wallet:statement"), {"player": funded.email, "format": "csv"}))
    assert [r[1] for r in rows[1:]] == ["credit", "buy_in", "cash_out", "debit"]
    assert [r[4] for r in rows[1:]] == ["5000", "4000", "5000", "4700"]


def test_statement_range_starts_from_the_balance_before_it(staff_client, funded):
    today = timezone.localdate()
    response = staff_client.get(
        reverse("wallet:statement"),
        {"player": str(funded.pk), "date_from": today.isoformat(), "date_to": today.isoformat()},
    )
    assert [line.balance_after for line in response.context["lines"]] == [5000]
    later = staff_client.get(
        reverse("wallet:statement"),
        {"player": funded.email, "date_from": "2000-01-01", "date_to": "2000-01-02"},
    )
    assert later.context["lines"] == []


def test_statement_for_an_unknown_player_is_a_clear_error(staff_client):
    response = staff_client.get(reverse("wallet:statement"), {"player": "ghost@example.com"})
    assert response.status_code == 400
    assert b"No player with that e-mail or id." in response.content
