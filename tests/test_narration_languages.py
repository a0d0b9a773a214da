"""The log in Russian (issue 35): one whole sentence per event and case, a seat's action in the
present tense, cities and colours in Russian, counts in Russian's three plural forms.

Expected sentences are written by hand here; the English ones are the log's as it was before it
went through gettext (tests/test_narration.py and the doctests hold it).
"""

from __future__ import annotations

import re

import pytest

from ttrlib import events as ev
from ttrlib import i18n, narration
from ttrlib.bots import GreedyBot
from ttrlib.cards import CardCounts, Color, Place
from ttrlib.game import Game
from ttrlib.session import SeatSession
from ttrlib.words import CITIES, colour_count

# What stays in Latin letters in every language: rule ids (C5, U1 ...), seat labels (A1 ...) and
# team letters (glossary: docs/ru/glossary.md).
LATIN_ALLOWED = re.compile(r"\b(?:[A-Z]\d|[ABC])\b")

RED2_LOCO = CardCounts({Color.RED: 2, Color.LOCOMOTIVE: 1})
TUNNEL = ev.TunnelTried(seat=0, a="Kathmandu", b="Lhasa", cards=RED2_LOCO, extra=2,
                        revealed=(Color.RED, Color.BLUE, Color.LOCOMOTIVE))
EVERY_CASE = [
    (ev.Setup(players=4), "4 игрока; каждый получает 4 карты вагонов и 5 карт маршрутов"),
    (ev.Setup(players=6), "6 игроков; каждый получает 4 карты вагонов и 5 карт маршрутов"),
    (ev.Reshuffle(count=1), "колода пуста: 1 карта из сброса перемешана в новую колоду (C6)"),
    (ev.Reshuffle(count=22), "колода пуста: 22 карты из сброса перемешаны в новую колоду (C6)"),
    (ev.Reset(), "три открытых локомотива: ряд уходит в сброс, и открываются 5 новых карт (C5)"),
    (ev.NoReset(), None),
    (ev.Draw(seat=0, step=ev.DrawStep.FIRST, slot=None), "A1 берёт карту из колоды"),
    (ev.Draw(seat=1, step=ev.DrawStep.FIRST, slot=3), "A2 берёт карту из открытого слота 3"),
    (ev.Draw(seat=2, step=ev.DrawStep.SECOND, slot=None, to=Place.HAND),
     "B1 берёт вторую карту из колоды; она идёт на руку (D1)"),
    (ev.Draw(seat=2, step=ev.DrawStep.SECOND, slot=None, to=Place.CARDHOLDER),
     "B1 берёт вторую карту из колоды; она идёт на подставку команды (D1)"),
    (ev.Draw(seat=3, step=ev.DrawStep.SECOND, slot=0, to=Place.HAND),
     "B2 берёт вторую карту из открытого слота 0; она идёт на руку (D1)"),
    (ev.Draw(seat=3, step=ev.DrawStep.SECOND, slot=4, to=Place.CARDHOLDER),
     "B2 берёт вторую карту из открытого слота 4; она идёт на подставку команды (D1)"),
    (ev.Draw(seat=0, step=ev.DrawStep.LOCOMOTIVE, slot=2),
     "A1 берёт открытый локомотив; он идёт на подставку команды, и набор карт окончен (D2)"),
    (ev.Draw(seat=0, step=ev.DrawStep.NONE), "вторую карту взять нельзя, поэтому набор карт окончен (D4)"),
    (ev.Placed(seat=4, to=Place.HAND), "C1 кладёт первую карту на руку (D1)"),
    (ev.Placed(seat=5, to=Place.CARDHOLDER), "C2 кладёт первую карту на подставку команды (D1)"),
    (ev.TicketsPlaced(team=1), "Команда B кладёт на подставку свои 2 общие карты маршрутов (T1)"),
    (ev.TicketsDrawn(seat=0, count=4), "A1 берёт 4 карты маршрутов"),
    (ev.TicketsDrawn(seat=0, count=5), "A1 берёт 5 карт маршрутов"),
    (ev.TicketsKept(seat=1, kept=1, returned=2),
     "A2 оставляет 1 карту маршрута, 1 делает общей, возвращает 2 (T2, T3)"),
    (ev.TicketsShared(seat=1, count=2), "A2 делает общими 2 карты маршрутов (T4)"),
    (TUNNEL,
     "A1 пробует туннель Катманду — Лхаса: открыты красная, синяя, локомотив; доплата — 2 карты "
     "(U1, U2)"),
    (ev.TunnelTried(seat=0, a="Kathmandu", b="Lhasa", cards=RED2_LOCO, extra=0, revealed=()),
     "A1 пробует туннель Катманду — Лхаса: не открылось ничего (карт не осталось, U6); доплата — "
     "0 карт (U1, U2)"),
    (ev.Claimed(seat=2, a="Hong Kong", b="Canton", cards=RED2_LOCO),
     "B1 занимает Гонконг — Кантон, платит: 2 красные, 1 локомотив"),
    (ev.Withdrew(seat=2, a="Ulan Bator", b="Peking"),
     "B1 забирает карты обратно с перегона Улан-Батор — Пекин; открытые карты уходят в сброс "
     "(U3, U4)"),
    (ev.Passed(seat=3), "B2: разрешённого действия нет, ход пропущен"),
    (ev.FinalRound(team=0), "Команда A: осталось 4 вагона или меньше — каждый игрок делает "
                            "последний ход (E1)"),
    (ev.Over(), "партия окончена"),
]


