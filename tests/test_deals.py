"""Deals nobody can recompute (issue 18 item 1).

The audit: every widget showed "game N" and dealt ``Game.new(seed=N)``, so the public library gave
the teammate's hand, the opponents' tickets and the draw pile in order; a game without a number
came from 9,000 four-digit seeds, so A1's first screen picked out its deal in 2 s; the bots and
lesson 06's ``resume_story`` were seeded from the same number. Now the number is a public name and
the deal is HMAC-SHA256 under the installation's deal key (ttrlib.deals). The expected seeds
below are computed here from the documented formula with the tests' key (conftest.py), not by
the module.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import threading
from pathlib import Path

import numpy as np
import pytest
from ipywidgets.widgets.widget import Widget

from ttrlib import Game
from ttrlib.lessons.tunnels import practice_position
from ttrlib.session import SeatSession
from ttrlib.widgets import CardSplitStepper, TeamGame, TicketStepper, TunnelClaimStepper


@pytest.fixture(autouse=True)
def empty_registry():
    Widget.close_all()
    yield
    Widget.close_all()


def keyed(label: str, players: int, name, *more) -> int:
    """The documented formula: 16 bytes of HMAC-SHA256(key, "ttrlib LABEL v1" NUL players NUL
    name [NUL more]), big-endian."""
    key = bytes.fromhex(Path(os.environ["TTRLIB_DEAL_KEY"]).read_text())
    message = "\0".join([f"ttrlib {label} v1", str(players), str(name), *map(str, more)])
    return int.from_bytes(hmac.new(key, message.encode(), hashlib.sha256).digest()[:16], "big")


def cards(game: Game) -> tuple:
    """Every card's place: the hands, the face-up row and the draw pile in order."""
    return (tuple(game.hands), tuple(game.face_up), tuple(game.draw_pile))


# the widgets that deal a game from a number, and how the keyed deal of that number is built
DEALT = {
    "TeamGame": (TeamGame, lambda seed: Game.new(players=4, seed=seed)),
    "CardSplitStepper": (CardSplitStepper, lambda seed: Game.new(players=4, seed=seed)),
    "TicketStepper": (TicketStepper, lambda seed: Game.new(players=4, seed=seed)),
    "TunnelClaimStepper": (TunnelClaimStepper, practice_position),
}


@pytest.mark.parametrize("name", DEALT)
def test_a_game_number_deals_through_the_key_not_the_public_library(name):
    """Finding 1: ``Game.new(seed=N)`` (or the practice position's plain shuffle) no longer
    gives the widget's game N; the keyed seed does. The ticket setup moves no train card, so
    every card's place can be compared."""
    make, deal = DEALT[name]
    widget = make(seed=4821)
    dealt = widget.session.game
    assert "game 4821" in widget.game_label.value
    assert cards(dealt) != cards(deal(4821))  # the public library does not deal it
    assert cards(dealt) == cards(deal(keyed("deal", 4, 4821)))


def test_game_7_for_six_players_is_not_game_7_for_four():
    """The players are part of the keyed message: the 6-player deal shares no shuffle with the
    4-player one (the same seed would deal the first four seats the same hands)."""
    six, four = TeamGame(players=6, seed=7).session.game, TeamGame(seed=7).session.game
    assert cards(six) == cards(Game.new(players=6, seed=keyed("deal", 6, 7)))
    assert six.hands[:4] != four.hands


def test_the_same_number_is_the_same_game_on_one_server_and_another_game_under_another_key(
        tmp_path, monkeypatch):
    a, b = SeatSession.new(seed=7), SeatSession.new(seed=7)
    assert a.game.to_json() == b.game.to_json()  # a class on ?seed=7 plays one game
    other_key = tmp_path / "other-deal-key"
    other_key.write_text("a1" * 32)
    monkeypatch.setenv("TTRLIB_DEAL_KEY", str(other_key))
    assert cards(SeatSession.new(seed=7).game) != cards(a.game)  # another installation


def test_a_game_without_a_number_is_none_of_the_9000_four_digit_deals():
    """Finding 1, the 2-second attack: A1's first screen (its hand and its ticket offer)
    against every ``Game.new(seed=s)``, s in 1000-9999. A 128-bit deal matches none of them."""
    widget = TeamGame()
    view = widget.session.view()
    seen = (view.hand, tuple(view.ticket_offer))
    matches = [s for s in range(1000, 10_000)
               if (lambda g: (g.hands[0], tuple(g.offers[0])))(Game.new(players=4, seed=s)) == seen]
    assert matches == []


def test_a_deal_without_a_number_takes_128_random_bits():
    seeds = []

    def deal(seed):
        seeds.append(seed)
        return Game.new(players=4, seed=seed)

    session = SeatSession.new(deal=deal)
    for _ in range(4):
        session.new_game()
    # 5 draws of 128 bits: each has more than 100 significant bits but with chance 2**-27
    assert len(set(seeds)) == 5 and all(s.bit_length() > 100 for s in seeds)


def test_the_bots_seeds_are_keyed_too():
    """Finding 1: the bots were ``GreedyBot(seed=N + seat)``; now seat s draws from
    ``[keyed("bots", 4, N), s]``."""
    session = SeatSession.new(seed=4821)
    for seat, bot in enumerate(session.bots):
        state = bot.rng.bit_generator.state["state"]
        assert state != np.random.default_rng(4821 + seat).bit_generator.state["state"]
        expected = np.random.default_rng([keyed("bots", 4, 4821), seat])
        assert state == expected.bit_generator.state["state"]


