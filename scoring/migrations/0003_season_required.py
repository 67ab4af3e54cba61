import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Separate from 0002 because PostgreSQL won't alter a table in the transaction that just
    updated its rows (pending deferred foreign-key checks)."""

    dependencies = [
        ('scoring', '0002_seasons'),
    ]

    operations = [
        migrations.AlterField(
            model_name='game',
            name='season',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='games', to='scoring.season'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(condition=models.Q(('is_current', True)), fields=('club',), name='season_one_current_per_club'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('ends_on__isnull', True), ('ends_on__gte', models.F('starts_on')), _connector='OR'), name='season_ends_after_it_starts'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.CheckConstraint(condition=models.Q(('name', ''), _negated=True), name='season_name_not_empty'),
        ),
    ]
