from django.core.management.base import BaseCommand, CommandError

from wallet.audit import audit_ledger


class Command(BaseCommand):
    help = "Check the chip ledger: balances against transfers, no negative balance, sum zero, unique keys."

    def handle(self, *args, **options):
        report = audit_ledger()
        for problem in report.problems:
            self.stderr.write(f"PROBLEM: {problem}")
        if not report.ok:
            raise CommandError(f"the ledger does not add up: {len(report.problems)} problem(s)")
        self.stdout.write(
            self.style.SUCCESS(
                f"Ledger clean: {report.accounts} accounts, {report.transfers} transfers, "
                f"{report.in_circulation} chips in circulation, balances sum to 0."
            )
        )
