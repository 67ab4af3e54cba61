"""Big Two's rules as plain Python values: cards, plays and how they compare, house rules,
penalties, the helpers' answers and settling up. Nothing here imports Django.

>>> from rules import classify, compare, parse_cards, penalty, replay
>>> nines, fours = classify(parse_cards("9s 9d")), classify(parse_cards("4h 4c"))
>>> compare(nines, fours).reason
'Both are pairs: 9s beat 4s, and rank decides before suit'
>>> penalty(10), replay([[0, 4, 10, 13]]).totals
(20, (0, 4, 20, 39))

The engine's public names are the ones imported below, each `name as name` (an explicit
re-export, which ruff's F401 reads as public), from the one module it lives in:

- `cards`: cards, ranks and suits, and reading them from text.
- `kinds`, `plays`: what a play is and how two compare. The tables classify looks five cards
  up in are `lookups`; the sentences that say why are `reasons`.
- `options`, `penalty_scales`, `deal_options`, `ruleset`: the house rules, one enum per choice
  (a `choices.Choice`, each member with its token, words and help), and RuleSet holding one
  of each; parse_rules reads a rule set's name back, and `rule_clashes` says which choices
  can't be played together. `presets`: named sets of them, and the target that fits a scoring.
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

from rules.advice import PlayGroup as PlayGroup
from rules.advice import all_plays as all_plays
from rules.advice import answers as answers
from rules.cards import DECK as DECK
from rules.cards import Card as Card
from rules.cards import CardParseError as CardParseError
from rules.cards import Rank as Rank
from rules.cards import Suit as Suit
from rules.cards import format_cards as format_cards
from rules.cards import parse_cards as parse_cards
from rules.deal_options import Dragon as Dragon
from rules.deal_options import DrawOnPass as DrawOnPass
from rules.deal_options import Lead as Lead
from rules.deal_options import PaysForTable as PaysForTable
from rules.deal_options import Scoring as Scoring
from rules.deal_options import TwoPlayerDeal as TwoPlayerDeal
from rules.deal_score import DealRefused as DealRefused
from rules.deal_score import FactsWanted as FactsWanted
from rules.deal_score import ScoredDeal as ScoredDeal
from rules.deal_score import facts_wanted as facts_wanted
from rules.deal_score import score_deal as score_deal
from rules.hand_report import HandReport as HandReport
from rules.hand_report import overlap_problem as overlap_problem
from rules.hand_report import report as report
from rules.i18n import use_language as use_language
from rules.kinds import Kind as Kind
from rules.next_deal import NextDeal as NextDeal
from rules.next_deal import next_deal as next_deal
from rules.options import Finish as Finish
from rules.options import Flushes as Flushes
from rules.options import PenaltyScale as PenaltyScale
from rules.options import Players as Players
from rules.options import Straights as Straights
from rules.options import SuitOrder as SuitOrder
from rules.options import TwosRule as TwosRule
from rules.penalties import DealResult as DealResult
from rules.penalties import GameReplay as GameReplay
from rules.penalties import Outcome as Outcome
from rules.penalties import outcome as outcome
from rules.penalties import penalty as penalty
from rules.penalties import replay as replay
from rules.penalties import validate_deal as validate_deal
from rules.plays import NotAPlay as NotAPlay
from rules.plays import Play as Play
from rules.plays import Verdict as Verdict
from rules.plays import can_open as can_open
from rules.plays import classify as classify
from rules.plays import compare as compare
from rules.plays import judge as judge
from rules.plays import lowest_card as lowest_card
from rules.presets import PRESETS as PRESETS
from rules.presets import Preset as Preset
from rules.presets import proposed_target as proposed_target
from rules.presets import target_reason as target_reason
from rules.ruleset import DEFAULT_RULES as DEFAULT_RULES
from rules.ruleset import RuleSet as RuleSet
from rules.ruleset import UnknownRules as UnknownRules
from rules.ruleset import parse_rules as parse_rules
from rules.scoring_sheet import scoring_sheet as scoring_sheet
from rules.seating import Round as Round
from rules.seating import draw as draw
from rules.settle import Settlement as Settlement
from rules.settle import format_amount as format_amount
from rules.settle import settle as settle
from rules.split import Arrangement as Arrangement
from rules.split import arrangements as arrangements
from rules.split_plans import Way as Way
from rules.split_plans import plans as plans
from rules.split_score import ScorePart as ScorePart
