import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tables import loop_db, services
from wallet import services as wallet


def make_user(email, **extra):
    return get_user_model().objects.create_user(email=email, password="pw-for-tests-1", **extra)


@pytest.fixture
def fresh_process():
    """The test starts as a fresh process would: it knows no table (a test database reuses ids: optimistic.known),
    and no event loop keeps a connection from another test (loop_db)."""
    services.known.forget()
    loop_db.close_every_connection()
    yield
    services.known.forget()
    loop_db.close_every_connection()


@pytest.fixture
def staff(db):
    return make_user("staff@example.com", is_staff=True, display_name="Staff")


@pytest.fixture
def players(staff):
    """Ann, Boris and Vera, 10,000 chips each on their balance."""
    people = []
    for name in ("Ann", "Boris", "Vera"):
        user = make_user(f"{name.lower()}@example.com", display_name=name)
        wallet.credit(user, 10_000, reason="welcome chips", staff=staff)
        people.append(user)
    return people


@pytest.fixture
def classic_table(players):
    return services.create_table(players[0], "classic", 10, 6, False)


@pytest.fixture
def bulgarian_table(players):
    return services.create_table(players[0], "bulgarian", 10, 8, False)


def audit_clean():
    call_command("audit_ledger")  # raises CommandError on any problem


def ledger_matches_engine(table_id):
    """Every seat's stack account holds exactly the engine's stack, the pot account the engine's pot."""
    from tables.engine.play import TableState
    from tables.models import Table
    from wallet.accounts import pot_account, stack_account

    state = TableState.loads(Table.objects.get(pk=table_id).state)
    users = {str(u.pk): u for u in get_user_model().objects.all()}
    for seat in state.seats:
        if seat.player is not None:
            assert stack_account(users[seat.player], table_id).balance == seat.stack, seat.player
    assert pot_account(table_id).balance == state.pot


def state_of(table_id):
    from tables.engine.play import TableState
    from tables.models import Table

    return TableState.loads(Table.objects.get(pk=table_id).state)


def start_deal(table, users, hands=None):
    """Seat the users (400 chips each) at seats 0.. and press New deal; `hands` stacks the deck (dealing order)."""
    for index, user in enumerate(users):
        services.sit(table.pk, user, 400, seat=index)
    if hands:
        services.queue_test_deck(table.pk, hands)
    for user in users:
        services.act(table.pk, user, {"kind": "new_deal"})
    return state_of(table.pk)
