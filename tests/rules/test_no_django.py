"""The engine imports and runs without Django: no module of the `rules` package needs it.

Each check runs a fresh Python in which `import django` fails, as it would where Django is not
installed (a `None` in sys.modules makes any import of that name raise ImportError).
"""

import subprocess
import sys
from pathlib import Path

import rules

PROJECT = Path(rules.__file__).resolve().parents[1]

WITHOUT_DJANGO = """
import sys
sys.modules["django"] = None
"""

EVERY_MODULE = """
import importlib, pkgutil, sys
import rules
names = sorted(module.name for module in pkgutil.walk_packages(rules.__path__, "rules."))
refused = []
for name in names:
    try:
        importlib.import_module(name)
    except ImportError as error:
        refused.append(f"{name}: {error}")
print(" ".join(names))
sys.exit("\\n".join(refused) or None)
"""

A_HAND_AND_A_DEAL = """
from rules import RuleSet, TwosRule, classify, compare, parse_cards, penalty, replay
flush = classify(parse_cards("3h 5h 6h 7h 9h"))
straight = classify(parse_cards("4c 5d 6s 7h 8c"))
print(flush.description, "|", straight.description)
print(compare(straight, flush).result, "|", compare(straight, flush).reason)
print(replay([[0, 4, 10, 13], [8, 0, 12, 13]]).totals)
print(penalty(9, RuleSet(twos=TwosRule.EACH_TWO), out_on_twos=True, twos_held=2))
"""


def run_without_django(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_DJANGO + code],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_no_module_of_the_engine_imports_django():
    result = run_without_django(EVERY_MODULE)
    assert result.returncode == 0, result.stderr
    imported = set(result.stdout.split())
    assert {"rules.cards", "rules.plays", "rules.penalties", "rules.i18n"} <= imported
    assert {"rules.lookups", "rules.reasons", "rules.split", "rules.settle"} <= imported


def test_the_engine_classifies_compares_and_scores_without_django():
    result = run_without_django(A_HAND_AND_A_DEAL)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Flush in ♥, 9 high | Straight 4-5-6-7-8, 8♣ high",
        "b_beats_a | A flush beats any straight: five-card hands rank"
        " straight < flush < full house < four of a kind < straight flush",
        "(8, 4, 44, 78)",
        "72",
    ]


def test_a_module_that_needs_django_is_found():
    """The check above can fail: with Django blocked, the hand checker's pages can't load."""
    result = run_without_django("import checker.views")
    assert result.returncode != 0
    assert "No module named 'django.forms'" in result.stderr
