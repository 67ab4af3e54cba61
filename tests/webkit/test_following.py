"""Following a game in WebKit, the engine of every iPhone browser: a deal recorded on one page
reaches another by the game's stream, and a club night's TV board follows a deal."""

from __future__ import annotations

import pytest

from nights import services as nights
from tests.factories import make_club, make_game, make_user, record
from tests.nights.helpers import club_with_players, draw, games_of

pytestmark = [pytest.mark.webkit, pytest.mark.django_db(transaction=True)]

# What the board's follower (static/js/game-page.js) does from now on: the polls it holds back
# (it holds them while its stream is open and has spoken) and the fetches it sends.
BOARD_WATCHED = """
if (!window.boardWatch) {
  window.boardWatch = { held: 0, sent: 0 };
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.target.id === "board-follow" && event.defaultPrevented) window.boardWatch.held += 1;
  });
  document.addEventListener("htmx:beforeSend", (event) => {
    if (event.target.id === "board-follow") window.boardWatch.sent += 1;
  });
}
return window.boardWatch;
"""


def board_watched(phone) -> dict[str, int]:
    return phone.driver.execute_script(BOARD_WATCHED)


def totals(phone) -> list[str]:
    """Each player's total at the foot of the board (past the ★ of the lowest)."""
    return [cell.text.split()[-1] for cell in phone.find_all("#game-board tfoot td")]


def test_a_deal_recorded_on_one_page_reaches_another_by_the_stream(phone):
    """Deal 2 (deal 1 makes the board's table, which is fetched): the stream brings what it
    changed on the board, and the following page shows it with no request of its own."""
    game = make_game(make_club(make_user("ann")))
    record(game, 0, 1, 2, 3)
    phone.log_in(game.club.owner)
    phone.open(f"/games/{game.pk}/")
    following = phone.driver.current_window_handle
    phone.until(
        lambda: board_watched(phone)["held"], "the board listening to its stream (a poll held back)"
    )
    sent = board_watched(phone)["sent"]

    phone.new_window()
    phone.open(f"/games/{game.pk}/")
    phone.fill({"Ann": "0", "Ben": "5", "Cy": "10", "Dee": "13"})
    phone.tap("Record deal")
    phone.shows("[role=status]", "Deal 2 recorded.")

    phone.driver.switch_to.window(following)
    phone.until(lambda: len(phone.find_all("#score-rows tr")) == 2, "deal 2's row, followed")
    phone.until(lambda: totals(phone) == ["0", "6", "22", "42"], "deal 2's totals, followed")
    assert board_watched(phone)["sent"] == sent, (
        "the board fetched the deal rather than take the stream's"
    )
    phone.screenshot("deal-by-stream")


def test_the_tv_board_follows_a_deal(phone):
    night = draw(club_with_players(4), count=4, rounds=1)
    owner = night.club.owner
    nights.start_round(night=night, number=1, by=owner)
    token = nights.show_on_tv(night=night, by=owner)
    phone.as_tv()
    phone.open(f"/tv/{token}/")
    phone.shows("h1", "Round 1")

    game = games_of(night, 1)[0]
    record(game, 0, 5, 10, 13, by=owner)
    names = [seat.player.name for seat in game.seats.order_by("position")]
    seated = [f"{name} {total}" for name, total in zip(names, (0, 5, 20, 39), strict=True)]
    # A seat's name and total as the page holds them: WebKitWebDriver's rendered text leaves out
    # a name the board may cut short with an ellipsis (overflow: hidden), which the screenshot
    # shows whole.
    phone.until(
        lambda: (
            [
                " ".join(seat.get_attribute("textContent").split())
                for seat in phone.find_all(".tv-seats li")
            ]
            == seated
        ),
        f"the TV showing {seated}",
    )
    phone.screenshot("tv-board")
