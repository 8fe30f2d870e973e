from django.core.management.base import BaseCommand, CommandError

from wallet.accounts import WalletError


class Command(BaseCommand):
    help = "Move chips from the treasury to the bots' pool (the chips bots sit down with)."

    def add_arguments(self, parser):
        parser.add_argument("amount", type=int, help="chips to add to the bots' pool")
        parser.add_argument("--key", help="idempotency key: running again with the same key moves nothing more")

    def handle(self, *args, amount, key=None, **options):
        from bots.services import fund_bots

        try:
            balance = fund_bots(amount, key=key)
        except (WalletError, ValueError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"bots' pool: {balance} chips")
