"""The engine speaks the page's language: card names, plays and verdicts in Traditional Chinese.

rules/i18n.py reads the compiled catalog with the standard library's gettext, so these tests
need no Django; English stays the default, byte for byte.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from rules import i18n
from rules.cards import Card, CardParseError, parse_cards
from rules.hand_report import overlap_problem
from rules.penalties import validate_deal
from rules.plays import NotAPlay, classify, compare, judge


def test_english_is_the_default_language():
    assert i18n.get_language() == "en"
    assert Card.parse("9h").name == "9 of hearts"


def test_card_names_in_chinese_put_the_suit_first():
    with i18n.use_language("zh-hant"):
        assert i18n.get_language() == "zh-hant"
        assert Card.parse("9h").name == "紅心9"
        assert Card.parse("qs").name == "黑桃Q"
        assert Card.parse("ad").name == "方塊A"
    assert i18n.get_language() == "en"


def test_a_flush_is_a_tong_fa_in_chinese():
    flush = classify(parse_cards("3h 5h 6h 7h 9h"))
    with i18n.use_language("zh-hant"):
        assert "同花" in flush.description
        assert flush.kind.label == "同花"
    assert flush.description == "Flush in ♥, 9 high"


def test_every_description_reads_in_chinese():
    hands = {
        "9s": "單張 9♠",
        "9s 9d": "一對 9（♠ 最大）",
        "kc kd kh": "三條 K",
        "3d 4c 5h 6s 7d": "順子 3-4-5-6-7，7♦ 最大",
        "3d 3s jh jc jd": "葫蘆，三條 J 帶一對 3",
        "5c 5d 5h 5s 2s": "四條 5 帶一張 2♠",
        "5c 5d 5h 5s as": "四條 5 帶一張 A♠",
        "3h 4h 5h 6h 7h": "♥ 同花順 3-4-5-6-7",
    }
    with i18n.use_language("zh-hant"):
        for text, description in hands.items():
            assert classify(parse_cards(text)).description == description


def test_every_description_reads_in_simplified_chinese_with_the_mainland_names():
    """zh-hans reads locale/zh_Hans, as Django names it: 锄大地's names, 金刚 for four of a kind."""
    hands = {
        "9s": "单张 9♠",
        "9s 9d": "一对 9（♠ 最大）",
        "kc kd kh": "三条 K",
        "3d 4c 5h 6s 7d": "顺子 3-4-5-6-7，7♦ 最大",
        "3d 3s jh jc jd": "葫芦，三张 J 带一对 3",
        "5c 5d 5h 5s 2s": "金刚，四张 5 带一张 2♠",
        "3h 4h 5h 6h 7h": "♥ 同花顺 3-4-5-6-7",
    }
    with i18n.use_language("zh-hans"):
        assert Card.parse("ad").name == "方块A"
        for text, description in hands.items():
            assert classify(parse_cards(text)).description == description


def test_verdicts_and_reasons_in_chinese():
    with i18n.use_language("zh-hant"):
        verdict = judge(parse_cards("9s 9h 9c 9d"), parse_cards("3d"))
        assert verdict.reason == "A 不成牌型——只有四條不成牌型：要再加任何一張牌湊成五張"
        flushes = compare(
            classify(parse_cards("3h 5h 6h 7h 9h")), classify(parse_cards("2c 4c 6c 9c jc"))
        )
        assert flushes.reason == "兩邊都是同花：♥ 大過 ♣，先比花色再比點數"
        sizes = compare(classify(parse_cards("9s")), classify(parse_cards("9h 9c")))
        assert sizes.reason.startswith("單張不能壓對子")
        with pytest.raises(NotAPlay, match="六張或以上"):
            classify(parse_cards("9h 9s 9c 9d 8d 8c"))


def test_parse_errors_and_deal_problems_in_chinese():
    with i18n.use_language("zh-hant"):
        with pytest.raises(CardParseError) as error:
            parse_cards("1H")
        assert str(error.value) == "「1H」不是一張牌：點數是 2–10、J、Q、K、A"
        assert validate_deal([0, 0, 5, 14], ["Ann", "Ben", "Cara", "Dev"]) == [
            "剩餘牌數必須在 0 至 13 之間——Dev 有 14 張",
            "每一手只有一位玩家能出完牌——Ann 和 Ben 都是 0",
        ]


def test_two_shared_cards_are_named_together():
    a, b = parse_cards("9s 9h"), parse_cards("9s 9h")
    assert overlap_problem(a, b) == (
        "9♥, 9♠ are in both hands: a deck has one of each card, so take it out of one."
    )


def test_a_language_without_a_catalog_falls_back_to_english():
    token = i18n.set_language("fr")
    try:
        assert Card.parse("9h").name == "9 of hearts"
    finally:
        i18n.reset_language(token)


def test_the_engine_and_its_translations_import_nothing_from_django():
    engine = (
        "rules.cards, rules.plays, rules.penalties, rules.ruleset, rules.i18n, rules.hand_report"
    )
    code = (
        f"import sys, {engine}\n"
        "with rules.i18n.use_language('zh-hant'):\n"
        "    assert rules.cards.Card.parse('9h').name == '紅心9'\n"
        "assert not [name for name in sys.modules if name.split('.')[0] == 'django']\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(i18n.__file__).parents[1])
