"""Board positions (an optional table of the board file) and the board map drawn from them.

The SVG checks read the picture back with ElementTree and do their own geometry (rotated
rectangles, a separating-axis overlap test and a font-size-based width for text), so a layout bug
in ``ttrlib.maps`` cannot hide behind the module's own helpers. The browser test renders the map
in Chromium, saves ``test-artifacts/map-*.png`` and checks the width estimate against the real
text boxes.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from ttrlib import Game, maps
from ttrlib.board import board_from_dict, teaching_board
from ttrlib.errors import BoardError
from ttrlib.maps import (
    READABLE_PX,
    board_description,
    board_svg,
    map_html,
    readable_width,
)

NS = "{http://www.w3.org/2000/svg}"
# The card letters, written out by hand (P W B Y O K R G; K is black).
LETTERS = {"purple": "P", "white": "W", "blue": "B", "yellow": "Y", "orange": "O",
           "black": "K", "red": "R", "green": "G"}
# A bold character is at most 0.78 font sizes wide, a line 1.25 high (checked in Chromium).
CHAR_W, LINE_H = 0.78, 1.25
# A few claims by three seats of two teams, and one more claim on top of them.
CLAIMS = {"kabul-kashgar": 0, "lahore-rawalpindi-1": 1, "delhi-lahore-2": 2,
          "canton-hongkong-1": 3, "kathmandu-lhasa-1": 0}
ONE_MORE = ("calcutta-delhi-1", 1)


def small(**extra) -> dict:
    data = {"name": "tiny", "cities": ["A", "B", "C"],
            "routes": [{"id": "a-b", "a": "A", "b": "B", "length": 2, "color": "red"},
                       {"id": "b-c", "a": "B", "b": "C", "length": 3, "color": "gray",
                        "tunnel": 4}],
            "tickets": [{"id": "T1", "a": "A", "b": "C", "points": 5}]}
    data.update(extra)
    return data


# --- geometry read back from the SVG -----------------------------------------------------------
def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def rect_polygon(rect: ET.Element) -> list[tuple[float, float]]:
    x, y = float(rect.get("x")), float(rect.get("y"))
    w, h = float(rect.get("width")), float(rect.get("height"))
    pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    m = re.fullmatch(r"rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)", rect.get("transform", ""))
    if not m:
        return pts
    a, cx, cy = (float(v) for v in m.groups())
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return [(cx + (px - cx) * c - (py - cy) * s, cy + (px - cx) * s + (py - cy) * c)
            for px, py in pts]


def overlap(p, q) -> bool:
    """Separating axis test for two convex polygons; touching is not overlapping."""
    for poly in (p, q):
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
            ax, ay = y1 - y2, x2 - x1
            a = [ax * x + ay * y for x, y in p]
            b = [ax * x + ay * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return False
    return True


def text_box(text: ET.Element) -> list[tuple[float, float]]:
    x, y, size = float(text.get("x")), float(text.get("y")), float(text.get("font-size"))
    half_w, half_h = CHAR_W * size * len(text.text) / 2, LINE_H * size / 2
    return [(x - half_w, y - half_h), (x + half_w, y - half_h), (x + half_w, y + half_h),
            (x - half_w, y + half_h)]


def thin(p, q, half=0.6):
    """A segment as a thin rectangle."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy)
    nx, ny = -dy / n * half, dx / n * half
    return [(p[0] + nx, p[1] + ny), (q[0] + nx, q[1] + ny), (q[0] - nx, q[1] - ny),
            (p[0] - nx, p[1] - ny)]


def gap_to(box, point) -> float:
    """Distance from a point to an upright box given by its corners."""
    (x0, y0), (x1, y1) = box[0], box[2]
    x, y = point
    return math.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1))


def routes_in(root) -> dict[str, ET.Element]:
    return {g.get("data-route"): g for g in root.iter(NS + "g") if g.get("class") == "ttr-route"}


def spaces_of(group) -> list:
    return [rect_polygon(r) for r in group.iter(NS + "rect")]


