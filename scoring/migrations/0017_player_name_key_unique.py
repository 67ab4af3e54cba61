"""A player's name key unique in its club, and never empty (apart from 0016, which fills the
keys: PostgreSQL alters a table only once the rows written in its transaction are checked)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0016_player_name_key"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("club", "name_key"), name="player_unique_key_in_club"
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(("name_key", ""), _negated=True),
                name="player_name_key_not_empty",
            ),
        ),
    ]
