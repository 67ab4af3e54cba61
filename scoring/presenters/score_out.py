"""A game taken elsewhere: pushed to the BG Stats app by its link, or written as a
big-two-scorer score file (yawnoc/big-two-scorer) to print, keep as text or import again."""

from __future__ import annotations

import json
from urllib.parse import quote

from django.utils import timezone

from rules.deal_options import Scoring
from rules.options import PenaltyScale, TwosRule
from rules.ruleset import RuleSet
from scoring.models import Game, Seat
from scoring.presenters.board import Board
from scoring.selectors.rating_model import finishing_ranks

# BG Stats' documented push link ("Push plays to BG Stats from other apps or websites"): it
# opens the app on a new play filled in from the JSON in `data`. The https form, not the
# bgstats:// one, so a phone without the app gets BG Stats' page instead of an error.
BG_STATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Big Two table companion"
# big-two-scorer's threshold that charges 1 a card throughout: the flat scale.
FLAT_THRESHOLD = 14


def bg_stats_play(game: Game, seats: list[Seat]) -> dict[str, object]:
    """The play BG Stats is handed: the players in seat order, each with their total, rank
    and whether they won (lowest total; BG Stats is told so, not left to guess): every player
    who shared a win shared is a winner, on the same rank."""
    totals = [seat.total for seat in seats]
    played = timezone.localtime(game.finished_at or game.created_at)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game.key),
        "playDate": played.strftime("%Y-%m-%d %H:%M:%S"),
        "game": {"name": "Big Two", "sourceGameId": "big-two", "highestWins": False},
        "players": [
            {
                "name": seat.player.name,
                "sourcePlayerId": str(seat.player_id),
                "score": seat.total,
                "rank": rank,
                "winner": seat.won,
                "seatOrder": seat.position + 1,
            }
            for seat, rank in zip(seats, finishing_ranks(totals), strict=True)
        ],
    }


def bg_stats_link(game: Game, seats: list[Seat]) -> str:
    """The "Send to BG Stats" link of a finished game."""
    data = json.dumps(bg_stats_play(game, seats), ensure_ascii=False, separators=(",", ":"))
    return BG_STATS_LINK + quote(data, safe="")


def threshold(rules: RuleSet) -> int | None:
    """The `F=N` a score file of these rules needs (None for the standard scale, N=10), or
    None too where big-two-scorer can't score them (see `writes_score_file`)."""
    if rules.penalties is PenaltyScale.FLAT:
        return FLAT_THRESHOLD
    if rules.penalties is PenaltyScale.DOUBLED_FROM:
        return rules.doubled_from
    return None


def writes_score_file(rules: RuleSet) -> bool:
    """Whether big-two-scorer's format says all these rules charge: cards left on its scale,
    with no twos doubling them (points by hand, places and Pusoy Dos it can't say)."""
    scales = (PenaltyScale.STANDARD, PenaltyScale.FLAT, PenaltyScale.DOUBLED_FROM)
    return (
        rules.scoring is Scoring.CARDS_LEFT
        and rules.twos is TwosRule.OFF
        and rules.penalties in scales
    )


def score_file_text(board: Board) -> str:
    """The game as a big-two-scorer score file: `F=N` where the scale isn't the standard one,
    its day, the names in seat order, then each deal's cards left (`t` on who paid)."""
    game = board.game
    lines = [f"# {SOURCE_NAME}: {game.club.name}, {game.season.name}"]
    if (fry := threshold(game.ruleset)) is not None:
        lines.append(f"F={fry}")
    lines.append(timezone.localtime(game.created_at).date().isoformat())
    # The format splits names at spaces: a name of two words is joined by an underscore.
    lines.append(" ".join("_".join(name.split()) for name in board.names))
    for line in board.lines:
        scored = line.scored
        if scored is None or scored.cards_left is None:
            continue
        payer = scored.facts.pays
        lines.append(
            " ".join(
                f"{cards}{'t' if seat == payer else ''}"
                for seat, cards in enumerate(scored.cards_left)
            )
        )
    return "\n".join(lines) + "\n"