def cities_in(root) -> dict[str, tuple[float, float]]:
    return {c.get("data-city"): (float(c.get("cx")), float(c.get("cy")))
            for c in root.iter(NS + "circle") if c.get("class") == "ttr-city"}


def labels_in(root) -> dict[str, ET.Element]:
    return {t.get("data-city"): t for t in root.iter(NS + "text")
            if t.get("class") == "ttr-city-label"}


def markers_in(root) -> list[ET.Element]:
    return [g for g in root.iter(NS + "g") if g.get("class") == "ttr-tunnel-mark"]


@pytest.fixture(scope="module")
def board():
    return teaching_board()


# --- the board file's positions ----------------------------------------------------------------
def test_the_teaching_board_places_every_city():
    board = teaching_board()
    assert set(board.positions) == set(board.cities)
    lon, lat = board.positions["Lhasa"]
    assert 85 < lon < 95 and 25 < lat < 35  # the Tibetan plateau


@pytest.mark.parametrize("positions, words", [
    ({"A": [0, 0], "B": [1, 0], "Z": [2, 0]}, ["positions ('Z')", "not in 'cities'"]),
    ({"A": [0, 0], "B": [1, 0], "C": [2]}, ["positions ('C')", "[x, y]"]),
    ({"A": [0, 0], "B": [1, 0], "C": ["x", 1]}, ["positions ('C')", "[x, y]"]),
    ({"A": [0, 0], "B": [1, 0]}, ["positions", "missing ['C']"]),
    ([1, 2], ["'positions' must be a table"]),
])
def test_bad_positions_are_rejected_naming_the_entry(positions, words):
    with pytest.raises(BoardError) as info:
        board_from_dict(small(positions=positions), source="tiny.toml")
    for w in words:
        assert w in str(info.value), str(info.value)


def test_a_board_without_positions_cannot_be_drawn():
    with pytest.raises(BoardError, match="board 'tiny' has no 'positions'"):
        board_svg(board_from_dict(small()))


def test_a_small_board_with_two_cities_at_one_place_is_drawn_apart():
    board = board_from_dict(small(positions={"A": [0, 0], "B": [1, 0], "C": [1, 0]}))
    root = parse(board_svg(board, {"a-b": 0}, seat=0, tickets=["T1"]))
    cities = cities_in(root)
    assert math.dist(cities["B"], cities["C"]) > 40  # room for b-c's 3 spaces at least
    assert len(spaces_of(routes_in(root)["b-c"])) == 3


def test_positions_survive_save_and_resume():
    game = Game.new(players=4, seed=2)
    assert Game.from_json(game.to_json()).board.positions == teaching_board().positions


# --- names and layering ------------------------------------------------------------------------
def test_seat_and_team_names_are_C2s():
    assert [maps.seat_name(s) for s in range(6)] == ["A1", "A2", "B1", "B2", "C1", "C2"]
    assert [maps.team_name(t) for t in range(3)] == ["Team A", "Team B", "Team C"]


# (maps never imports the engine: tests/test_layers.py checks every module's imports)


def test_the_key_names_every_colour_letter(board):
    panel = next(g for g in parse(board_svg(board)).iter(NS + "g")
                 if g.get("class") == "ttr-map-panel")
    lines = [t.text for t in panel.iter(NS + "text")]
    assert lines[:3] == ["Key", "Letters: P purple, W white, B blue, Y yellow,",
                         "O orange, K black, R red, G green; gray: any colour"]


# --- the SVG -----------------------------------------------------------------------------------
def test_the_svg_is_a_self_contained_accessible_picture(board):
    svg = board_svg(board, CLAIMS, seat=0, tickets=["T05"], title="The board now")
    root = parse(svg)
    assert root.get("width") == "100%" and root.get("role") == "img"
    assert root.get("aria-label") == "The board now"
    assert root.get("preserveAspectRatio") == "xMidYMid meet"
    assert len(root.get("viewBox").split()) == 4
    assert root[0].tag == NS + "title" and root[0].text == "The board now"
    assert root[1].tag == NS + "desc"
    assert root[1].text == board_description(board, CLAIMS, seat=0, tickets=["T05"])
    assert "href" not in svg and "<script" not in svg  # nothing to fetch, nothing to run


