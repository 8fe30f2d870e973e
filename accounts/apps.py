from allauth.account.apps import AccountConfig
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default = True  # the app's own config; the other one below is allauth's
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Players"

    def ready(self):
        from . import language  # noqa: F401 - its login signal keeps a visitor's chosen language


class EmailAddressesConfig(AccountConfig):
    """allauth's `account` app (e-mail addresses, confirmations) under its own heading: both it and ours were
    "Accounts" in the admin."""

    verbose_name = "E-mail addresses"
