"""tools/traditional_only.py: the list of characters a Simplified page never shows, from any
Traditional-to-Simplified converter (OpenCC's t2s when run by hand; a table here)."""

from tools.traditional_only import traditional_only

TO_SIMPLIFIED = {"後": "后", "乾": "干", "幹": "干", "軟": "软", "著": "著"}


def convert(character: str) -> str:
    return TO_SIMPLIFIED.get(character, character)


def test_a_character_the_converter_changes_is_listed():
    assert {"後", "乾", "幹", "軟"} <= set(traditional_only(convert))


def test_a_character_written_in_simplified_is_never_listed():
    """后, 干 and 软 are what the converter writes; 著 it keeps as it is."""
    assert not {"后", "干", "软", "著", "地"} & set(traditional_only(convert))
