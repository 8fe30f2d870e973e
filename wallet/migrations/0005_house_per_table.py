"""The house keeps its rake in one account a table (wallet/models.py): a table's house account is locked with the
table's row, as its pot is, so deals ending at different tables no longer queue on one house row. A house account
without a table, from before, stays valid (and is counted in the house's takings), but is never credited again."""

from django.conf import settings
from django.db import migrations, models


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
    ]
