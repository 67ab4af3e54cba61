"""Every write of the score-keeping app, one named function per action: the site's pages write
through nothing else.

Each runs in one transaction and refuses with `ScoringError` (its message is meant for the
person at the table). Views call these and nothing else that writes, as
`services.record_deal(...)`: the functions live in a module per domain and are all named here.
Each write also does what follows from it: it counts up the versions pages are cached under
and tells the phones following a game (`versions`), and brings the ratings up to date
(`ratings`). The reads they share are the selectors (`scoring.selectors`).

- `errors`: `ScoringError` and its kinds.
- `permissions`: what only a club's owner may do (`NotAllowed` otherwise), and `is_owner`.
- `clubs`: a new club, joining it, its invite link, the lock on its row.
- `reset_links`: an owner's password link for a member, and the tokens it is made of.
- `members`: removing a member, leaving, handing the club on.
- `players`: renaming, merging and removing a player of the roster.
- `player_links`: a member saying which player they are, and the owner undoing it.
- `seasons`: a new season, a season's rules.
- `games`: starting a game, playing again with the same table, its stake, its season, its live
  view link, ending it, deleting it.
- `deals`: recording, undoing and correcting deals.
- `filling`: a deal sent seat by seat from the players' own phones (`send_own_facts`), recorded
  once the table's figures are in; `sent_facts`: who sent each, kept when the deal records;
  `own_clash`: a figure sent after its deal recorded, put in that deal at its player's choice.
- `imports`: a previewed score file's games saved into a season.
- `totals`: `recompute` (what the deals add up to) and the steps the writes share.
- `versions`: the versions of games and seasons counted up, and the phones told (`scoring.live`).
- `ratings`: the stored ratings brought up to date after a change to a club's finished games.
- `demo`: random games, and a season of them stored fast (the demo club, benchmarks).

Three things outside the pages write on their own: a backup's restore
(`scoring.backup.restoring`, a whole new club's rows as Django's serializer reads them, then
rated as a write rates), the `seed_demo` command (the demo account and its season's first day,
then its games through `demo` and the writes here), and the admin (clubs, members, players and
seasons; the record of play is only shown there, and a game is deleted through `delete_game`).
"""

from scoring.services.clubs import create_club, join_club, lock_club, reset_invite
from scoring.services.deals import (
    RecordedDeal,
    UndoneDeal,
    edit_deal,
    record_deal,
    undo_last_deal,
)
from scoring.services.demo import seed_season
from scoring.services.errors import (
    DatabaseBusy,
    DealAlreadyRecorded,
    DealChanged,
    DealRecordedDifferently,
    DealWasUndone,
    GameFull,
    InvalidDeal,
    NotAllowed,
    SatTogether,
    ScoringError,
    SeatsDiffer,
    TiedForLowest,
)
from scoring.services.filling import OwnFacts, SentOwn, SentTooLate, send_own_facts
from scoring.services.games import (
    delete_game,
    end_match,
    move_game,
    play_again,
    set_stake,
    share_game,
    start_game,
    stop_sharing,
)
from scoring.services.imports import (
    AlreadyImported,
    ImportRefused,
    PreviewOutdated,
    save_import,
)
from scoring.services.members import leave_club, make_owner, remove_member
from scoring.services.own_clash import put_own_in
from scoring.services.player_links import claim_player, unlink_player
from scoring.services.players import merge_player, remove_player, rename_player
from scoring.services.reset_links import (
    ClubLinkTokens,
    ResetLink,
    make_reset_link,
    reset_link_refusal,
)
from scoring.services.seasons import (
    set_games_to_rank,
    set_season_rules,
    start_season,
)
from scoring.services.totals import SEAT_FIGURES, recompute, seat_figures

__all__ = [
    "OwnFacts",
    "SentOwn",
    "SentTooLate",
    "send_own_facts",
    "put_own_in",
    "SEAT_FIGURES",
    "UndoneDeal",
    "AlreadyImported",
    "ImportRefused",
    "PreviewOutdated",
    "ClubLinkTokens",
    "DatabaseBusy",
    "DealAlreadyRecorded",
    "DealChanged",
    "DealRecordedDifferently",
    "DealWasUndone",
    "GameFull",
    "InvalidDeal",
    "NotAllowed",
    "ResetLink",
    "SatTogether",
    "ScoringError",
    "SeatsDiffer",
    "TiedForLowest",
    "claim_player",
    "create_club",
    "delete_game",
    "edit_deal",
    "end_match",
    "join_club",
    "leave_club",
    "lock_club",
    "make_owner",
    "make_reset_link",
    "merge_player",
    "move_game",
    "play_again",
    "recompute",
    "RecordedDeal",
    "record_deal",
    "remove_member",
    "remove_player",
    "rename_player",
    "reset_invite",
    "reset_link_refusal",
    "seat_figures",
    "set_games_to_rank",
    "set_season_rules",
    "set_stake",
    "share_game",
    "start_game",
    "start_season",
    "stop_sharing",
    "undo_last_deal",
    "unlink_player",
    "save_import",
    "seed_season",
]
