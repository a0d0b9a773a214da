"""Saves that belong to one learner and one game (issue 18 item 2), through the team game widget.

The audit: every classroom kernel starts in ``notebooks/``, so all learners shared
``notebooks/saves/`` and one key, and every Save box said "my-game": learner B's Load gave B
learner A's game, a third learner's Save overwrote it, a 6-player save loaded into the 4-player
lesson, and an earlier save of the same game brought back the draw pile and the generator, so
a tunnel's reveal could be seen, undone and replayed. Here the kernel's working folder is shared
(``chdir`` into one folder) and the learner is set with ``TTR_LEARNER``, the stand-in for the
classroom's cookie (ttrlib.lessons.learner).
"""

from __future__ import annotations

import dataclasses

import pytest
from ipywidgets.widgets.widget import Widget

from ttrlib import Game, Phase
from ttrlib import actions as act
from ttrlib.board import teaching_board
from ttrlib.cards import CardCounts
from ttrlib.widgets import TeamGame

A, B, C = "a" * 32, "b" * 32, "c" * 32  # three learners' ids (32 hex digits, like the cookie's)
TUNNEL = "kathmandu-lhasa-1"  # 3 red, reveals 5 (U1)


@pytest.fixture(autouse=True)
def classroom(tmp_path, monkeypatch):
    """One working folder for every kernel (the classroom's notebooks/), one save key."""
    Widget.close_all()
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "key"))
    work = tmp_path / "notebooks"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    yield work
    Widget.close_all()


def as_learner(monkeypatch, learner: str | None) -> None:
    if learner is None:
        monkeypatch.delenv("TTR_LEARNER", raising=False)
    else:
        monkeypatch.setenv("TTR_LEARNER", learner)


def first_moves(g: TeamGame) -> None:
    """Choose the setup tickets, so that the game differs from a fresh deal."""
    offer = list(g.chooser.tickets)
    for box, tid in zip(g.chooser.boxes, offer):
        box.value = tid in offer[:3]
    g.chooser.share_choice.value = offer[0]
    g.chooser.confirm.click()


def test_the_save_box_is_named_after_the_game():
    assert TeamGame(seed=4821).save_slot.value == "game-4821"
    g = TeamGame()
    assert g.save_slot.value == g.session.game_name.replace(" ", "-")
    g.new_game_button.click()
    assert g.save_slot.value == g.session.game_name.replace(" ", "-")


def test_another_learner_cannot_load_my_save(monkeypatch):
    as_learner(monkeypatch, A)
    mine = TeamGame(seed=4821)
    first_moves(mine)
    mine.save_slot.value = "game-4821"  # (the Save box's first name; its own test is above)
    mine.save_button.click()
    assert "Saved as 'game-4821'" in mine.message_text
    as_learner(monkeypatch, B)
    theirs = TeamGame(seed=4821)  # same game number, same Save box name, same working folder
    before = theirs.session.game.to_json()
    theirs.save_slot.value = "game-4821"
    theirs.load_button.click()
    assert "no saved game named 'game-4821'" in theirs.message_text
    assert theirs.session.game.to_json() == before


def test_a_third_learners_save_does_not_overwrite_mine(monkeypatch):
    as_learner(monkeypatch, A)
    mine = TeamGame(seed=4821)
    first_moves(mine)
    seen = mine.session.view()
    mine.save_slot.value = "game-4821"
    mine.save_button.click()
    as_learner(monkeypatch, C)
    other = TeamGame(seed=99)
    other.save_slot.value = "game-4821"
    other.save_button.click()
    assert "Saved as 'game-4821'" in other.message_text
    as_learner(monkeypatch, A)
    mine.deck.click()
    mine.save_slot.value = "game-4821"
    mine.load_button.click()
    assert "Loaded 'game-4821'" in mine.message_text and mine.session.view() == seen


def test_saves_live_in_a_folder_per_learner_named_by_a_digest(classroom, monkeypatch):
    as_learner(monkeypatch, A)
    TeamGame(seed=1).save_button.click()
    files = [p.relative_to(classroom) for p in classroom.rglob("*.ttrsave")]
    assert len(files) == 1 and files[0].parts[0] == "saves" and len(files[0].parts) == 3
    assert A not in str(files[0]) and len(files[0].parts[1]) == 32  # never the id itself
    as_learner(monkeypatch, None)  # JupyterLab: the local user, saves/NAME as before
    TeamGame(seed=1).save_button.click()
    assert (classroom / "saves" / "game-1.ttrsave").is_file()


def test_the_game_keeps_its_public_name_through_save_and_load(monkeypatch):
    as_learner(monkeypatch, A)
    g = TeamGame(seed=4821)
    g.save_slot.value = "game-4821"
    g.save_button.click()
    g.new_game_button.click()
    assert "game 4821" not in g.game_label.value
    g.save_slot.value = "game-4821"
    g.load_button.click()
    assert "game 4821" in g.game_label.value and "a set position" not in g.game_label.value
    assert g.session.seed == 4821 and "game 4821" in g.message_text
    random_one = TeamGame()
    name = random_one.session.game_name
    random_one.save_slot.value = "mine"
    random_one.save_button.click()
    random_one.new_game_button.click()
    random_one.save_slot.value = "mine"
    random_one.load_button.click()
    assert name in random_one.game_label.value


