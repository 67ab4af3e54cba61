from django.db import migrations
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
    dependencies = [("scoring", "0018_shared_win")]

    operations = [migrations.RunPython(mark_the_winners, one_winner_each)]
