"""English by default; Simplified or Traditional Chinese at the switch of the footer's language
form, or from the browser's languages until then.

The switch is Django's set_language view (POST /i18n/setlang/, kept in a cookie); the rules
engine follows the page's language, so card names and verdicts switch too.
"""

import gettext
import re

import pytest
from django.utils import translation

from tests.factories import make_game, make_user, record
from tests.translations import CATALOGS, TRADITIONAL_ONLY, UntranslatedFinder, po_entries


@pytest.fixture(autouse=True)
def back_to_english():
    """The test client runs requests in this thread, and the language they activate stays."""
    yield
    translation.deactivate()


def to_chinese(client, next_url: str = "/"):
    return client.post("/i18n/setlang/", {"language": "zh-hant", "next": next_url})


def test_every_page_starts_in_english(client):
    html = client.get("/check/?a=9h&b=9s").text
    assert '<html lang="en">' in html
    assert "Check a hand" in html
    assert "9 of hearts" in html
    assert "B beats A" in html
    assert "Both are single 9s: the higher suit wins, ♠ beats ♥" in html


def test_the_footer_switches_language_without_javascript(client):
    html = client.get("/check/").text
    assert 'action="/i18n/setlang/"' in html
    assert '<label for="language-select">Language</label>' in html
    assert '<input type="hidden" name="next" value="/check/">' in html
    options = re.findall(r'<option value="([^"]+)" lang="\1"(?: selected)?>([^<]+)</option>', html)
    assert options == [("en", "English"), ("zh-hans", "简体中文"), ("zh-hant", "繁體中文")]


def test_switching_to_chinese_translates_the_checker_cards_and_verdict(client):
    response = to_chinese(client, "/check/?a=9h&b=9s")
    assert response.status_code == 302
    assert response["Location"] == "/check/?a=9h&b=9s"

    html = client.get("/check/?a=9h&b=9s").text
    assert '<html lang="zh-hant">' in html
    assert "查牌型" in html  # "Check a hand"
    assert "紅心9" in html  # "9 of hearts", for screen readers
    assert "黑桃9" in html
    assert "單張 9♥" in html  # "Single 9♥"
    assert "B 大過 A" in html  # "B beats A"
    assert "兩張都是單張 9：花色大的贏，♠ 大過 ♥" in html
    assert '<label for="language-select">語言</label>' in html
    assert "Check a hand" not in html
    assert "9 of hearts" not in html


def test_switching_back_to_english(client):
    to_chinese(client)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    html = client.get("/check/?a=9h&b=9s").text
    assert "9 of hearts" in html
    assert "紅心9" not in html


def test_chinese_explains_a_hand_that_is_not_a_play(client):
    to_chinese(client)
    html = client.get("/check/?a=9h9s9c9d&b=3d").text
    assert "A 不成牌型——只有四條不成牌型" in html


@pytest.mark.django_db
def test_the_game_page_and_standings_in_chinese(client):
    game = make_game()
    record(game, 0, 5, 10, 13)
    client.force_login(game.club.owner)
    to_chinese(client)

    html = client.get(f"/games/{game.pk}/").text
    assert "計分板" in html  # Scoreboard
    assert "記錄這手" in html  # Record deal
    assert "剩 5 張" in html  # 5 left
    assert "記錄了第 1 手" in html  # the history: "recorded deal 1"
    assert "Scoreboard" not in html

    while not game.is_finished:
        record(game, 13, 13, 13, 0)
        game.refresh_from_db()
    html = client.get(f"/seasons/{game.season_id}/").text
    assert "排行榜" in html  # Standings
    assert "勝率 %" in html  # Win %
    assert "已完成的牌局" in html  # Finished games


@pytest.mark.django_db
def test_messages_and_form_errors_in_chinese(client):
    game = make_game()
    client.force_login(game.club.owner)
    to_chinese(client)
    response = client.post(
        f"/games/{game.pk}/deals/",
        {"number": 1, "token": "00000000-0000-4000-8000-000000000001", "seat_0": 3},
        follow=True,
    )
    assert "請輸入 Ben 的剩餘牌數" in response.text  # "Enter Ben's cards left"


