"""The class server as a JupyterHub service (issue 23, items 1, 2 and 4), with a real Hub.

One small Hub (``server_harness.Hub``: the school's deploy/jupyterhub/jupyterhub_config.py plus the
test's dummy authenticator and local-process spawner), its configurable-http-proxy and the class
server as its managed service on a throw-away PostgreSQL. One teacher (the Hub group
ttr-teachers) and four learners: the teacher makes a table through the Hub's proxy, the learners
play it to the end there with their own Hub tokens (HTTP requests, not four browsers), the board
page shows the final scores of the log replayed here; a learner gets 403 on teacher pages and on
another learner's seat, even with its link; the teacher moves a seat to another user and to a
bot. Pages log in with the Hub's OAuth. One learner's own server, spawned by the Hub, opens
lesson 08 at a seat in the classroom app (Voila as a server extension) in Chromium.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from server_harness import (
    ACCESS,
    LEARNERS,
    OTHER,
    PASSWORD,
    TEACH,
    TEACHER,
    Hub,
    Postgres,
    one_hub_at_a_time,
)

from ttrlib import Game
from ttrlib.board import teaching_board
from ttrlib.bots import GreedyBot
from ttrlib.plain import action_from_plain, to_plain
from ttrlib.plain_views import event_from_plain, view_from_plain

pytestmark = pytest.mark.hub
SEATS = ["A1", "A2", "B1", "B2"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    # one Hub at a time on this machine, even when pytest-xdist gives this module's tests to
    # two workers (the second waits for the first's Hub to stop)
    with one_hub_at_a_time():
        cluster = Postgres()
        try:
            running = Hub(tmp_path_factory.mktemp("hub"), cluster.new_database())
            try:
                yield running
            finally:
                running.stop()
        finally:
            cluster.stop()


@pytest.fixture(scope="module")
def tokens(hub):
    status, body = hub.call("POST", "/hub/api/users", {"usernames": [*LEARNERS, OTHER]},
                            token=hub.admin)
    assert status in (201, 409), body
    made = {user: hub.token(user, [ACCESS]) for user in [*LEARNERS, OTHER]}
    made[TEACHER] = hub.token(TEACHER, [ACCESS, TEACH])
    return made


def _seat(table: dict, name: str) -> str:
    key = table["seats"][name]["key"]
    return f"/services/ttr/api/tables/{table['table']}/seats/{name}?key={key}"


def test_the_teacher_makes_a_table_the_learners_play_it_to_the_end(hub, tokens):
    api = "/services/ttr/api/tables"
    assert hub.call("POST", api, {"players": 4})[0] == 401  # nobody the Hub knows
    assert hub.call("POST", api, {"players": 4}, token=tokens["ada"])[0] == 403  # a learner
    status, table = hub.call("POST", api, {"players": 4, "seed": 8}, token=tokens[TEACHER])
    assert status == 201, table
    tid = table["table"]
    # the seats' links go through the Hub to the learner's own classroom app, lesson 08
    assert table["seats"]["A1"]["link"].startswith(f"{hub.url}/hub/user-redirect/voila/render/"
                                                   "08-play-at-a-table.ipynb?table=")
    assert table["board"] == f"/services/ttr/tables/{tid}/board"
    owner = dict(zip(SEATS, LEARNERS))
    for name, user in owner.items():  # each learner opens their own link first
        status, body = hub.call("GET", _seat(table, name), token=tokens[user])
        assert status == 200 and body["seat"] == name
    # another learner with the same link, or with no Hub token: refused
    assert hub.call("GET", _seat(table, "A1"), token=tokens["ben"])[0] == 403
    assert hub.call("GET", _seat(table, "A1"), token=tokens[OTHER])[0] == 403
    assert hub.call("GET", _seat(table, "A1"))[0] == 401
    # the teacher moves A1 to eve, then back to ada; a learner cannot
    owner_api = f"{api}/{tid}/seats/A1/owner"
    assert hub.call("POST", owner_api, {"user": OTHER}, token=tokens["ada"])[0] == 403
    assert hub.call("POST", owner_api, {"user": OTHER}, token=tokens[TEACHER])[0] == 200
    assert hub.call("GET", _seat(table, "A1"), token=tokens["ada"])[0] == 403
    assert hub.call("GET", _seat(table, "A1"), token=tokens[OTHER])[0] == 200
    assert hub.call("POST", owner_api, {"user": "ada"}, token=tokens[TEACHER])[0] == 200
    assert hub.call("GET", _seat(table, "A1"), token=tokens[OTHER])[0] == 403

    # the learners play to the end through the Hub's proxy, each with their own token
    board, events, made = teaching_board(), {n: [] for n in SEATS}, 0
    bots = {n: GreedyBot(seed=i) for i, n in enumerate(SEATS)}
    started = time.monotonic()
    while True:
        status, public = hub.call("GET", f"/services/ttr/api/tables/{tid}/public")
        assert status == 200
        if public["scores"] is not None:
            break
        name = SEATS[public["public"]["to_move"]]
        status, body = hub.call("GET", _seat(table, name) + f"&since={len(events[name])}",
                                token=tokens[owner[name]])
        assert status == 200, body
        events[name] += [event_from_plain(e) for e in body["event_data"]]
        action = bots[name].choose(view_from_plain(body["view"], board, events[name]),
                                   [action_from_plain(a) for a in body["legal"]])
        status, answer = hub.call("POST", _seat(table, name).replace("?key", "/actions?key"),
                                  to_plain(action), token=tokens[owner[name]])
        assert status == 200, answer
        made += 1
    seconds = time.monotonic() - started
    # the log, replayed here, ends in the scores the board page shows
    status, log = hub.call("GET", f"{api}/{tid}/log", token=tokens[TEACHER])
    assert status == 200 and len(log["actions"]) == made
    game = Game.new(players=4, seed=log["seed"])
    for a in log["actions"]:
        game.apply(action_from_plain(a))
    assert game.is_over and public["scores"] == to_plain(game.scores())
    status, page = hub.call("GET", f"/services/ttr/tables/{tid}/board")
    assert status == 200
    totals = re.search(r'<tr class="tb-total"><td>Total</td>(.*?)</tr>', page).group(1)
    assert re.findall(r'<td class="tb-num">(\d+)', totals) == [
        str(sheet.total) for sheet in game.scores()]
    _note("moves played through the Hub's proxy", {"moves": made, "seconds": round(seconds, 1)})


def _login(hub, user: str):
    """A requests session logged in to the Hub with the dummy password (the login form)."""
    import requests

    session = requests.Session()
    session.trust_env = False
    page = session.get(f"{hub.url}/hub/login", timeout=30).text
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
    form = {"username": user, "password": PASSWORD, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
    answer = session.post(f"{hub.url}/hub/login", data=form, timeout=60, allow_redirects=False)
    assert answer.status_code == 302, answer.text[:500]
    return session


def test_teacher_pages_log_in_through_the_hub_and_learners_get_403(hub, tokens):
    status, table = hub.call("POST", "/services/ttr/api/tables", {"players": 4, "bots": ["B2"]},
                             token=tokens[TEACHER])
    assert status == 201
    # nobody logged in: the page sends the browser to the Hub's login (OAuth), not a 401
    status, _ = hub.call("GET", "/services/ttr/teacher/tables")
    assert status == 302
    teacher = _login(hub, TEACHER)
    page = teacher.get(f"{hub.url}/services/ttr/teacher/tables", timeout=60)
    assert page.status_code == 200 and page.url.endswith("/services/ttr/teacher/tables")
    assert table["table"] in page.text
    # the page's own addresses carry the Hub's prefix
    assert f'href="/services/ttr/tables/{table["table"]}/board"' in page.text
    assert 'href="/teacher' not in page.text
    room = teacher.get(f"{hub.url}/services/ttr/teacher", timeout=60)
    assert room.status_code == 200 and 'href="/services/ttr/teacher/progress"' in room.text
    learner = _login(hub, "ben")
    for path in ("/services/ttr/teacher", "/services/ttr/teacher/tables",
                 "/services/ttr/teacher/progress", "/services/ttr/teacher/guide"):
        assert learner.get(f"{hub.url}{path}", timeout=60).status_code == 403, path
        assert teacher.get(f"{hub.url}{path}", timeout=60).status_code == 200, path
    for path in ("/services/ttr/api/tables", "/services/ttr/api/progress"):
        assert hub.call("GET", path, token=tokens["ben"])[0] == 403, path
        assert hub.call("GET", path, token=tokens[TEACHER])[0] == 200, path
    # the standalone login link does not exist on a Hub
    assert hub.call("GET", "/services/ttr/teacher?token=" + "0" * 64)[0] == 404

    # the page's forms post with the Hub's cookie and its XSRF token: a table made there, and
    # a seat given to another Hub user
    def form_post(session, path: str, data: dict, xsrf: bool = True):
        page = session.get(f"{hub.url}/services/ttr/teacher/tables", timeout=60).text
        token = re.search(r'name="_xsrf" value="([^"]+)"', page)
        if xsrf:
            data = {**data, "_xsrf": token.group(1)}
        return session.post(f"{hub.url}{path}", data=data, timeout=60, allow_redirects=False)

    made = form_post(teacher, "/services/ttr/teacher/tables", {"players": "4"})
    assert made.status_code == 303, made.text[:300]
    assert made.headers["Location"].startswith("/services/ttr/teacher/tables#t-")
    tid = made.headers["Location"].rsplit("#t-", 1)[1]
    give = f"/services/ttr/teacher/tables/{tid}/seats/B1/owner"
    assert form_post(teacher, give, {"user": OTHER}, xsrf=False).status_code == 401
    assert form_post(teacher, give, {"user": OTHER}).status_code == 303
    _, listed = hub.call("GET", "/services/ttr/api/tables", token=tokens[TEACHER])
    seats = next(t for t in listed["tables"] if t["table"] == tid)["seats"]
    assert seats["B1"]["user"] == OTHER and seats["A1"]["user"] is None
    assert learner.post(f"{hub.url}{give}", data={"user": "ben"}, timeout=60,
                        allow_redirects=False).status_code in (401, 403)


def test_on_a_hub_a_records_learner_is_the_hub_user_whatever_the_report_says(hub, tokens):
    # issue 30, finding 2: before, 2,000 invented learners with one learner's Hub token were
    # 2,000 learners; now every report of ben is ben's, and the report's own word is not taken
    def report(learner: str, try_: int) -> dict:
        return {"learner": learner, "lesson": "01", "exercise": "reset-count", "try": try_,
                "verdict": "wrong", "answer": "3", "revealed": False}

    for n in range(20):
        status, body = hub.call("POST", "/services/ttr/api/progress/report",
                                report(f"{n + 1:032x}", n + 1), token=tokens["ben"])
        assert status == 204, body
    status, issued = hub.call("POST", "/services/ttr/api/progress/learner",
                              {"browser": "f" * 32}, token=tokens["ben"])
    assert status == 200
    again = hub.call("POST", "/services/ttr/api/progress/learner", {}, token=tokens["ben"])[1]
    assert again == issued  # the Hub user's learner, whatever the browser
    other = hub.call("POST", "/services/ttr/api/progress/learner", {}, token=tokens["cy"])[1]
    assert other != issued
    status, body = hub.call("GET", "/services/ttr/api/progress", token=tokens[TEACHER])
    ex = next(e for e in body["exercises"] if e["exercise"] == "reset-count")
    assert ex["learners"] == 1


@pytest.mark.browser
def test_a_learner_logs_in_and_plays_lesson_08_in_their_own_server(hub, tokens):
    """Chromium logs in to the Hub as a learner with the seat's link as the page to go to: the
    Hub spawns the learner's server, whose classroom app (Voila as a server extension) runs
    lesson 08, whose kernel reaches the class server with the learner's Hub token."""
    from lab_harness import browser, need_browser

    need_browser()
    status, table = hub.call("POST", "/services/ttr/api/tables",
                             {"players": 4, "bots": ["A2", "B1", "B2"]}, token=tokens[TEACHER])
    assert status == 201
    link = table["seats"]["A1"]["link"]
    assert link.startswith(hub.url)
    with browser() as chromium:
        context = chromium.new_context()  # one browser session: the Hub's cookies
        page = context.new_page()
        page.goto(f"{hub.url}/hub/login?next={quote(link[len(hub.url):], safe='')}",
                  timeout=60_000)
        page.fill("input[name=username]", "cy")
        page.fill("input[name=password]", PASSWORD)
        started = time.monotonic()
        page.click("input[type=submit], button[type=submit]")
        # the Hub's spawn page gives way to the learner's own server once it is up
        page.wait_for_url(re.compile(r"/user/cy/voila/render/"), timeout=240_000,
                          wait_until="commit")
        spawned = time.monotonic() - started
        page.wait_for_selector(".ttr-widget", timeout=240_000)
        first_widget = time.monotonic() - started
        assert "/user/cy/voila/render/08-play-at-a-table.ipynb" in page.url
        page.wait_for_selector("text=You are A1", timeout=60_000)
        memory = _memory(hub)
        page.close()
        # another lesson in the same server's classroom app (lessons 00-07 need no table)
        lesson = context.new_page()
        lesson.goto(f"{hub.url}/user/cy/voila/render/01-card-splits.ipynb", timeout=120_000)
        lesson.wait_for_selector(".ttr-widget", timeout=240_000)
        lesson.close()
    # the kernel sat at A1 as cy: the seat is cy's now, and ada's token cannot open it
    status, listed = hub.call("GET", "/services/ttr/api/tables", token=tokens[TEACHER])
    mine = next(t for t in listed["tables"] if t["table"] == table["table"])
    assert mine["seats"]["A1"]["user"] == "cy"
    assert hub.call("GET", _seat(table, "A1"), token=tokens["ada"])[0] == 403
    _note("Hub login to the first widget of lesson 08, one learner (s)",
          {"total": round(first_widget, 1), "of which the Hub spawning the server": round(
              spawned, 1)})
    _note("memory (MB, RSS) with 1 teacher and 4 learners", memory)


def _memory(hub) -> dict:
    import psutil

    found = {}
    for part, pids in hub.pids().items():
        total = 0
        for pid in pids:
            try:
                total += psutil.Process(pid).memory_info().rss
            except psutil.NoSuchProcess:
                continue
        found[part] = round(total / 2**20)
    return found


def _note(what: str, figure) -> None:
    """Keep a figure for the report (test-artifacts/hub-figures.json); asserts nothing."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "hub-figures.json"
    figures = json.loads(path.read_text()) if path.exists() else {}
    figures[what] = figure
    path.write_text(json.dumps(figures, indent=1))
    print(what, figure)