def test_a_save_of_another_game_size_or_board_is_refused_with_a_sentence(monkeypatch):
    as_learner(monkeypatch, A)
    six = TeamGame(players=6, seed=5)
    six.save_slot.value = "six"
    six.save_button.click()
    four = TeamGame(seed=5)
    before = four.session.game.to_json()
    four.save_slot.value = "six"
    four.load_button.click()
    assert "'six' is a 6-player game; this one is played by 4 players" in four.message_text
    assert four.session.game.to_json() == before
    other_board = dataclasses.replace(teaching_board(), name="another board")
    elsewhere = TeamGame(Game.new(players=4, seed=3, board=other_board))
    elsewhere.save_slot.value = "elsewhere"
    elsewhere.save_button.click()
    four.save_slot.value = "elsewhere"
    four.load_button.click()
    assert "played on the board 'another board'" in four.message_text
    assert four.session.game.to_json() == before


def tunnel_game() -> Game:
    """A1 to move with 3 red cards for the 5-card tunnel; every other card in the draw pile."""
    hands = [CardCounts(red=3), CardCounts(), CardCounts(), CardCounts()]
    return Game.from_position(seed=8, hands=hands, rest_to="draw_pile",
                              face_up=["white", "purple", "orange", "black", "yellow"])


def reveal(g: TeamGame) -> tuple:
    """Claim the tunnel with the 3 red cards; the cards the engine turned up (U1)."""
    g.session.apply(act.Claim(TUNNEL, CardCounts(red=3), CardCounts()))
    return next(e for e in reversed(g.session.game.events) if e.kind == "tunnel").revealed


def test_a_reload_is_no_free_retry_of_a_tunnel(monkeypatch):
    """Issue 32.14: save before a tunnel, claim it, see the reveal, load, claim again: every
    load turns up the very cards the first claim did (the unseen cards and the generator are
    the saved ones), and so does a game never saved. Before, each load dealt the unseen cards
    anew, and a learner who reloaded until the reveal suited paid nothing extra in 13 of 30."""
    as_learner(monkeypatch, A)
    g = TeamGame(tunnel_game())
    seen = g.session.view()
    saved_pile = list(g.session.game.draw_pile)
    untouched = g.session.game.copy()
    g.save_button.click()
    first = reveal(g)
    for _ in range(5):
        g.load_button.click()
        assert "Loaded" in g.message_text and g.session.view() == seen  # what A1 saw stays
        assert g.session.game.draw_pile == saved_pile  # no new deal of the unseen cards
        assert reveal(g) == first
    untouched.apply(act.Claim(TUNNEL, CardCounts(red=3), CardCounts()))
    assert untouched.tunnel.revealed == first


def test_the_bots_of_a_loaded_game_play_the_same_at_every_load(monkeypatch):
    """The bots' seeds come from the save's secret generator: two loads, the same bot moves."""
    as_learner(monkeypatch, A)
    g = TeamGame(seed=12)
    first_moves(g)
    g.save_button.click()
    runs = []
    for _ in range(2):
        g.load_button.click()
        if g.session.my_turn:
            g.session.bot_plays_my_turn()
        g.session.play_others()
        runs.append(g.session.game.to_json())
    assert runs[0] == runs[1]


def test_a_loaded_game_can_be_played_on_to_the_end(monkeypatch):
    """The redealt game is a valid game: the bots and the learner play it to its end (E1)."""
    as_learner(monkeypatch, A)
    g = TeamGame(seed=12)
    first_moves(g)
    g.save_button.click()
    g.load_button.click()
    for _ in range(400):
        if g.session.is_over:
            break
        if g.session.my_turn:
            g.session.bot_plays_my_turn()
        else:
            g.session.play_others()
    assert g.session.game.phase is Phase.OVER


def test_a_classroom_page_without_a_learner_id_does_not_save_in_the_shared_folder(
        classroom, monkeypatch):
    """A browser that refuses cookies has no id: its Save would land in the one folder all
    learners share, so it refuses, in words."""
    as_learner(monkeypatch, None)
    monkeypatch.delenv("HTTP_COOKIE", raising=False)
    monkeypatch.setenv("TTR_CLASSROOM", "1")
    g = TeamGame(seed=3)
    g.save_button.click()
    assert "Saving needs this site's cookie" in g.message_text
    g.load_button.click()
    assert "Saving needs this site's cookie" in g.message_text
    assert not list(classroom.rglob("*.ttrsave"))
    monkeypatch.setenv("HTTP_COOKIE", f"_xsrf=x; ttr_learner={A}")  # as Voila hands it over
    g.save_button.click()
    assert "Saved as 'game-3'" in g.message_text
    assert [p.parent.name for p in classroom.rglob("*.ttrsave")] != ["saves"]