@pytest.mark.django_db
def test_a_club_founded_in_chinese_names_its_first_season_in_chinese(client):
    """The first season's name is the one name the site gives rather than the owner: a club
    founded in Chinese has it in Chinese, on every page and in every download, as if its owner
    had typed it."""
    client.force_login(make_user())
    to_chinese(client)
    html = client.post("/clubs/", {"name": "星期五牌局"}, follow=True).text
    assert "第 1 賽季：排行榜" in html  # "Season 1: standings"
    assert "Season 1" not in html


@pytest.mark.django_db
def test_a_club_founded_in_english_keeps_season_1(client):
    client.force_login(make_user())
    html = client.post("/clubs/", {"name": "Friday table"}, follow=True).text
    assert "Season 1: standings" in html


@pytest.mark.django_db
def test_the_standings_caption_in_chinese_uses_chinese_full_stops(client):
    """Not "…排序. 點選…": the sentences join as Chinese ones do, with "。" and no space."""
    game = make_game()
    client.force_login(game.club.owner)
    while not game.is_finished:
        record(game, 13, 13, 13, 0)
        game.refresh_from_db()
    to_chinese(client)
    html = client.get(f"/seasons/{game.season_id}/", {"sort": "wins", "order": "desc"}).text
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", html, re.S).group(1)
    assert caption == "排行榜，按「勝局」排序（由高至低）。點選欄目標題可以按該欄排序。"
    html = client.get(f"/seasons/{game.season_id}/").text
    caption = re.search(r"<caption[^>]*>(.*?)</caption>", html, re.S).group(1)
    assert caption == "排行榜，按「名次」排序。點選欄目標題可以按該欄排序。"


@pytest.mark.parametrize("language", CATALOGS)
def test_every_message_has_a_chinese_translation_and_none_is_fuzzy(language):
    entries = po_entries(CATALOGS[language])
    assert len(entries) > 300
    assert not [entry["msgid"] for entry in entries if not entry["msgstr"]], "untranslated"
    assert not [entry["msgid"] for entry in entries if entry.get("fuzzy")], "fuzzy"


def test_both_chinese_catalogs_hold_the_same_messages():
    """`make messages` collects into both: a string translated into one is in the other."""
    simplified, traditional = (
        {(entry.get("msgctxt"), entry["msgid"]) for entry in po_entries(path)}
        for path in CATALOGS.values()
    )
    assert simplified == traditional


@pytest.mark.parametrize("language", CATALOGS)
def test_the_committed_compiled_catalog_matches_the_po_file(language):
    """compilemessages was run after the last edit: the .mo says what the .po says."""
    with CATALOGS[language].with_suffix(".mo").open("rb") as mo_file:
        catalog = gettext.GNUTranslations(mo_file)
    for entry in po_entries(CATALOGS[language]):
        if "msgctxt" in entry:
            assert catalog.pgettext(entry["msgctxt"], entry["msgid"]) == entry["msgstr"]
        elif "msgid_plural" not in entry:
            assert catalog.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


def test_switching_to_simplified_translates_the_checker_cards_and_verdict(client):
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    html = client.get("/check/?a=9h&b=9s").text
    assert '<html lang="zh-hans">' in html
    assert "查牌型" in html  # "Check a hand"
    assert "红心9" in html and "黑桃9" in html  # "9 of hearts", for screen readers
    assert "单张 9♥" in html  # "Single 9♥"
    assert "B 大过 A" in html  # "B beats A"
    assert "两张都是单张 9：花色大的赢，♠ 大过 ♥" in html
    assert '<label for="language-select">语言</label>' in html
    assert "紅心" not in html and "Check a hand" not in html