def test_one_rectangle_per_train_space(board):
    groups = routes_in(parse(board_svg(board)))
    assert set(groups) == {r.id for r in board.routes}
    for r in board.routes:
        assert len(list(groups[r.id].iter(NS + "rect"))) == r.length, r.id
    total = sum(len(list(g.iter(NS + "rect"))) for g in groups.values())
    assert total == sum(r.length for r in board.routes)


def test_every_space_carries_its_colour_letter_and_gray_is_gray(board):
    groups = routes_in(parse(board_svg(board)))
    for r in board.routes:
        letters = [t.text for t in groups[r.id].iter(NS + "text")]
        fills = {rect.get("fill") for rect in groups[r.id].iter(NS + "rect")}
        if r.is_gray:
            assert letters == [] and fills == {"#9e9e9e"}, r.id
        else:
            assert letters == [LETTERS[r.color.value]] * r.length, r.id
            assert len(fills) == 1 and "#9e9e9e" not in fills


def test_every_tunnel_shows_how_many_cards_it_reveals(board):
    root = parse(board_svg(board))
    marks = {m.get("data-route"): m for m in markers_in(root)}
    groups = {}
    for r in board.routes:
        if r.is_tunnel:
            groups.setdefault(r.group or r.id, []).append(r)
    assert len(marks) == len(groups) == 8  # 9 tunnel tracks, Kathmandu - Lhasa is a double
    for tracks in groups.values():
        (rid,) = {r.id for r in tracks} & set(marks)
        texts = [t.text for t in marks[rid].iter(NS + "text")]
        assert texts == [f"\u25b2{tracks[0].tunnel}"], rid
        r = tracks[0]
        assert marks[rid].find(NS + "title").text == (
            f"{r.a} - {r.b}, tunnel: {r.tunnel} cards are revealed (rule U1)")
    for r in board.routes:  # and the tunnel's own spaces are drawn dashed
        dashed = {rect.get("stroke-dasharray") for rect in routes_in(root)[r.id].iter(NS + "rect")}
        assert dashed == ({"3 1.6"} if r.is_tunnel else {"none"}), r.id


def _obstacles(root, skip_city=None):
    """Every drawn thing a label may not cover: spaces, city-to-city lines, markers, dots."""
    cities = cities_in(root)
    out = []
    for g in routes_in(root).values():
        out += spaces_of(g)
    for r in teaching_board().routes:
        out.append(thin(cities[r.a], cities[r.b]))
    for m in markers_in(root):
        out += [rect_polygon(rect) for rect in m.iter(NS + "rect")]
    for x, y in cities.values():
        r = 9.0  # the ticket ring's outer edge (radius 8.5, stroke 3 -> 10 minus a margin)
        out.append([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)])
    return out


