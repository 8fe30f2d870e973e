"""`manage.py verify_deal <deal id> [--server-seed HEX]`: recompute a finished deal's decks from its stored seeds
(docs/fair.md). Exit 0 when the commitment and every dealt card match; 1 with the first difference when they do not
(a wrong --server-seed fails at the commitment); 2 when the deal cannot be checked (no such deal, not over, dealt
from a stacked test deck, no fairness record) or the arguments are bad."""

from django.core.management.base import BaseCommand, CommandError

from tables.engine import fair
from tables.fair_record import NotVerifiable, describe, fairness_of, first_difference
from tables.models import Deal

MISMATCH, CANNOT_CHECK = 1, 2


class Command(BaseCommand):
    help = "Check that a finished deal was dealt from its committed server seed and its players' seeds."

    def add_arguments(self, parser):
        parser.add_argument("deal_id", help="the deal's id (the hand history's number, Deal.pk)")
        parser.add_argument("--server-seed", dest="server_seed", default=None,
                            help="check this server seed (64 hex characters) instead of the stored one")

    def handle(self, *args, deal_id, server_seed, **options):
        if not deal_id.isdigit():
            raise CommandError(f"a deal id is a whole number, not {deal_id!r}", returncode=CANNOT_CHECK)
        if server_seed is not None:
            try:
                fair.check_server_seed(server_seed.lower())
            except fair.SeedError as error:
                raise CommandError(f"--server-seed: {error}", returncode=CANNOT_CHECK) from None
            server_seed = server_seed.lower()
        deal = Deal.objects.select_related("table").filter(pk=int(deal_id)).first()
        if deal is None:
            raise CommandError(f"there is no deal {deal_id}", returncode=CANNOT_CHECK)
        try:
            record = fairness_of(deal)
        except NotVerifiable as why:
            raise CommandError(f"deal {deal.pk}: {why}", returncode=CANNOT_CHECK) from None
        difference = first_difference(record, server_seed)
        if difference is not None:
            raise CommandError(f"deal {deal.pk} does NOT match: {difference}", returncode=MISMATCH)
        self.stdout.write(self.style.SUCCESS(f"Deal {deal.pk} verified: {describe(record)}."))
