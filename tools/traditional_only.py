"""Write tests/data/traditional_only.txt: the characters a Simplified Chinese page never shows.

    python3 -m venv /tmp/opencc && /tmp/opencc/bin/pip install opencc
    /tmp/opencc/bin/python tools/traditional_only.py

OpenCC (a converter, not a dependency of the site or its tests) decides: a character of the CJK
Unified Ideographs and their Extension A is Traditional-only when its Traditional-to-Simplified
conversion (t2s) changes it, and no character converts to it, so a character that is itself some
other's Simplified form is never listed (后 of 後, 干 of 乾 and 幹). A few that a Simplified text
may keep in a name (乾 of 乾隆) are listed all the same: the site's own text never needs them.
The list is committed as test data (tests/test_i18n.py and the access matrix's pages in
Simplified read it); run this again only to follow a newer OpenCC.
"""

import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "traditional_only.txt"
BLOCKS = (range(0x3400, 0x4DC0), range(0x4E00, 0xA000))  # Extension A, Unified Ideographs
PER_LINE = 64


def traditional_only(to_simplified) -> list[str]:
    """Every character `to_simplified` changes that no character is changed into."""
    characters = [chr(point) for block in BLOCKS for point in block]
    converted = {character: to_simplified(character) for character in characters}
    simplified = set(converted.values())
    return [c for c in characters if converted[c] != c and c not in simplified]


def main() -> None:
    try:
        import opencc  # the tool's own requirement, not the site's
    except ImportError:
        sys.exit("needs OpenCC: pip install opencc (in a throwaway venv; see this file's top)")
    found = traditional_only(opencc.OpenCC("t2s").convert)
    lines = ["".join(found[at : at + PER_LINE]) for at in range(0, len(found), PER_LINE)]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(found)} characters written to {OUT.relative_to(Path.cwd())}")


if __name__ == "__main__":
    main()
