"""Demo data for `python3 make.py run`: a staff user, two players with chips, tables of both families, and bots
seated at a table of each family so a newcomer plays at once. Running it again changes nothing."""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from bots import services as bots
from bots.models import BotTablePolicy
from tables.models import Table, TableStatus
from tables.services import create_table
from wallet import services as wallet
from wallet.accounts import bots_pool_account
from wallet.selectors import balance_of

STAFF = ("staff@svara.local", "Staff", "svara-staff-2026")
PLAYERS = [("alice@svara.local", "Alice", "svara-alice-2026"), ("bob@svara.local", "Bob", "svara-bob-2026")]
PLAYER_CHIPS = 10_000
BOTS_POOL = 200_000
# (family, ante, seats) of the people's tables; the bot tables come from the policies below.
PEOPLE_TABLES = [("classic", 10, 6), ("bulgarian", 10, 8), ("classic", 50, 2)]
BOT_POLICIES = [("classic", 10, 6, 2), ("bulgarian", 10, 8, 2)]


def _user(email, name, password, *, staff=False):
    User = get_user_model()
    user = User.objects.filter(email=email).first()
    if user is None:
        user = User.objects.create_user(email=email, password=password, display_name=name)
        user.is_staff = user.is_superuser = staff
        user.save(update_fields=["is_staff", "is_superuser"])
    EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True, "primary": True}
    )
    return user


class Command(BaseCommand):
    help = "Load the demo data (idempotent): staff, two players with chips, tables of both families, bots."

    def handle(self, *args, **options):
        with transaction.atomic():
            staff = _user(*STAFF, staff=True)
            for email, name, password in PLAYERS:
                player = _user(email, name, password)
                # The key makes the credit happen once, however often the demo is loaded.
                wallet.credit(
                    player, PLAYER_CHIPS, reason="demo chips", staff=staff, key=f"demo:credit:{email}"
                )
            if bots_pool_account().balance < BOTS_POOL // 2:
                wallet.fund_bots(BOTS_POOL, f"demo:bots:{bots_pool_account().balance}", staff=staff, reason="demo")
        for family, ante, seats in PEOPLE_TABLES:
            # Staff's tables stay open when empty (`kept_open`), so a later visitor still finds them; a demo
            # table loaded before that mark existed gets it now.
            table = Table.objects.filter(
                family=family, ante=ante, seats=seats, bots_allowed=False, status=TableStatus.OPEN, created_by=staff
            ).order_by("id").first()
            if table is None:
                create_table(staff, family, ante, seats, bots_allowed=False, kept_open=True)
            elif not table.kept_open:
                Table.objects.filter(pk=table.pk).update(kept_open=True)
        for family, ante, seats, per_table in BOT_POLICIES:
            BotTablePolicy.objects.get_or_create(
                family=family,
                ante=ante,
                seats=seats,
                defaults={"tables": 1, "level": "strong", "bots_per_table": per_table},
            )
        report = bots.keep_bot_tables()
        self.stdout.write(self.style.SUCCESS("Demo data is loaded."))
        self.stdout.write(f"  bot tables: {report}")
        self.stdout.write(f"  staff:   {STAFF[0]} / {STAFF[2]}  (admin at /admin/, finance at /finance/)")
        User = get_user_model()
        for email, _name, password in PLAYERS:
            chips = balance_of(User.objects.get(email=email))
            self.stdout.write(f"  player:  {email} / {password}  ({chips} chips in the balance now)")
        self.stdout.write("  Log in at the address the server prints below.")
