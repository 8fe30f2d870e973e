"""A player's chosen language (the header's switcher); blank follows his browser."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_display_name_unique")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="language",
            field=models.CharField(
                blank=True,
                choices=[("en", "English"), ("ru", "Русский"), ("bg", "Български")],
                default="",
                max_length=8,
            ),
        ),
    ]
