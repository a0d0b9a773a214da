"""Signed saves on the server's side (issue 10 item 5): round trip, edits and foreign files
refused with a message, slot names that cannot leave the folder, a key only its owner reads."""

from __future__ import annotations

import hashlib
import hmac
import stat

import pytest

from ttrlib import Game
from ttrlib.errors import SaveError
from ttrlib.signed_save import SaveRefused, load, save, slot_name, slot_path, slots


@pytest.fixture
def key(tmp_path, monkeypatch):
    path = tmp_path / "keys" / "save-key"
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(path))
    return path


def played(seed: int = 4) -> Game:
    game = Game.new(players=4, seed=seed)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    return game


def test_round_trip_gives_the_same_game(key, tmp_path):
    game = played()
    name = save(game, "first try", tmp_path / "saves")
    assert name == "first-try" and slots(tmp_path / "saves") == ["first-try"]
    back = load("first try", tmp_path / "saves")
    assert back.to_json() == game.to_json()
    # the resumed game goes on exactly like the original
    for _ in range(8):
        game.apply(game.legal_actions()[-1])
        back.apply(back.legal_actions()[-1])
    assert back.to_json() == game.to_json()


def test_the_key_is_made_once_readable_by_its_owner_only(key, tmp_path):
    save(played(), "a", tmp_path)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    first = key.read_text()
    save(played(5), "b", tmp_path)
    assert key.read_text() == first and len(bytes.fromhex(first)) == 32


def test_the_file_format_is_a_signed_header_and_the_game(key, tmp_path):
    game = played()
    save(game, "x", tmp_path)
    head, payload = (tmp_path / "x.ttrsave").read_bytes().split(b"\n", 1)
    magic, mac = head.decode().split(" ")
    # the signature, computed here from the format's definition, not by the module
    expected = hmac.new(bytes.fromhex(key.read_text()), b"TTRSAVE1\n" + payload,
                        hashlib.sha256).hexdigest()
    assert magic == "TTRSAVE1" and mac == expected and payload.decode() == game.to_json()


@pytest.mark.parametrize("where", [-3, 40, 12])  # in the game, in the game, in the signature
def test_an_edited_byte_is_refused(key, tmp_path, where):
    save(played(), "x", tmp_path)
    path = tmp_path / "x.ttrsave"
    data = bytearray(path.read_bytes())
    data[where] = ord("0") if data[where] != ord("0") else ord("1")
    path.write_bytes(bytes(data))
    with pytest.raises(SaveRefused, match="signature does not match"):
        load("x", tmp_path)


def test_four_locomotives_dealt_by_hand_are_refused(key, tmp_path):
    """The issue's forgery: the hand edited in the saved JSON."""
    save(played(), "x", tmp_path)
    path = tmp_path / "x.ttrsave"
    text = path.read_text()
    head, payload = text.split("\n", 1)
    forged = payload.replace('"hands": [', '"hands": [{"locomotive": 4}, ', 1)
    assert forged != payload
    path.write_text(head + "\n" + forged)
    with pytest.raises(SaveRefused):
        load("x", tmp_path)


def test_a_file_signed_by_another_server_is_refused(key, tmp_path, monkeypatch):
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(tmp_path / "other-key"))
    save(played(), "x", tmp_path)
    monkeypatch.setenv("TTRLIB_SAVE_KEY", str(key))
    with pytest.raises(SaveRefused, match="another server"):
        load("x", tmp_path)


def test_a_plain_json_save_or_a_missing_slot_is_refused_in_words(key, tmp_path):
    (tmp_path / "plain.ttrsave").write_text(played().to_json())
    with pytest.raises(SaveRefused, match="not a ttrlib saved game"):
        load("plain", tmp_path)
    with pytest.raises(SaveRefused, match="no saved game named 'nothing-here'"):
        load("nothing here", tmp_path)
    assert issubclass(SaveRefused, SaveError)  # the widgets catch SaveError


@pytest.mark.parametrize("name, clean", [
    ("../../etc/passwd", "etc-passwd"), ("/abs/path", "abs-path"), ("..", "game"),
    ("my game 1", "my-game-1"), ("a\\b:c", "a-b-c"), ("", "game"), ("x" * 80, "x" * 40),
])
def test_slot_names_cannot_leave_the_folder(name, clean, tmp_path):
    assert slot_name(name) == clean
    path = slot_path(name, tmp_path)
    assert path.parent == tmp_path and path.name == clean + ".ttrsave"


def test_saving_under_a_traversal_name_writes_inside_the_folder(key, tmp_path):
    folder = tmp_path / "saves"
    save(played(), "../outside", folder)
    assert [p.name for p in folder.iterdir()] == ["outside.ttrsave"]
    assert not (tmp_path / "outside.ttrsave").exists()


def test_the_default_folder_is_saves_under_the_working_directory(key, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    save(played(), "mine")
    assert (tmp_path / "saves" / "mine.ttrsave").is_file()
    assert load("mine").to_json() == played().to_json()