@pytest.mark.parametrize("claimed", [{}, CLAIMS], ids=["open board", "with claims"])
def test_no_label_covers_or_is_covered_by_anything(board, claimed):
    root = parse(board_svg(board, claimed, seat=0, tickets=["T05", "T01"]))
    labels = labels_in(root)
    assert set(labels) == set(board.cities)
    boxes = {c: text_box(t) for c, t in labels.items()}
    names = sorted(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not overlap(boxes[a], boxes[b]), (a, b)
    obstacles = _obstacles(root)
    for city, box in boxes.items():
        hits = [k for k, o in enumerate(obstacles) if overlap(box, o)]
        assert hits == [], (city, hits)
    for m in markers_in(root):  # markers cover no space and no other marker
        box = rect_polygon(next(m.iter(NS + "rect")))
        for g in routes_in(root).values():
            assert not any(overlap(box, s) for s in spaces_of(g)), m.get("data-route")
    # each name's nearest edge is nearer its own city than any other city
    cities = cities_in(root)
    for city, box in boxes.items():
        nearest = min(cities, key=lambda c, box=box: gap_to(box, cities[c]))
        assert nearest == city, (city, nearest)


def test_no_track_hides_another_and_short_ones_show(board):
    """Lahore - Rawalpindi (two gray tracks of one space) and every other track: no space of
    one track overlaps a space of another, parallel tracks included."""
    groups = routes_in(parse(board_svg(board, CLAIMS)))
    polys = {rid: spaces_of(g) for rid, g in groups.items()}
    ids = sorted(polys)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            clash = any(overlap(p, q) for p in polys[a] for q in polys[b])
            assert not clash, (a, b)
    for rid in ("lahore-rawalpindi-1", "lahore-rawalpindi-2"):  # big enough to read
        for p in polys[rid]:
            sides = sorted(math.dist(p[k], p[k + 1]) for k in range(3))
            assert sides[0] >= 10 and sides[-1] >= 16, (rid, sides)


def test_parallel_tracks_lie_side_by_side(board):
    groups = routes_in(parse(board_svg(board)))
    by_group = {}
    for r in board.routes:
        if r.group:
            by_group.setdefault(r.group, []).append(r.id)
    assert len(by_group) >= 10
    for tracks in by_group.values():
        centres = []
        for rid in sorted(tracks):
            pts = [pt for p in spaces_of(groups[rid]) for pt in p]
            centres.append((sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)))
        first = spaces_of(groups[sorted(tracks)[0]])[0]
        along = (first[1][0] - first[0][0], first[1][1] - first[0][1])
        for c1, c2 in zip(centres, centres[1:]):
            step = (c2[0] - c1[0], c2[1] - c1[1])
            cos = abs(step[0] * along[0] + step[1] * along[1]) / math.hypot(*step) / math.hypot(
                *along)
            assert cos < 0.01 and math.hypot(*step) >= 13, tracks  # across the track, apart


def test_claimed_tracks_show_team_colour_pattern_and_seat(board):
    groups = routes_in(parse(board_svg(board, CLAIMS)))
    names = {0: "A1", 1: "A2", 2: "B1", 3: "B2"}
    for rid, seat in CLAIMS.items():
        g = groups[rid]
        assert g.get("data-seat") == names[seat]
        assert [t.text for t in g.iter(NS + "text")] == [names[seat]] * board.route(rid).length
        fills = {r.get("fill") for r in g.iter(NS + "rect")}
        assert fills == {f"url(#ttr-team-{names[seat][0].lower()})"}
        assert names[seat] in g.find(NS + "title").text
    open_ones = [g for rid, g in groups.items() if rid not in CLAIMS]
    assert all(g.get("data-seat") is None for g in open_ones)


def test_each_team_has_its_own_pattern(board):
    root = parse(board_svg(board, CLAIMS))
    patterns = {p.get("id"): p for p in root.iter(NS + "pattern")}
    assert set(patterns) == {"ttr-team-a", "ttr-team-b", "ttr-team-c"}
    drawn = [ET.tostring(p[1]) for p in patterns.values()]  # the mark on top of the fill
    assert len(set(drawn)) == 3


def test_the_description_lists_every_claim_and_the_tickets(board):
    text = board_description(board, CLAIMS, seat=0, tickets=["T05"])
    assert "5 of 70 tracks claimed" in text
    assert "Team A 3 (A1 2, A2 1)" in text and "Team B 2 (B1 1, B2 1)" in text
    for rid, seat in CLAIMS.items():
        r = board.route(rid)
        assert f"{r.a} - {r.b}, {r.length} " in text and f"by {maps.seat_name(seat)}" in text
    assert "You are seat A1 of Team A" in text
    # T05 Kabul - Delhi needs Kabul-Rawalpindi, Rawalpindi-Lahore, Lahore-Delhi (E3: both
    # teammates' tracks count); Team A has only the middle one.
    assert "Kabul - Delhi (5 points): not connected yet" in text
    assert "No track is claimed yet." in board_description(board)


