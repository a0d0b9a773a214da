"""The class server's doors for a teacher's browser (issue 30, findings 7, 8, 10; issue 32,
items 2, 5, 7, 9): forms only from the server's own pages, pages from templates with a CSP,
a page (not JSON) for a browser without the teacher's cookie, the Tables page without keys and
its seat cards to print, the board's log numbered by step and its bot seats marked.

In-process (``inprocess_server``). Expected values come from the API (the seats' keys, the
public log's event counts per version), never from the page code.
"""

from __future__ import annotations

import html
import re
import urllib.error
import urllib.request

import pytest
from server_harness import in_process as start_in_process
from server_harness import post_form


@pytest.fixture
def server(tmp_path):
    s = start_in_process(tmp_path / "data")
    yield s
    s.stop()


def cookie_of(server) -> str:
    """The teacher's cookie, as the login link sets it."""
    _, _, headers = server.request("GET", f"/teacher?token={server.token}")
    return headers["Set-Cookie"].split(";")[0]


def tables(server) -> list:
    return server.request("GET", "/api/tables", token=server.token)[1]["tables"]


def xsrf_of(server, cookie: str) -> tuple[str, str]:
    """(the _xsrf cookie, the form field's value) of the Tables page, as a browser gets them."""
    status, page, headers = server.request("GET", "/teacher/tables",
                                           headers={"Cookie": cookie})
    assert status == 200
    field = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    jar = [c.split(";")[0] for c in headers.get_all("Set-Cookie") if c.startswith("_xsrf=")]
    return jar[0], field


