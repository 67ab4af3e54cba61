"""Lists said as each language says them (scoring/presenters/wording.py): "Ann, Ben and Cy";
in Chinese "Ann、Ben 和 Cy", with the enumeration comma."""

import pytest
from django.utils import translation

from scoring.presenters.wording import list_of, names_and


def test_lists_in_english():
    assert list_of(["Cy", "Ann", "Dee"]) == "Cy, Ann, Dee"
    assert names_and(["Ann"]) == "Ann"
    assert names_and(["Ann", "Ben", "Cy"]) == "Ann, Ben and Cy"


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_lists_in_chinese_use_the_enumeration_comma(language):
    with translation.override(language):
        assert list_of(["Cy", "Ann", "Dee"]) == "Cy、Ann、Dee"
        assert names_and(["Ann", "Ben", "Cy"]) == "Ann、Ben 和 Cy"