@pytest.mark.django_db
def test_the_game_page_and_standings_in_simplified(client):
    """A deal is a 局 and a game a 牌局, as mainland score sheets say (a 手 is a play there)."""
    game = make_game()
    record(game, 0, 5, 10, 13)
    client.force_login(game.club.owner)
    client.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})

    html = client.get(f"/games/{game.pk}/").text
    assert "记分板" in html  # Scoreboard
    assert "记录这一局" in html  # Record deal
    assert "剩 5 张" in html  # 5 left
    assert "记录了第 1 局" in html  # the history: "recorded deal 1"
    while not game.is_finished:
        record(game, 13, 13, 13, 0)
        game.refresh_from_db()
    html = client.get(f"/seasons/{game.season_id}/").text
    assert "排行榜" in html  # Standings
    assert "胜场" in html  # Won
    assert "已结束的牌局" in html  # Finished games


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [
        ("zh-CN", "zh-hans"),
        ("zh-SG", "zh-hans"),
        ("zh-MY", "zh-hans"),
        ("zh-Hans", "zh-hans"),
        ("zh-Hans-CN", "zh-hans"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-hans"),
        ("zh", "zh-hans"),
        ("zh-TW", "zh-hant"),
        ("zh-HK", "zh-hant"),
        ("zh-MO", "zh-hant"),
        ("zh-Hant", "zh-hant"),
        ("zh-Hant-TW", "zh-hant"),
        ("zh-HK,zh;q=0.9,en;q=0.8", "zh-hant"),
        ("en-GB,zh-CN;q=0.5", "en"),
        ("fr-FR", "en"),
    ],
)
def test_the_browsers_languages_choose_the_script(client, accept_language, language):
    """Mainland China, Singapore and Malaysia read Simplified; Taiwan, Hong Kong and Macau
    Traditional; a bare "zh" gets Simplified, which most readers of Chinese read."""
    html = client.get("/check/", headers={"Accept-Language": accept_language}).text
    assert f'<html lang="{language}">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("chosen", "browser"), [("zh-hant", "zh-CN"), ("zh-hans", "zh-TW")])
def test_a_members_own_choice_wins_over_the_browsers(client, chosen, browser):
    client.force_login(make_user())
    client.post("/i18n/setlang/", {"language": chosen, "next": "/"})
    html = client.get("/clubs/", headers={"Accept-Language": browser}).text
    assert f'<html lang="{chosen}">' in html


def test_the_simplified_catalog_writes_no_traditional_only_character():
    """Every translation as a Simplified reader writes it (tests/data/traditional_only.txt, from
    OpenCC by tools/traditional_only.py): 软件 not 軟體, and “” rather than 「」."""
    written = {
        entry["msgid"]: sorted(set(entry["msgstr"]) & TRADITIONAL_ONLY)
        for entry in po_entries(CATALOGS["zh-hans"])
    }
    assert not {msgid: found for msgid, found in written.items() if found}


def test_the_traditional_only_list_holds_traditional_characters_only():
    """The list from the converter: 後 and 軟 are Traditional-only, 后 and 着 are written in
    Simplified too."""
    assert {"後", "軟", "體", "資", "訊", "「"} <= TRADITIONAL_ONLY
    assert not {"后", "着", "干", "里", "软", "体", "地", "锄"} & TRADITIONAL_ONLY


def test_the_pages_check_finds_english_and_traditional_but_not_names_or_the_picker():
    """What tests/test_access_matrix.py reads every page in Simplified with."""
    finder = UntranslatedFinder("zh-hans", {"Friday table", "Ann"})
    page = (
        '<html lang="zh-hans"><title>记分板</title><h1>Friday table</h1><p>Ann 出完</p>'
        '<div hidden data-say-deal="第 {number} 局"></div><option lang="en">English</option>'
        '<script>const words = "not shown to anyone";</script></html>'
    )
    assert finder.found(page) == []
    assert finder.found(page.replace("记分板", "Scoreboard")) == ["Scoreboard"]
    assert finder.found(page.replace("出完", "went out")) == ["went out"]
    assert "Zed drew first" in finder.found(page.replace("出完", "Zed drew first"))
    assert finder.found(page.replace("记分板", "記分板")) == ["記"]
    assert finder.found(page.replace("第 {number} 局", "Deal {number}")) == ["Deal"]