def test_a_ticket_joined_by_both_teammates_tracks_is_connected(board):
    mine = {"kabul-rawalpindi": 1, "lahore-rawalpindi-2": 0, "delhi-lahore-1": 1}
    text = board_description(board, mine, seat=0, tickets=["T05"])
    assert "Kabul - Delhi (5 points): connected by Team A's tracks" in text
    theirs = {**mine, "delhi-lahore-1": 2}  # the last link is Team B's
    assert "not connected yet" in board_description(board, theirs, seat=0, tickets=["T05"])
    root = parse(board_svg(board, mine, seat=0, tickets=["T05"]))
    rings = {c.get("data-city") for c in root.iter(NS + "circle")
             if c.get("class") == "ttr-ticket-ring"}
    assert rings == {"Kabul", "Delhi"}
    panel = " ".join(t.text for t in root.iter(NS + "text") if "Kabul - Delhi" in (t.text or ""))
    assert "connected" in panel and "not" not in panel


def test_the_map_after_a_claim_differs_exactly_in_that_track(board):
    before = parse(board_svg(board, CLAIMS, seat=1, tickets=["T02"]))
    after = parse(board_svg(board, {**CLAIMS, ONE_MORE[0]: ONE_MORE[1]}, seat=1, tickets=["T02"]))
    changed = []
    assert len(list(before.iter())) == len(list(after.iter()))  # same elements, so zip sees all
    for old, new in zip(before.iter(), after.iter()):
        if ET.tostring(old) != ET.tostring(new) and old.tag != NS + "svg":
            changed.append(old)
    # the desc (it lists the claims), the track group, and what lies inside that group only
    assert changed[0].tag == NS + "desc"
    tracks = [e for e in changed if e.tag == NS + "g" and e.get("class") == "ttr-map-tracks"]
    route = [e for e in changed if e.get("class") == "ttr-route"]
    assert len(tracks) == 1 and [g.get("data-route") for g in route] == [ONE_MORE[0]]
    inside = set(route[0].iter())
    assert all(e in inside for e in changed if e not in (changed[0], tracks[0]))
    assert routes_in(after)[ONE_MORE[0]].get("data-seat") == "A2"


def test_an_unknown_claimed_route_is_named(board):
    with pytest.raises(KeyError, match="no-such-route"):
        board_svg(board, {"no-such-route": 0})


def test_a_players_view_draws(board):
    game = Game.new(players=4, seed=0)
    view = game.view(0)
    svg = board_svg(view.board, view.claimed, seat=view.seat,
                    tickets=view.tickets + view.team_tickets + view.ticket_offer)
    assert len(view.ticket_offer) == 5  # T1: the setup offer
    offered = {c for t in view.ticket_offer for c in (board.ticket(t).a, board.ticket(t).b)}
    rings = {c.get("data-city") for c in parse(svg).iter(NS + "circle")
             if c.get("class") == "ttr-ticket-ring"}
    assert rings == offered


def test_a_ticket_offer_is_listed_as_an_offer(board):
    svg = board_svg(board, seat=2, tickets=["T01", "T02"], ticket_label="Tickets on offer")
    texts = [t.text for t in parse(svg).iter(NS + "text")]
    assert "Tickets on offer (B1), ringed" in texts
    assert "\u2022 Bombay - Madras (4 points): not connected yet" in texts
    desc = parse(svg).find(NS + "desc").text
    assert "Tickets on offer, ringed on the map: Bombay - Madras (4 points)" in desc


