from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_the_winners(apps, schema_editor):
    """Every finished game so far had one winner: their seat won."""
    game, seat = apps.get_model("scoring", "Game"), apps.get_model("scoring", "Seat")
    won = game.objects.filter(
        pk=OuterRef("game_id"), status="finished", winner_id=OuterRef("player_id")
    )
    seat.objects.filter(Exists(won)).update(won=True)


def one_winner_each(apps, schema_editor):
    """Going back: a win shared goes to the first of its sharers, clockwise."""
    game, seat = apps.get_model("scoring", "Game"), apps.get_model("scoring", "Seat")
    for shared in game.objects.filter(win_shared=True):
        first = seat.objects.filter(game=shared, won=True).order_by("position").first()
        game.objects.filter(pk=shared.pk).update(winner_id=first.player_id, win_shared=False)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0015_imported_files")]

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
        migrations.RunPython(mark_the_winners, one_winner_each),
    ]
