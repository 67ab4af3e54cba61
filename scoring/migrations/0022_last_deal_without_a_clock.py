from django.db import migrations, models


# An imported game ended as it stood ends on its last deal without a clock, so a last deal no
# longer needs one. Going back, such a game keeps its last deal by a clock that ran out then.
def clocks_for_games_ended_as_they_stood(apps, schema_editor):
    game = apps.get_model("scoring", "Game")
    game.objects.filter(last_deal__isnull=False, closes_at__isnull=True).update(
        closes_at=models.F("finished_at")
    )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0021_game_start_token")]

    operations = [
        migrations.RemoveConstraint(model_name="game", name="game_last_deal_needs_a_clock"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(last_deal__isnull=True) | models.Q(last_deal__gte=1),
                name="game_last_deal_counts_from_one",
            ),
        ),
        migrations.RunPython(migrations.RunPython.noop, clocks_for_games_ended_as_they_stood),
    ]
