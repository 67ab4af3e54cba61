"""Every write of a club night, each one transaction, refusing with `ScoringError` (its message
is meant for the organiser): a night drawn (`draw_night`), who is here changed and the rounds
to come drawn again (`change_who_is_here`), in `drawing`; a round started as a game a table
(`start_round`), the TV link given or stopped (`show_on_tv`, `stop_tv`), in `rounds`.
"""

from nights.services.drawing import DRAW_TURN, change_who_is_here, draw_night
from nights.services.rounds import show_on_tv, start_round, stop_tv

__all__ = ["DRAW_TURN", "change_who_is_here", "draw_night", "show_on_tv", "start_round", "stop_tv"]
