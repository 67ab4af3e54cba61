"""Big Two's rules as plain Python values: cards, plays and how they compare, house rules,
penalties, the helpers' answers and settling up. Nothing here imports Django.

>>> from rules import classify, compare, parse_cards, penalty, replay
>>> nines, fours = classify(parse_cards("9s 9d")), classify(parse_cards("4h 4c"))
>>> compare(nines, fours).reason
'Both are pairs: 9s beat 4s, and rank decides before suit'
>>> penalty(10), replay([[0, 4, 10, 13]]).totals
(20, (0, 4, 20, 39))

The names below are the engine's public face; each lives in one module:

- `cards`: Card, Rank, Suit, DECK, parse_cards, format_cards.
- `kinds`, `plays`: Kind, Play, classify, compare, judge, lowest_card, can_open. The tables
  classify looks five cards up in are `lookups`; the sentences that say why are `reasons`.
- `options`, `deal_options`, `ruleset`: the house rules, one enum per choice, and RuleSet
  holding one of each; parse_rules reads a rule set's name back, and `rule_clashes` says which
  choices can't be played together. `presets`: named sets of them (PRESETS), and the target
  that fits a scoring (proposed_target, target_reason).
- `deal_score` (with `deal_checks` and `deal_explain`): one deal scored from its facts under
  any rules, with a line per seat on why; the deal form, the JSON API and replay all use it.
- `penalties`: what cards left cost, when a match is over, a whole game replayed.
- `next_deal`: who deals and who leads the next deal. `scoring_sheet`: the scoring as data.
- `advice`, `split` (scored by `split_score`; a way per goal in `split_plans`): what a hand can
  play, and how to break it up.
- `hand_report`: what the hand checker says about a hand, or two.
- `settle`: who pays whom, for tables that play for money.
- `seating`: a club night's rounds drawn: byes fair, as few repeat meetings as can be, seat
  order varied.
- `i18n`: the engine's messages in the active language, from the site's catalog.

The web pages and JSON API built on it are the `checker` Django app. The engine's benchmarks
are tools: `python -m tools.bench.hands` and `tools.bench.split`.
"""

from rules.advice import PlayGroup, all_plays, answers
from rules.cards import DECK, Card, CardParseError, Rank, Suit, format_cards, parse_cards
from rules.deal_options import Dragon, DrawOnPass, Lead, PaysForTable, Scoring, TwoPlayerDeal
from rules.deal_score import DealRefused, FactsWanted, ScoredDeal, facts_wanted, score_deal
from rules.hand_report import HandReport, overlap_problem, report
from rules.i18n import use_language
from rules.kinds import Kind
from rules.next_deal import NextDeal, next_deal
from rules.options import Finish, Flushes, PenaltyScale, Players, Straights, SuitOrder, TwosRule
from rules.penalties import (
    DealResult,
    GameReplay,
    Outcome,
    outcome,
    penalty,
    replay,
    validate_deal,
)
from rules.plays import NotAPlay, Play, Verdict, can_open, classify, compare, judge, lowest_card
from rules.presets import PRESETS, Preset, proposed_target, target_reason
from rules.ruleset import DEFAULT_RULES, RuleSet, UnknownRules, parse_rules
from rules.scoring_sheet import scoring_sheet
from rules.seating import Round, draw
from rules.settle import Settlement, format_amount, settle
from rules.split import Arrangement, arrangements
from rules.split_plans import Way, plans
from rules.split_score import ScorePart

__all__ = [
    # Cards
    "DECK",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
    # Plays
    "Kind",
    "NotAPlay",
    "Play",
    "Verdict",
    "can_open",
    "classify",
    "compare",
    "judge",
    "lowest_card",
    # House rules
    "DEFAULT_RULES",
    "PRESETS",
    "Dragon",
    "DrawOnPass",
    "Finish",
    "Flushes",
    "Lead",
    "PaysForTable",
    "PenaltyScale",
    "Players",
    "Preset",
    "RuleSet",
    "Scoring",
    "Straights",
    "SuitOrder",
    "TwoPlayerDeal",
    "TwosRule",
    "UnknownRules",
    "parse_rules",
    "proposed_target",
    "target_reason",
    # Scoring a deal, penalties and the end of a match
    "DealRefused",
    "DealResult",
    "FactsWanted",
    "GameReplay",
    "NextDeal",
    "Outcome",
    "ScoredDeal",
    "facts_wanted",
    "next_deal",
    "outcome",
    "penalty",
    "replay",
    "score_deal",
    "scoring_sheet",
    "validate_deal",
    # The helpers: what can I play, how should I split my hand
    "Arrangement",
    "PlayGroup",
    "ScorePart",
    "Way",
    "all_plays",
    "answers",
    "arrangements",
    "plans",
    # The hand checker
    "HandReport",
    "overlap_problem",
    "report",
    # Seating a club night
    "Round",
    "draw",
    # Settling up
    "Settlement",
    "format_amount",
    "settle",
    # Languages
    "use_language",
]
