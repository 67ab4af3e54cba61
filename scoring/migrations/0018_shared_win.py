from django.db import migrations, models


# The winners' seats are marked by 0017, in a transaction of its own: on PostgreSQL a table
# can't be altered in the transaction that updated it (its link checks wait for the commit),
# which undoing both at once would do.
class Migration(migrations.Migration):
    dependencies = [("scoring", "0017_player_name_key_unique")]

    operations = [
        migrations.AddField("game", "win_shared", models.BooleanField(default=False)),
        migrations.AddField("seat", "won", models.BooleanField(default=False)),
        migrations.RemoveConstraint(model_name="game", name="game_status_matches_winner"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=(
                    models.Q(status="finished", finished_at__isnull=False)
                    & (
                        models.Q(winner__isnull=False, win_shared=False)
                        | models.Q(winner__isnull=True, win_shared=True)
                    )
                )
                | models.Q(
                    status="in_progress",
                    winner__isnull=True,
                    win_shared=False,
                    finished_at__isnull=True,
                ),
                name="game_status_matches_winner",
            ),
        ),
    ]