def test_team_game_map_updates_after_every_claim():
    from ttrlib import actions as act
    from ttrlib.widgets import TeamGame

    w = TeamGame(seed=4)
    assert w.board_map.value.count("<svg") == 1 and "0 tracks claimed" in w.board_map.value
    session = w.session
    for _ in range(400):  # play on until two claims are on the board, clicking like a learner
        view = session.view()
        if session.is_over or len(view.claimed) >= 2:
            break
        if not view.my_turn:
            w.others.click()
            continue
        claims = [a for a in session.legal_actions() if isinstance(a, act.Claim)]
        session.bot_plays_my_turn() if not claims else session.apply(claims[0])
        w.render()
    claimed = len(session.view().claimed)
    assert claimed >= 2
    assert f"{claimed} tracks claimed" in w.board_map.value
    owners = session.view().claimed
    from ttrlib import seat_name

    for route_id, seat in owners.items():
        assert route_id in w.board_map.value and f">{seat_name(seat)}<" in w.board_map.value
    w.close()


def test_ticket_offer_is_shown_on_the_map():
    from ttrlib.widgets import TicketStepper

    s = TicketStepper(seed=4)
    view = s.view()
    assert "svg" in s.board_map.value
    assert len(view.ticket_offer) == 5  # T1: five tickets dealt
    for t in view.ticket_offer:
        ticket = view.board.ticket(t)
        assert ticket.a in s.board_map.value and ticket.b in s.board_map.value
    s.close()


# --- readable on a narrow screen -----------------------------------------
def _label_sizes(svg: str) -> list[tuple[str, float]]:
    """The font size of every label of the map: city names, tunnel numbers, the key and the
    ticket list, the title (the letters inside train spaces are not labels)."""
    root = parse(svg)
    sizes = []
    for group in root.iter(NS + "g"):
        kind = group.get("class")
        if kind in ("ttr-map-labels", "ttr-map-tunnels", "ttr-map-panel"):
            sizes += [(f"{kind}: {t.text}", float(t.get("font-size")))
                      for t in group.iter(NS + "text")]
    title = next(t for t in root.findall(NS + "text"))
    return sizes + [(f"title: {title.text}", float(title.get("font-size")))]


@pytest.mark.parametrize("tickets", [["T05"], ["T05", "T02", "T30"], ["T01", "T02", "T03", "T04"]])
def test_the_key_and_the_ticket_list_never_overlap(board, tickets):
    root = parse(board_svg(board, CLAIMS, seat=0, tickets=tickets))
    boxes = []
    for g in root.iter(NS + "g"):
        if g.get("class") == "ttr-map-panel":
            r = g.find(NS + "rect")
            x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
            boxes.append((x, y, x + w, y + h))
    assert len(boxes) == 2
    (a, b) = boxes
    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], boxes
    vb = [float(v) for v in root.get("viewBox").split()]
    assert all(0 <= x0 and x1 <= vb[2] and 0 <= y0 and y1 <= vb[3] for x0, y0, x1, y1 in boxes)


def test_the_map_frame_never_draws_a_label_under_11_px(board):
    frame = map_html(board, CLAIMS, seat=0, tickets=["T05"])
    width = float(re.search(r"min-width: (\d+)px", frame).group(1))
    assert width == readable_width(board)
    vb = [float(v) for v in parse(re.search(r"<svg.*</svg>", frame, re.S).group(0))
          .get("viewBox").split()]
    sizes = _label_sizes(re.search(r"<svg.*</svg>", frame, re.S).group(0))
    assert len(sizes) >= len(board.cities) + 9 + 3  # names, tunnels, key lines, the title
    for label, size in sizes:  # at the narrowest width, in CSS pixels
        assert size * width / vb[2] >= READABLE_PX, (label, size * width / vb[2])
    assert 'overflow-x: auto' in frame and 'tabindex="0"' in frame and 'role="region"' in frame


