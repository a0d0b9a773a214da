"""Plurals and articles in what a learner reads (issue 32, item 10), checked over the narration
of whole bot games (every event kind) and over the team game's screen played to its end.

The checks are written from English, not from ``ttrlib.words``: "a" before a vowel sound, a
noun in the singular after 1 and in the plural after any other number. The words helper's own
cases are its doctests.
"""

from __future__ import annotations

import html
import re

import pytest
from bot_games import finished_bot_game
from ipywidgets.widgets.widget import Widget
from widget_drivers import click_a_move

from ttrlib import Game, narration
from ttrlib import events as ev
from ttrlib.bots import GreedyBot, RandomBot
from ttrlib.cards import CardCounts, Color
from ttrlib.lessons import table as table_lesson
from ttrlib.widgets import TeamGame
from ttrlib.words import article, counted, noun, plural

NOUNS = "card|ticket|train|route|track|point|step|player|seat|locomotive"
BAD = [
    (re.compile(r"\b[Aa] (?:[aeio]|u(?!ni|se))\w*"), "'a' before a vowel"),
    (re.compile(rf"(?<![\d.,])1 (?:(?:extra|more|private|discarded|new|face-up) )?(?:{NOUNS})s\b"),
     "a plural after 1"),
    (re.compile(rf"\b(?:0|[2-9]|\d\d+) (?:(?:extra|more|private|discarded|new|face-up) )?"
                rf"(?:{NOUNS})\b(?!-| cards?\b| tickets?\b)"),
     "a singular after a number other than 1"),  # "4 train cards": "train" qualifies "cards"
]


def english_problems(text: str) -> list[str]:
    return [f"{why}: {m.group(0)!r} in {text!r}" for pattern, why in BAD
            for m in pattern.finditer(text)]


def test_the_checks_catch_the_slips_of_issue_32():
    assert english_problems("You drew a orange card.")
    assert english_problems("your teammate A2's hand (1 cards)")
    assert english_problems("2 card")
    assert not english_problems("You drew an orange card; a red card; 1 card; 2 cards; a uniform")


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def _bot_game(players: int, seed: int) -> Game:
    return finished_bot_game(players, seed, bot=RandomBot if seed % 2 else GreedyBot)


def test_the_narration_of_whole_bot_games_is_english_for_every_event_kind():
    seen: set[type] = set()
    problems: list[str] = []
    for players in (4, 6):
        for seed in range(6):
            for e in _bot_game(players, seed).events:
                seen.add(type(e))
                problems += english_problems(narration.text(e))
                if isinstance(e, ev.TunnelTried):
                    problems += english_problems(narration.text(e, reveal=False))
    # the two kinds bot games rarely reach, worded with counts of 1 and more
    rare = [ev.Passed(seat=1), ev.NoReset(), ev.Reshuffle(count=1), ev.Reshuffle(count=7),
            ev.TicketsShared(seat=0, count=1), ev.TicketsDrawn(seat=0, count=1)]
    for e in rare:
        seen.add(type(e))
        problems += english_problems(narration.text(e))
    assert set(narration._WORDS) <= seen, set(narration._WORDS) - seen
    assert not problems, problems[:5]


def test_the_team_game_played_to_the_end_reads_as_english():
    """Every message, hint and seat line of a whole game at seat A1, by its own buttons."""
    g = TeamGame(Game.new(players=4, seed=12), bots=[GreedyBot(seed=s) for s in range(4)])
    offer = list(g.chooser.tickets)
    for box in g.chooser.boxes[:3]:
        box.value = True
    g.chooser.share_choice.value = offer[0]
    g.chooser.confirm.click()
    problems: list[str] = []
    drew = 0
    for _ in range(600):
        if g.session.is_over:
            break
        if not g.view().my_turn:
            g.others.click()
        else:
            click_a_move(g, g.view())
        drew += "You drew" in g.message_text
        for text in (g.message_text, g.header.value, g.step.value):
            problems += english_problems(re.sub(r"<[^>]+>", " ", text))
    assert g.session.is_over and drew >= 5
    assert not problems, problems[:5]
    # the end: the score sheet shows the teammate's tickets, so the seat line no longer hides them
    header = html.unescape(g.header.value)
    assert "score sheet shows every team's tickets" in header and "private ticket" not in header


@pytest.mark.parametrize("colour", list(Color))
def test_you_drew_takes_the_article_of_its_colour(colour):
    game = Game.from_position(seed=0, draw_pile=[colour.value] + ["black"] * 3)
    g = TeamGame(game, bots=[GreedyBot(seed=s) for s in range(4)])
    g.deck.click()
    expected = "an" if colour.value[0] in "aeiou" else "a"
    assert f"You drew {expected} {colour.value} card." in g.message_text


def test_the_seat_line_counts_the_teammates_one_card():
    game = Game.from_position(seed=0, hands=[CardCounts(red=2), CardCounts(blue=1),
                                             CardCounts(), CardCounts()])
    g = TeamGame(game, bots=[GreedyBot(seed=s) for s in range(4)])
    assert "hand (1 card)" in g.header.value and "0 private tickets" in g.header.value


def test_a_refused_link_says_what_to_do_once():
    class Refused:
        def __init__(self, *args):
            from ttrlib.errors import TableError
            raise TableError("the class server does not know this seat's key: open the link "
                             "your teacher gave you")

    real = table_lesson.RemoteSeatSession
    table_lesson.RemoteSeatSession = Refused  # type: ignore[misc,assignment]
    try:
        seat = table_lesson.open_seat({"table": "t", "seat": "A1", "key": "k"}, "http://x")
    finally:
        table_lesson.RemoteSeatSession = real  # type: ignore[misc]
    text = re.sub(r"<[^>]+>", " ", seat.message)
    assert text.count("teacher") == 1 and "Ask your teacher" not in text


def test_the_words_helpers():
    assert [article(c.value) for c in (Color.ORANGE, Color.RED)] == ["an orange", "a red"]
    assert plural(1, "card") == "1 card" and plural(2, "more card") == "2 more cards"
    assert noun(1, "ticket") == "ticket" and counted(3, "ticket") == "three tickets"
