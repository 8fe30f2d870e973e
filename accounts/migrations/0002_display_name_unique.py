"""One display name per person, whatever the case (bots share theirs). Names already held twice are told apart
first, the later account getting " 2", " 3"... so the constraint can be added."""

import django.db.models.functions.text
from django.db import migrations, models

NAME_MAX = 32


def tell_apart(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    people = list(User.objects.filter(is_bot=False).exclude(display_name="").order_by("pk"))
    names = {user.display_name.lower() for user in people}  # a new name must not take anybody's, later or not
    first_holders = set()
    for user in people:
        name = user.display_name
        if name.lower() not in first_holders:
            first_holders.add(name.lower())
            continue
        n = 2
        while True:
            suffix = f" {n}"
            candidate = name[: NAME_MAX - len(suffix)] + suffix
            if candidate.lower() not in names:
                break
            n += 1
        user.display_name = candidate
        user.save(update_fields=["display_name"])
        names.add(candidate.lower())


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(tell_apart, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("display_name"),
                condition=models.Q(("is_bot", False), models.Q(("display_name", ""), _negated=True)),
                name="accounts_display_name_unique",
                violation_error_message="This display name is already taken.",
            ),
        ),
    ]
