from django.apps import AppConfig


class BotsConfig(AppConfig):
    """The platform's bots: they keep bot tables open and play through the same door as people."""

    name = "bots"
    label = "bots"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import receivers  # noqa: F401  (connects the table_changed listener)
