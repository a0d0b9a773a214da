"""Signed saves on the server's side (issue 10 item 5): round trip, edits and foreign files
refused with a message, slot names that cannot leave the folder, a key only its owner reads."""

from __future__ import annotations

import hashlib
import hmac
import json
import stat

import pytest

from ttrlib import Game
from ttrlib.cards import CardCounts
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


def test_the_file_format_is_a_signed_header_the_games_name_and_the_game(key, tmp_path):
    game = played()
    save(game, "x", tmp_path, game_name="game 4821")
    head, line, payload = (tmp_path / "x.ttrsave").read_bytes().split(b"\n", 2)
    magic, mac = head.decode().split(" ")
    # the signature, computed here from the format's definition, not by the module: the local
    # user is the empty learner, the slot is the file's name
    message = b"TTRSAVE2\n" + b"" + b"\n" + b"x" + b"\n" + b'"game 4821"' + b"\n" + payload
    expected = hmac.new(bytes.fromhex(key.read_text()), message, hashlib.sha256).hexdigest()
    assert magic == "TTRSAVE2" and mac == expected and payload.decode() == game.to_json()
    assert line == b'"game 4821"'


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
    """The issue's forgery: four locomotives of the draw pile swapped into A1's hand. The
    forged game is a valid one (the plain loader takes it); only the signature stops it."""
    game = Game.new(players=4, seed=4)
    save(game, "x", tmp_path)
    path = tmp_path / "x.ttrsave"
    head, line, payload = path.read_text().split("\n", 2)
    data = json.loads(payload)
    hand = [c for c, n in data["start"]["hands"][0].items() for _ in range(n)]
    locos = [i for i, c in enumerate(data["start"]["draw_pile"]) if c == "locomotive"][:4]
    assert len(hand) == len(locos) == 4
    for i, card in zip(locos, hand):
        data["start"]["draw_pile"][i] = card
    data["start"]["hands"][0] = {"locomotive": 4}
    forged = json.dumps(data)
    assert Game.from_json(forged).view(0).hand == CardCounts(locomotive=4)
    path.write_text(head + "\n" + line + "\n" + forged)
    with pytest.raises(SaveRefused, match="signature does not match"):
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


# --- issue 18 item 2: a save belongs to one learner, one slot, one game --------------------------
A, B = "a" * 32, "b" * 32


def test_a_save_renamed_to_another_slot_is_refused(key, tmp_path):
    """The signature covers the slot: a file copied under another name does not load."""
    save(played(), "one", tmp_path)
    (tmp_path / "two.ttrsave").write_bytes((tmp_path / "one.ttrsave").read_bytes())
    with pytest.raises(SaveRefused, match="signature does not match"):
        load("two", tmp_path)
    assert load("one", tmp_path).to_json() == played().to_json()


def test_a_save_copied_into_another_learners_folder_is_refused(key, tmp_path):
    from ttrlib.signed_save import open_save

    save(played(), "mine", tmp_path, learner=A, game_name="game 4821")
    mine, theirs = slot_path("mine", tmp_path, learner=A), slot_path("mine", tmp_path, learner=B)
    assert mine.parent != theirs.parent and A not in str(mine)
    theirs.parent.mkdir(parents=True)
    theirs.write_bytes(mine.read_bytes())
    with pytest.raises(SaveRefused, match="signature does not match"):
        load("mine", tmp_path, learner=B)
    with pytest.raises(SaveRefused, match="no saved game"):  # the local user's folder: not there
        load("mine", tmp_path)
    back = open_save("mine", tmp_path, learner=A)
    assert back.game_name == "game 4821" and back.slot == "mine"
    assert slots(tmp_path, learner=A) == ["mine"] and slots(tmp_path) == []


def test_a_changed_game_name_is_refused(key, tmp_path):
    save(played(), "x", tmp_path, game_name="game 4821")
    path = tmp_path / "x.ttrsave"
    path.write_bytes(path.read_bytes().replace(b'"game 4821"', b'"game 4822"', 1))
    with pytest.raises(SaveRefused, match="signature does not match"):
        load("x", tmp_path)


def test_a_version_1_save_is_refused_in_words(key, tmp_path):
    payload = played().to_json().encode()
    mac = hmac.new(bytes.fromhex("00" * 32), b"TTRSAVE1\n" + payload, hashlib.sha256).hexdigest()
    (tmp_path / "old.ttrsave").write_bytes(f"TTRSAVE1 {mac}\n".encode() + payload)
    with pytest.raises(SaveRefused, match="older ttrlib"):
        load("old", tmp_path)


@pytest.mark.parametrize("signature", ["é" * 64, "\x00" * 64, "ab"])
def test_a_signature_of_other_characters_is_refused_in_words(key, tmp_path, signature):
    """A non-ASCII signature made the comparison raise TypeError."""
    save(played(), "x", tmp_path)
    path = tmp_path / "x.ttrsave"
    head, rest = path.read_bytes().split(b"\n", 1)
    path.write_bytes(head.split(b" ")[0] + b" " + signature.encode("utf-8") + b"\n" + rest)
    with pytest.raises(SaveRefused, match="signature does not match"):
        load("x", tmp_path)


def test_a_slot_that_is_a_folder_is_refused_in_words(key, tmp_path):
    (tmp_path / "x.ttrsave").mkdir()
    with pytest.raises(SaveRefused, match="'x' is a folder"):
        load("x", tmp_path)
    with pytest.raises(SaveRefused, match="'x' cannot be saved: a folder"):
        save(played(), "x", tmp_path)


def test_a_key_file_that_is_a_folder_or_no_key_is_refused_in_words(key, tmp_path):
    key.parent.mkdir(parents=True)
    key.mkdir()
    with pytest.raises(SaveRefused, match="save key .* is a folder"):
        save(played(), "x", tmp_path)
    key.rmdir()
    key.write_text("this is not hex at all")
    with pytest.raises(SaveRefused, match="does not hold a key"):
        save(played(), "x", tmp_path)
    assert key.read_text() == "this is not hex at all"  # never replaced: saves would be lost
    assert not (tmp_path / "x.ttrsave").exists()


def test_eight_kernels_saving_one_slot_at_once_never_collide(key, tmp_path):
    """Two kernels saving one slot shared one NAME.tmp and failed 6 times in 400. 8 threads x
    50 saves of 8 different games into one slot: no error, no stray file, and the slot holds
    one of the 8 games whole."""
    from concurrent.futures import ThreadPoolExecutor

    games = [played(seed) for seed in range(8)]
    texts = {g.to_json() for g in games}
    save(games[0], "shared", tmp_path)  # the key and the folder exist before the rush

    def kernel(i: int) -> int:
        for _ in range(50):
            save(games[i], "shared", tmp_path)
        return i

    with ThreadPoolExecutor(8) as pool:
        assert sorted(pool.map(kernel, range(8))) == list(range(8))  # re-raises any failure
    assert [p.name for p in tmp_path.iterdir() if p.name != "keys"] == ["shared.ttrsave"]
    assert load("shared", tmp_path).to_json() in texts