@pytest.fixture
def russian():
    i18n.set_language("ru")
    yield
    i18n.set_language(None)


def _latin_left(sentence: str) -> str:
    return re.sub(r"[^A-Za-z]", "", LATIN_ALLOWED.sub("", sentence))


def test_every_event_kind_is_covered_here():
    kinds = {type(e) for e, _ in EVERY_CASE}
    assert kinds == {cls for cls in vars(ev).values()
                     if isinstance(cls, type) and issubclass(cls, ev.Event) and cls is not ev.Event}


@pytest.mark.parametrize("event,expected", EVERY_CASE, ids=lambda v: getattr(v, "kind", None))
def test_each_event_reads_in_russian(russian, event, expected):
    said = narration.text(event)
    if expected is not None:
        assert said == expected
    assert not _latin_left(said), said


def test_a_tunnel_told_face_down_in_russian(russian):
    e = ev.TunnelTried(seat=0, a="Kathmandu", b="Lhasa", cards=RED2_LOCO,
                       revealed=(Color.RED,), extra=1)
    assert narration.text(e, reveal=False) == ("A1 выкладывает на туннель Катманду — Лхаса: "
                                               "2 красные, 1 локомотив; его карты открываются "
                                               "одна за другой… (U1)")


@pytest.mark.parametrize("n,red,loco", [
    (0, "0 красных", "0 локомотивов"), (1, "1 красная", "1 локомотив"),
    (2, "2 красные", "2 локомотива"), (4, "4 красные", "4 локомотива"),
    (5, "5 красных", "5 локомотивов"), (11, "11 красных", "11 локомотивов"),
    (12, "12 красных", "12 локомотивов"), (21, "21 красная", "21 локомотив"),
    (22, "22 красные", "22 локомотива"), (25, "25 красных", "25 локомотивов"),
    (101, "101 красная", "101 локомотив"), (111, "111 красных", "111 локомотивов"),
])
def test_cards_of_a_colour_take_russians_three_forms(russian, n, red, loco):
    assert colour_count(n, Color.RED) == red and colour_count(n, Color.LOCOMOTIVE) == loco


def test_the_english_log_reads_as_before():
    i18n.set_language("en")
    try:
        assert narration.text(TUNNEL) == ("A1 tries the tunnel Kathmandu - Lhasa: "
                                                     "revealed red, blue, locomotive; 2 extra "
                                                     "cards owed (U1, U2)")
        assert narration.text(ev.Reset()) == ("three face-up locomotives: the row is discarded "
                                              "and five new cards are turned up (C5)")
        assert RED2_LOCO.describe() == "2 red, 1 locomotive"
    finally:
        i18n.set_language(None)


def test_every_city_of_the_board_has_a_russian_name(russian):
    board = Game.new(players=4, seed=1).board
    assert set(board.cities) <= set(CITIES)
    for name in board.cities:
        assert not re.search(r"[A-Za-z]", narration.city(name)), name


@pytest.mark.parametrize("players", [4, 6])
def test_a_whole_bot_game_is_told_in_russian(russian, players):
    game = Game.new(players=players, seed=35)
    session = SeatSession(game, 0, bots=[GreedyBot(seed=[35, s]) for s in range(players)])
    session.play_setup(humans=())
    for _turn in range(600):
        if session.is_over:
            break
        session.bot_plays_my_turn() if session.my_turn else session.play_others()
    assert session.is_over
    told = narration.lines(session.view().events)
    kinds = {type(e) for e in session.view().events}
    assert {ev.Setup, ev.Draw, ev.Placed, ev.Claimed, ev.FinalRound, ev.Over} <= kinds
    assert all(not _latin_left(line) for line in told), [x for x in told if _latin_left(x)][:3]
