"""A class table as a short game (rule C3's short-game policy, issue 32 item 4): the teacher
asks for fewer trains per player (the API's ``trains``, the Tables form's "A short game" box),
every seat starts with that many, the table keeps it through a restart and the teacher's log
says it; anything outside the policy's bounds is refused with a sentence naming ``trains``."""

from __future__ import annotations

import urllib.request

import pytest
from server_harness import in_process

# the policy's numbers, from docs/team-asia-rules.md (C3): 10 to 27 trains per player; the
# lesson's short game is 12 at four players and 10 at six
FULL, FEWEST, LESSON = 27, 10, {4: 12, 6: 10}


def seat_trains(server, table: dict, name: str = "A1") -> list[int]:
    path = f"/api/tables/{table['table']}/seats/{name}?key={table['seats'][name]['key']}"
    return server.request("GET", path)[1]["view"]["trains"]


def test_a_short_table_deals_its_trains_and_keeps_them_through_a_restart(tmp_path):
    server = in_process(tmp_path / "data")
    try:
        short = server.request("POST", "/api/tables", {"players": 4, "trains": 12},
                               token=server.token)[1]
        full = server.new_table(players=6)
        assert seat_trains(server, short) == [12] * 4
        assert seat_trains(server, full) == [FULL] * 6
        log = server.request("GET", f"/api/tables/{short['table']}/log", token=server.token)[1]
        assert log["trains"] == 12
    finally:
        server.stop()
    again = in_process(tmp_path / "data")  # a new server on the same data: replayed from the log
    try:
        assert seat_trains(again, short) == [12] * 4
        assert seat_trains(again, full) == [FULL] * 6
    finally:
        again.stop()


@pytest.mark.parametrize("trains", [FEWEST - 1, FULL + 1, "12", 12.0, True, None, -1])
def test_trains_outside_the_policy_are_refused_naming_the_field(tmp_path, trains):
    server = in_process(tmp_path / "data")
    try:
        status, answer, _ = server.request("POST", "/api/tables",
                                           {"players": 4, "trains": trains}, token=server.token)
        assert status == 400 and answer["error"].startswith("trains:"), answer
        assert server.request("GET", "/api/tables", token=server.token)[1]["tables"] == []
    finally:
        server.stop()


@pytest.mark.parametrize("players", [4, 6])
def test_the_tables_forms_short_game_box_gives_the_lessons_trains(tmp_path, players):
    server = in_process(tmp_path / "data")
    try:
        for form, expected in [(f"players={players}&short=1", LESSON[players]),
                               (f"players={players}", FULL)]:
            req = urllib.request.Request(server.url + "/teacher/tables", data=form.encode(),
                                         method="POST", headers={
                                             "Authorization": f"Bearer {server.token}",
                                             "Content-Type": "application/x-www-form-urlencoded"})
            urllib.request.urlopen(req, timeout=30).close()  # 303 to the Tables page
            made = server.request("GET", "/api/tables", token=server.token)[1]["tables"][-1]
            log = server.request("GET", f"/api/tables/{made['table']}/log",
                                 token=server.token)[1]
            assert log["trains"] == expected, form
    finally:
        server.stop()
