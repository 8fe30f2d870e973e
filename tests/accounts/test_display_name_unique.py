"""A person's display name is theirs alone, whatever the case, down to the database; bots share theirs."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from accounts.forms import ProfileForm

from .conftest import make_verified_user

User = get_user_model()


@pytest.mark.django_db
def test_the_database_refuses_a_second_person_with_the_same_name_in_any_case(player):
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(email="other@example.com", password="x", display_name="ANN")
    assert list(User.objects.filter(display_name__iexact="ann")) == [player]


@pytest.mark.django_db
def test_bots_may_share_a_name_and_people_may_have_none_yet():
    for n in range(2):
        User.objects.create_user(email=f"bot{n}@bots.invalid", password=None, display_name="Ava (bot)", is_bot=True)
        User.objects.create_user(email=f"staff{n}@example.com", password="x", display_name="")
    assert User.objects.filter(display_name="Ava (bot)").count() == 2
    assert User.objects.filter(display_name="").count() == 2


@pytest.mark.django_db
def test_a_name_taken_between_check_and_save_on_the_profile_is_refused_and_changes_nothing(player):
    form = ProfileForm({"display_name": "Vera"}, instance=player)
    assert form.is_valid(), form.errors
    make_verified_user("vera@example.com", "vera")
    assert form.save() is None
    assert form.errors["display_name"] == ["The display name “Vera” is already taken. Please choose another one."]
    player.refresh_from_db()
    assert player.display_name == "Ann"


@pytest.mark.django_db(transaction=True)
def test_the_migration_tells_apart_names_already_held_twice():
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0001_initial")])
    # The model as it stood then: later migrations add columns (0003_language) the table has not yet.
    then = executor.loader.project_state([("accounts", "0001_initial")]).apps.get_model("accounts", "User")
    for n, name in enumerate(["Mira", "mira", "MIRA", "Mira 2", "Lev"]):
        then.objects.create(email=f"p{n}@example.com", username=f"p{n}@example.com", password="x", display_name=name)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([("accounts", "0002_display_name_unique")])
    names = list(then.objects.order_by("pk").values_list("display_name", flat=True))
    # Forward to the newest again: the tests after this one use the whole schema.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert names == ["Mira", "mira 3", "MIRA 4", "Mira 2", "Lev"]
    assert len({name.lower() for name in names}) == len(names)