# --- finding 7: the teacher's forms ------------------------------------------------------------
def test_a_form_posted_from_another_site_or_without_the_pages_token_is_refused(server):
    cookie = cookie_of(server)
    before = len(tables(server))
    # a page on another port of this host: the browser says "same-site", and sends no token
    for extra in ({"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"},
                  {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
                  {"Origin": "http://127.0.0.1:9999"},  # an older browser: the Origin alone
                  {"Origin": "null"},  # a sandboxed page
                  {}):  # nothing said, and no token from the page
        assert post_form(server, "/teacher/tables", "players=4", {"Cookie": cookie,
                                                                  **extra}) == 403, extra
    assert len(tables(server)) == before
    xsrf_cookie, field = xsrf_of(server, cookie)
    both = {"Cookie": f"{cookie}; {xsrf_cookie}"}
    assert post_form(server, "/teacher/tables", "players=4&_xsrf=" + "0" * 40, both) == 403
    assert post_form(server, "/teacher/tables", f"players=4&_xsrf={field}",
                     {**both, "Sec-Fetch-Site": "same-site"}) == 403
    assert len(tables(server)) == before
    # the teacher's own page: same origin, with its token (behind a proxy that ends TLS the
    # Origin says https: the host is what counts)
    assert post_form(server, "/teacher/tables", f"players=4&_xsrf={field}",
                     {**both, "Origin": server.url.replace("http:", "https:")}) == 303
    before += 1
    assert post_form(server, "/teacher/tables", f"players=4&_xsrf={field}",
                     {**both, "Sec-Fetch-Site": "same-origin",
                      "Origin": server.url}) == 303
    assert len(tables(server)) == before + 1
    tid = tables(server)[-1]["table"]
    seat_form = f"/teacher/tables/{tid}/seats/A1/bot"
    assert post_form(server, seat_form, "preset=greedy", {"Cookie": cookie,
                                                          "Sec-Fetch-Site": "same-site"}) == 403
    assert post_form(server, seat_form, f"preset=greedy&_xsrf={field}", both) == 303
    # an API client with the teacher's token is no browser: no page, no token needed
    assert post_form(server, "/teacher/tables", "players=4",
                     {"Authorization": f"Bearer {server.token}"}) == 303


def _refused_form(server, fields: str) -> tuple[int, str]:
    """A Tables form posted as the teacher's own page posts it, refused: (status, page)."""
    cookie = cookie_of(server)
    xsrf_cookie, field = xsrf_of(server, cookie)
    req = urllib.request.Request(server.url + "/teacher/tables",
                                 data=f"{fields}&_xsrf={field}".encode(), method="POST",
                                 headers={"Cookie": f"{cookie}; {xsrf_cookie}",
                                          "Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=30)
    return refused.value.code, refused.value.read().decode()


def test_a_bot_on_a_seat_the_table_lacks_is_refused_not_dropped(server):
    before = len(tables(server))
    status, page = _refused_form(server, "players=4&bot=C1")
    assert status == 400 and "C1" in page and "Back to the tables" in page
    assert "Traceback" not in page and len(tables(server)) == before


@pytest.mark.parametrize("fields, words", [
    ("players=4&seed=12a", ["Game number: '12a' is not a whole number", "leave the box empty"]),
    ("players=4&seed=-3", ["Game number: '-3' is not a whole number"]),
    ("players=4&bot=C1", ["Seat C1 is not at a 4-player table (A1, A2, B1, B2)", "untick it"]),
])
def test_the_tables_forms_slips_are_refused_in_the_teachers_words(server, fields, words):
    # the API's sentences start with its field names ("seed: ...", "bots: ..."), which the form
    # never showed the teacher (issue 32, item 9)
    status, page = _refused_form(server, fields)
    text = html.unescape(page)
    assert status == 400 and all(w in text for w in words), text
    assert "seed:" not in text and "bots:" not in text and "Back to the tables" in text


# --- findings 8 and 10: pages ---------------------------------------------------------------
def _pages(server) -> list[str]:
    table = server.new_table(players=4, seed=3, bots=["A1", "A2", "B1", "B2"])
    tid = table["table"]
    return ["/teacher", "/teacher/progress", "/teacher/tables", f"/teacher/tables/{tid}/cards",
            f"/tables/{tid}/board", "/teacher/guide", "/teacher/glossary"]


def test_every_page_has_a_csp_and_runs_only_its_own_nonced_script(server):
    for path in _pages(server):
        status, page, headers = server.request("GET", path, token=server.token)
        assert status == 200, path
        csp = headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, path
        assert "form-action 'self'" in csp and "unsafe-eval" not in csp, path
        nonce = re.search(r"script-src 'nonce-([^']+)'", csp).group(1)
        scripts = re.findall(r"<script\b[^>]*>", page)
        assert all(f'nonce="{nonce}"' in s for s in scripts), (path, scripts)
        again = server.request("GET", path, token=server.token)[2]["Content-Security-Policy"]
        assert again != csp  # a nonce per answer


def test_a_browser_without_the_teachers_cookie_gets_a_page_saying_to_log_in_again(server):
    for path in ["/teacher", "/teacher/progress", "/teacher/tables", "/teacher/guide"]:
        status, page, headers = server.request("GET", path, headers={"Accept": "text/html"})
        assert status == 401 and headers["Content-Type"].startswith("text/html"), path
        assert "Open your login link again" in page and "make classroom" in page
        assert "Content-Security-Policy" in headers and "{" not in page.split("<style>")[0]
    status, body, _ = server.request("GET", "/api/progress", headers={"Accept": "text/html"})
    assert status == 401 and body == {"error": "Unauthorized"}  # the API answers JSON


def test_pages_build_their_addresses_under_the_servers_prefix(tmp_path):
    server = start_in_process(tmp_path / "data", base_url="/services/ttr/")
    try:
        status, room, _ = server.request("GET", "/teacher", token=server.token)
        assert status == 200
        links = re.findall(r'href="([^"]+)"', room)
        assert links and all(link.startswith("/services/ttr/teacher/") for link in links), links
        status, page, _ = server.request("GET", "/teacher/progress", token=server.token)
        assert 'data-board="/services/ttr/teacher/progress/board"' in page
        assert 'src="/services/ttr/teacher/progress.js"' in page
    finally:
        server.stop()


def test_what_a_page_shows_is_escaped(server):
    # a bot preset's name is the server's own, but a page never trusts what it shows: the one
    # free text of the Tables page is a Hub user's name; here the refusal page quotes input
    cookie = cookie_of(server)
    xsrf_cookie, field = xsrf_of(server, cookie)
    req = urllib.request.Request(server.url + "/teacher/tables",
                                 data=f"players=4&seed=<b>x&_xsrf={field}".encode(),
                                 method="POST",
                                 headers={"Cookie": f"{cookie}; {xsrf_cookie}",
                                          "Content-Type": "application/x-www-form-urlencoded"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=30)
    assert "<b>x" not in refused.value.read().decode()


# --- issue 32, item 2: seat links travel privately ------------------------------------------------
def test_the_tables_page_shows_no_key_and_the_cards_page_one_card_per_seat(server):
    table = server.new_table(players=6, seed=5, bots=["C2"])
    keys = {name: seat["key"] for name, seat in table["seats"].items()}
    status, page, _ = server.request("GET", "/teacher/tables", token=server.token)
    assert status == 200
    assert not any(key and key in page for key in keys.values())
    assert "<svg" not in page and "key=" not in page
    assert f"/teacher/tables/{table['table']}/cards" in page
    status, cards, _ = server.request("GET", f"/teacher/tables/{table['table']}/cards",
                                      token=server.token)
    assert status == 200 and cards.count('class="card"') == 6
    for name, seat in table["seats"].items():
        if seat["key"]:
            assert seat["link"].replace("&", "&amp;") in cards, name
    assert cards.count("<svg") == sum(1 for k in keys.values() if k)
    assert server.request("GET", f"/teacher/tables/{table['table']}/cards")[0] == 401


def test_a_seat_without_a_key_says_it_has_no_link_yet(server):
    table = server.new_table(players=4, seed=6, bots=["B2"])
    live = server.server.tables.get(table["table"])
    seat = 3  # B2, made as a bot: the referee may make it keyless (issue 32, item 2)
    live.keys[seat] = None
    _, cards, _ = server.request("GET", f"/teacher/tables/{table['table']}/cards",
                                 token=server.token)
    assert cards.count("no link yet: played by a bot") == 1 and cards.count("<svg") == 3
    _, page, _ = server.request("GET", "/teacher/tables", token=server.token)
    assert "no link yet (it gets one when you give the seat back to a learner)" in page


# --- issue 32, item 9: the Tables page ------------------------------------------------------------
def test_links_naming_localhost_carry_a_sentence(server, tmp_path):
    server.new_table(players=4, seed=1)
    _, page, _ = server.request("GET", "/teacher/tables", token=server.token)
    assert "CLASS_LESSONS_URL" in page and "cannot" in page
    # the whole command: without the lessons listening on the network the links still fail
    assert "VOILA_ARGS=--Voila.ip=0.0.0.0 CLASS_LESSONS_URL=" in page
    _, cards, _ = server.request("GET", f"/teacher/tables/{tables(server)[0]['table']}/cards",
                                 token=server.token)
    assert "VOILA_ARGS=--Voila.ip=0.0.0.0 CLASS_LESSONS_URL=" in cards
    other = start_in_process(tmp_path / "other", lessons_url="http://10.1.2.3:8866")
    try:
        _, page, _ = other.request("GET", "/teacher/tables", token=other.token)
        assert "CLASS_LESSONS_URL" not in page
    finally:
        other.stop()


def test_the_status_lines_update_by_themselves(server):
    table = server.new_table(players=4, seed=2, bots=["A1", "A2", "B1", "B2"])
    _, page, _ = server.request("GET", "/teacher/tables", token=server.token)
    assert f'data-status-of="{table["table"]}"' in page and "setInterval(refresh" in page
    status, lines, _ = server.request("GET", "/teacher/tables/status", token=server.token)
    assert status == 200 and lines == {table["table"]: "the game is over"}
    assert server.request("GET", "/teacher/tables/status")[0] == 401


def test_the_teachers_room_is_styled(server):
    _, room, _ = server.request("GET", "/teacher", token=server.token)
    assert "<style>" in room and 'class="rooms"' in room and "/teacher/tables" in room


# --- issue 32, items 5 and 7: the board ------------------------------------------------------------
def test_the_boards_log_is_numbered_by_step_and_bot_seats_are_marked(server):
    table = server.new_table(players=4, seed=8, bots=["A1", "A2", "B1", "B2"])
    tid = table["table"]
    latest = server.request("GET", f"/api/tables/{tid}/public")[1]["version"]

    def count(at: int) -> int:  # events in the public log at version ``at`` (the API's word)
        return server.request("GET", f"/api/tables/{tid}/public?at={at}")[1]["event_count"]

    for step in (1, 2, 3, latest // 2, latest - 1, latest):
        new = count(step) - count(step - 1)  # the lines this step added to the log
        frame = server.request("GET", f"/tables/{tid}/board/frame?at={step}")[1]["html"]
        numbers = [int(n) for n in re.findall(r'<li value="(\d+)"', frame)]
        highlighted = [int(n) for n in re.findall(r'<li value="(\d+)" class="tb-new"', frame)]
        assert numbers == sorted(numbers) and numbers[-1] <= step
        assert (numbers[-1] == step) == (new > 0)  # a step may add no public line
        assert highlighted == [step] * min(new, len(numbers)), (step, new)
        assert frame.count('class="tb-bot"') == 4


def test_a_refused_form_says_why_in_a_page(server):
    cookie = cookie_of(server)

    def refused(extra: dict) -> str:
        req = urllib.request.Request(server.url + "/teacher/tables", data=b"players=4",
                                     method="POST", headers={
                                         "Cookie": cookie, **extra,
                                         "Content-Type": "application/x-www-form-urlencoded"})
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(req, timeout=30)
        assert answer.value.code == 403 and answer.value.headers["Content-Type"].startswith(
            "text/html")
        return answer.value.read().decode()

    page = refused({"Sec-Fetch-Site": "same-site"})
    assert "another site" in page and "Open your login link again" not in page
    page = refused({"Sec-Fetch-Site": "same-origin"})
    assert "lacks its page&#x27;s token" in page and "Open your login link again" not in page
    wrong = refused({"Cookie": "ttr_teacher=" + "0" * 64})  # a stale cookie: log in again
    assert "Open your login link again" in wrong


def test_a_board_that_does_not_exist_is_a_page_for_a_browser(server):
    status, page, headers = server.request("GET", "/tables/abc123/board",
                                           headers={"Accept": "text/html"})
    assert status == 404 and headers["Content-Type"].startswith("text/html")
    assert "abc123" in page or "table" in page.lower()
    assert "Open your login link again" not in page
    assert server.request("GET", "/tables/abc123/board")[0] == 404