def test_the_resume_story_of_lesson_06_is_dealt_through_the_key(monkeypatch):
    """Finding 1: ``resume_story(SEED)`` played ``Game.new(seed=SEED)``."""
    from ttrlib.lessons import team_game

    seeds = []

    class Recording(Game):
        @classmethod
        def new(cls, players=4, seed=None, board=None):
            seeds.append(seed)
            return Game.new(players=players, seed=seed, board=board)

    monkeypatch.setattr(team_game, "Game", Recording)
    story = team_game.resume_story(4821, turns=6)
    assert "exactly the same" in story
    assert seeds == [keyed("resume story", 4, 4821)]


def test_a_mistyped_game_number_is_said_on_the_page(monkeypatch):
    """``?seed=12a`` dealt a random game without a word."""
    from ttrlib import lessons

    shown = []
    monkeypatch.setattr(lessons, "show", lambda *pictures, **_: shown.extend(pictures))
    monkeypatch.delenv("TTR_SEED", raising=False)
    monkeypatch.setenv("QUERY_STRING", "seed=12a")
    lessons.session_seed()
    text = " ".join(shown)
    assert "12a is not a game number: a new game was dealt" in text
    shown.clear()
    monkeypatch.setenv("QUERY_STRING", "seed=" + "<b>9" * 30)  # escaped, and cut short
    lessons.session_seed()
    said = re.findall(r'ttr-msg-text">(.*?)</span>', " ".join(shown), re.S)
    assert len(said) == 1 and "<b>9" not in said[0] and "is not a game number" in said[0]
    assert len(said[0]) < 200
    shown.clear()
    monkeypatch.setenv("QUERY_STRING", "seed=12")
    assert lessons.session_seed() == 12 and shown == []


# --- the deal key file ----------------------------------------------------------------------------
def fresh_key(tmp_path, monkeypatch, name="deal-key") -> Path:
    path = tmp_path / "keys" / name
    monkeypatch.setenv("TTRLIB_DEAL_KEY", str(path))
    return path


def test_the_deal_key_is_made_on_first_use_readable_by_its_owner_only(tmp_path, monkeypatch):
    from ttrlib import deals

    path = fresh_key(tmp_path, monkeypatch)
    first = deals.named(7, 4)
    assert (path.stat().st_mode & 0o777) == 0o600 and len(bytes.fromhex(path.read_text())) == 32
    assert deals.named(7, 4) == first  # made once, then read
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


@pytest.mark.parametrize("bad", ["folder", "not hex", "empty", "short"])
def test_a_deal_key_that_is_no_key_is_refused_in_words_and_left_alone(tmp_path, monkeypatch, bad):
    from ttrlib import deals
    from ttrlib.errors import KeyFileError

    path = fresh_key(tmp_path, monkeypatch)
    path.parent.mkdir(parents=True)
    if bad == "folder":
        path.mkdir()
    else:
        path.write_text({"not hex": "zz" * 32, "empty": "", "short": "ab" * 8}[bad])
    before = path.is_dir() or path.read_text()
    with pytest.raises(KeyFileError, match="deal key") as err:
        deals.named(7, 4)
    assert str(path) in str(err.value) and "TTRLIB_DEAL_KEY" in str(err.value)
    assert len(str(err.value)) <= 400
    assert (path.is_dir() or path.read_text()) == before  # never replaced


@pytest.mark.parametrize("name", DEALT)
def test_a_broken_deal_key_never_fails_a_page(tmp_path, monkeypatch, name):
    """A numbered game needs the key: the widget deals a random game and says why (no
    traceback); the library raises the sentence; New game (random) needs no key."""
    from ttrlib.errors import KeyFileError

    path = fresh_key(tmp_path, monkeypatch)
    path.mkdir(parents=True)
    with pytest.raises(KeyFileError, match="is a folder"):
        SeatSession.new(seed=6)
    g = DEALT[name][0](seed=6)
    assert g.session.game_name.startswith("random game ")
    assert "Game 6 cannot be dealt here" in g.message_text and "is a folder" in g.message_text
    before = g.session.game.to_json()
    g.new_game_button.click()
    assert g.session.game.to_json() != before and "A new game is dealt" in g.message_text


def test_kernels_making_the_deal_key_at_once_all_get_the_same_whole_key(tmp_path, monkeypatch):
    """Concurrent first use: 8 threads ask for a key that does not exist yet, 100 times over.
    Each must get the one key in the file, never an empty or half-written one (a key written in
    place after an O_EXCL create is caught in most runs, not all: a race)."""
    from ttrlib import keyfile

    def ask(path, barrier, got, errors):
        barrier.wait()
        try:
            got.append(keyfile.read_or_make(path, "deal key", "TTRLIB_DEAL_KEY"))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    for round_ in range(100):
        path = tmp_path / f"round-{round_}" / "deal-key"
        barrier, got, errors = threading.Barrier(8), [], []
        threads = [threading.Thread(target=ask, args=(path, barrier, got, errors))
                   for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and len(got) == 8
        assert set(got) == {bytes.fromhex(path.read_text())} and len(got[0]) == 32
