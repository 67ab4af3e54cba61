"""What openskill itself makes of a club's finished games, for the ratings' tests to hold the
stored ratings to."""

from __future__ import annotations

from openskill.models import PlackettLuce

from scoring.models import Game


def openskill_run(club) -> dict[str, tuple[float, float, int]]:
    """What openskill itself makes of the club's finished games: name → (μ, σ, games)."""
    model = PlackettLuce()
    found: dict[str, tuple[float, float, int]] = {}
    games = Game.objects.filter(club=club, status=Game.Status.FINISHED).order_by(
        "finished_at", "pk"
    )
    for game in games:
        seats = list(game.seats.select_related("player").order_by("position"))
        names = [seat.player.name for seat in seats]
        totals = [seat.total for seat in seats]
        ranks = [float(sorted(totals).index(total) + 1) for total in totals]
        teams = [
            [model.rating(mu=found[name][0], sigma=found[name][1])]
            if name in found
            else [model.rating()]
            for name in names
        ]
        for name, (after,) in zip(names, model.rate(teams, ranks=ranks), strict=True):
            found[name] = (after.mu, after.sigma, found.get(name, (0, 0, 0))[2] + 1)
    return found
