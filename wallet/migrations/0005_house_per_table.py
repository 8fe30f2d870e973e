"""The house keeps its rake in one account a table (wallet/models.py): a table's house account is locked with the
table's row, as its pot is, so deals ending at different tables no longer queue on one house row. A house account
without a table, from before, stays valid (and is counted in the house's takings), but is never credited again."""

from django.conf import settings
from django.db import migrations, models


def _back_only_without_table_houses(apps, schema_editor):
    """Going back would leave the rake in accounts the old constraints refuse (a house with a table, several houses):
    refused, with the reason, as long as any house account has a table."""
    LedgerAccount = apps.get_model("wallet", "LedgerAccount")
    if LedgerAccount.objects.filter(kind="house", table_id__isnull=False).exists():
        raise RuntimeError(
            "wallet 0005 cannot be undone: rake is kept in house accounts of tables; the old single house account "
            "would need a ledger transfer from each of them first"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('wallet', '0004_player_limits'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='ledgeraccount',
            name='wallet_account_owner_matches_kind',
        ),
        migrations.RemoveConstraint(
            model_name='ledgeraccount',
            name='wallet_one_singleton_per_kind',
        ),
        migrations.AddConstraint(
            model_name='ledgeraccount',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'balance'), ('table_id__isnull', True), ('user__isnull', False)), models.Q(('kind', 'stack'), ('table_id__isnull', False), ('user__isnull', False)), models.Q(('kind', 'pot'), ('table_id__isnull', False), ('user__isnull', True)), models.Q(('kind', 'house'), ('user__isnull', True)), models.Q(('kind__in', ('treasury', 'bots_pool')), ('table_id__isnull', True), ('user__isnull', True)), _connector='OR'), name='wallet_account_owner_matches_kind'),
        ),
        migrations.AddConstraint(
            model_name='ledgeraccount',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'house')), fields=('table_id',), name='wallet_one_house_per_table'),
        ),
        migrations.AddConstraint(
            model_name='ledgeraccount',
            constraint=models.UniqueConstraint(condition=models.Q(('kind__in', ('treasury', 'bots_pool')), models.Q(('kind', 'house'), ('table_id__isnull', True)), _connector='OR'), fields=('kind',), name='wallet_one_singleton_per_kind'),
        ),
        # Last, so that going back checks first.
        migrations.RunPython(migrations.RunPython.noop, _back_only_without_table_houses),
    ]
