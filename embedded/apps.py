from django.apps import AppConfig


class EmbeddedConfig(AppConfig):
    """The embedded run of `python3 make.py run`: one process serving daphne with a Celery worker and beat as threads
    (`manage.py serve`), and the demo data a newcomer plays with at once (`manage.py load_demo`). No models."""

    name = "embedded"
    default_auto_field = "django.db.models.BigAutoField"
