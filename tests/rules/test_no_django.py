"""The engine imports and runs without Django: every module of `rules` but the `rules.web` app.

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

EVERY_ENGINE_MODULE = """
import importlib, pkgutil
import rules
names = sorted(
    f"rules.{module.name}" for module in pkgutil.iter_modules(rules.__path__)
    if module.name != "web"
)
for name in names:
    importlib.import_module(name)
print(" ".join(names))
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


def test_every_engine_module_imports_without_django():
    result = run_without_django(EVERY_ENGINE_MODULE)
    assert result.returncode == 0, result.stderr
    imported = result.stdout.split()
    assert {"rules.cards", "rules.plays", "rules.penalties", "rules.i18n"} <= set(imported)
    assert {"rules.lookups", "rules.reasons", "rules.split", "rules.settle"} <= set(imported)
    assert not [name for name in imported if name.startswith("rules.web")]


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


def test_the_web_layer_is_what_needs_django():
    """The check above can fail: with Django blocked, the pages' module can't be imported."""
    result = run_without_django("import rules.web.views")
    assert result.returncode != 0
    assert "No module named 'django.forms'" in result.stderr
