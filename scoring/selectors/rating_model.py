"""The rating maths, in plain Python: openskill's Plackett-Luce model run over a club's finished
games in order, each player a team of one ranked by their final total (see docs/ratings.md).
No Django and no query here (an import-linter contract holds it): the services feed it the
games to rate (`scoring.services.ratings`), the selectors the ratings to predict from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL_NAME = "PlackettLuce"


def model() -> PlackettLuce:
    """The model at openskill's default settings (μ 25, σ 25/3)."""
    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: μ − 3σ, which a player's true skill is very likely above."""
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class Rated:
    """A player's rating after one of their club's finished games."""

    sequence: int  # the game's place among the club's finished games, from 1
    game_id: int
    season_id: int
    player_id: int
    mu: float
    sigma: float
    games: int  # their finished games so far

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Played:
    """A finished game as the model reads it: each player's final total, by seat."""

    game_id: int
    season_id: int
    totals: list[tuple[int, int]]  # (player id, total)


def finishing_ranks(totals: Sequence[int]) -> list[int]:
    """Fewest points first; equal totals share a rank (57, 12, 57, 100: 2, 1, 2, 4)."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def rate(games: Iterable[Played], start: dict[int, Rated], first_sequence: int) -> list[Rated]:
    """Each player's rating after each of `games`, in order, from their ratings in `start`."""
    skill = model()
    latest = dict(start)
    rated: list[Rated] = []
    for sequence, game in enumerate(games, start=first_sequence):
        players = [player for player, _total in game.totals]
        before = [
            skill.rating(mu=latest[player].mu, sigma=latest[player].sigma)
            if player in latest
            else skill.rating()
            for player in players
        ]
        ranks = finishing_ranks([total for _player, total in game.totals])
        after = skill.rate([[rating] for rating in before], ranks=[float(rank) for rank in ranks])
        for player, (new,) in zip(players, after, strict=True):
            done = latest[player].games + 1 if player in latest else 1
            latest[player] = Rated(
                sequence, game.game_id, game.season_id, player, new.mu, new.sigma, done
            )
            rated.append(latest[player])
    return rated


def win_chances(ratings: Sequence[Rated | None]) -> list[int]:
    """Each player's chance of winning a game among players rated so (None: no finished game
    yet), in whole percentages that add up to 100."""
    skill = model()
    teams = [
        [skill.rating() if rated is None else skill.rating(mu=rated.mu, sigma=rated.sigma)]
        for rated in ratings
    ]
    return whole_percentages(skill.predict_win(teams))


def whole_percentages(shares: Sequence[float]) -> list[int]:
    """Shares of 1 as whole percentages adding up to exactly 100: each rounded down, then one
    more point to the largest remainders (the first seat first among equal ones)."""
    total = sum(shares) or 1.0
    exact = [share / total * 100 for share in shares]
    whole = [int(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda index: (whole[index] - exact[index], index))
    for index in by_remainder[: 100 - sum(whole)]:
        whole[index] += 1
    return whole