# --- in a browser ------------------------------------------------------------------------------
@pytest.mark.browser
def test_the_map_in_chromium_at_three_widths(board):
    import lab_harness as h

    h.need_browser()
    svg = board_svg(board, CLAIMS, seat=0, tickets=["T05", "T02", "T30"],
                    title="Team A1's board: 5 tracks claimed")
    page_html = f"<!doctype html><html><body style='margin:0'>{svg}</body></html>"
    h.ARTIFACTS.mkdir(exist_ok=True)
    with h.browser() as b:
        for width in (1280, 980, 400):
            page = b.new_page(viewport={"width": width, "height": 900})
            page.set_content(page_html)
            drawn = page.evaluate("""() => {
                const svg = document.querySelector('svg');
                const r = svg.getBoundingClientRect();
                const box = t => { const b = t.getBBox(); return [b.width, b.height]; };
                const labels = [...svg.querySelectorAll('text.ttr-city-label')].map(
                    t => [t.textContent, ...box(t), +t.getAttribute('font-size')]);
                const inSpaces = [...svg.querySelectorAll('g.ttr-route')].flatMap(g => {
                    const length = +g.querySelector('rect').getAttribute('width');
                    return [...g.querySelectorAll('text')].map(
                        t => [t.textContent, ...box(t), length]);
                });
                return {width: r.width, height: r.height, labels: labels, inSpaces: inSpaces};
            }""")
            page.screenshot(path=str(h.ARTIFACTS / f"map-{width}.png"), full_page=True)
            page.close()
            assert abs(drawn["width"] - width) < 1  # it fills the width of the screen
            vb = [float(v) for v in parse(svg).get("viewBox").split()]
            assert abs(drawn["height"] - width * vb[3] / vb[2]) < 2  # and keeps its shape
            if width < 980:  # a thumbnail: Chromium rounds the metrics of 5 px text up
                continue
            for text, w, hgt, size in drawn["labels"]:  # the width estimate is generous
                assert w <= CHAR_W * size * len(text) + 0.5, (text, w, size)
                assert hgt <= LINE_H * size, (text, hgt, size)
            assert len(drawn["inSpaces"]) == sum(r.length for r in board.routes
                                                 if r.color or r.id in CLAIMS)
            for text, w, hgt, length in drawn["inSpaces"]:  # letters and seats fit their space
                assert w <= length - 2 and hgt <= 13, (text, w, hgt, length)


@pytest.mark.browser
def test_the_map_frame_in_chromium_from_360_px_up(board):
    """In its frame (map_html) the map fits a wide screen and scrolls on a narrow one; no label
    is drawn under 11 px and the page itself never gets wider than the screen."""
    import lab_harness as h

    h.need_browser()
    frame = map_html(board, CLAIMS, seat=0, tickets=["T05", "T02", "T30"],
                     title="Team A1's board: 5 tracks claimed")
    page_html = (f"<!doctype html><html><body style='margin:0'><p>Above the map</p>{frame}"
                 "</body></html>")
    least = readable_width(board)
    with h.browser() as b:
        for width in (1280, 980, 400, 360):
            page = b.new_page(viewport={"width": width, "height": 900})
            page.set_content(page_html)
            got = page.evaluate("""() => {
                const f = document.querySelector('.ttr-map-frame');
                const svg = f.querySelector('svg');
                const sel = '.ttr-map-labels text, .ttr-map-tunnels text, .ttr-map-panel text';
                const px = [...svg.querySelectorAll(sel)].map(
                    t => t.getBoundingClientRect().height / 1.0);
                const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
                const sizes = [...svg.querySelectorAll(sel + ', svg > text')].map(
                    t => +t.getAttribute('font-size') * scale);
                return {svg: svg.getBoundingClientRect().width, frame: f.clientWidth,
                        scroll: f.scrollWidth, page: document.scrollingElement.scrollWidth,
                        smallest: Math.min(...sizes), labels: sizes.length};
            }""")
            page.screenshot(path=str(h.ARTIFACTS / f"map-frame-{width}.png"))
            page.close()
            assert got["page"] <= width, got  # the page never scrolls sideways
            assert got["smallest"] >= READABLE_PX - 0.01, got
            assert got["labels"] >= len(board.cities) + 9, got
            if width >= least:  # room enough: the map fills the screen, nothing to scroll
                assert abs(got["svg"] - width) < 1 and got["scroll"] <= got["frame"], got
            else:  # a narrow screen: the map keeps its readable width and the frame scrolls
                assert abs(got["svg"] - least) < 1 and got["scroll"] > got["frame"], got
