"""Tests for ttrlib.display: HTML pictures of cards, tickets, routes, distributions, messages."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ttrlib import display
from ttrlib.board import Route, Ticket
from ttrlib.cards import COLORS, CardCounts, Color

# --- helpers -------------------------------------------------------------------------------------
SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(fragment: str) -> ET.Element:
    """Parse a fragment as XML (fails on unclosed tags, named entities, stray '<' or '&')."""
    return ET.fromstring(f"<root>{fragment}</root>")


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [el for el in root.iter() if cls in classes(el)]


def text_of(el: ET.Element) -> str:
    return "".join(el.itertext())


def visible_text(root: ET.Element) -> str:
    """All text except the stylesheet."""
    parts = []
    for el in root.iter():
        if el.tag != "style" and el.text:
            parts.append(el.text)
        if el.tail:
            parts.append(el.tail)
    return re.sub(r"\s+", " ", " ".join(parts))


def inline_style(el: ET.Element) -> dict[str, str]:
    out = {}
    for decl in el.get("style", "").split(";"):
        if ":" in decl:
            key, value = decl.split(":", 1)
            out[key.strip()] = value.strip()
    return out


VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area", "base", "source"}


class BalanceChecker(HTMLParser):
    """Checks that every opened element is closed in order (as a browser would need)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack}")
        else:
            self.stack.pop()


def assert_well_formed(fragment: str) -> ET.Element:
    root = parse(fragment)
    checker = BalanceChecker()
    checker.feed(fragment)
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    assert fragment.count("<style>") == 1, "the stylesheet is included exactly once"
    return root


class StandIn:
    """A tiny object with the two attributes distribution_html needs."""

    def __init__(self, pmf: dict[int, Fraction]):
        self.pmf = pmf
        self.mean = sum((k * p for k, p in pmf.items()), Fraction(0))


def _luminance(hex_color: str) -> float:
    rgb = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# --- cards ---------------------------------------------------------------------------------------
def card_parts(color: Color) -> tuple[ET.Element, str, str]:
    root = assert_well_formed(display.card_html(color))
    (card,) = find_class(root, "ttr-card")
    (letter,) = find_class(card, "ttr-letter")
    return card, text_of(letter).strip(), inline_style(card)["background"]


def test_each_colour_has_a_distinct_letter_and_fill():
    letters, fills = {}, {}
    for color in COLORS:
        card, letter, fill = card_parts(color)
        assert letter, f"{color} card has no letter"
        letters[color] = letter
        fills[color] = fill
        assert color.value in card.get("title"), "tooltip names the colour"
    assert len(set(letters.values())) == len(COLORS)
    assert len(set(fills.values())) == len(COLORS)
    assert letters[Color.BLACK] == "K" and letters[Color.BLUE] == "B"
    assert "gradient" in fills[Color.LOCOMOTIVE], "the locomotive is multicoloured"


def test_letters_are_readable_on_their_card():
    for color, look in display.CARD_LOOKS.items():
        if color is Color.LOCOMOTIVE:
            continue  # its letter sits on a white disc; checked below
        assert contrast(look.fill, look.ink) >= 3.0, f"{color}: letter too faint"
    assert contrast("#ffffff", display.CARD_LOOKS[Color.LOCOMOTIVE].ink) >= 4.5


def test_white_card_has_a_visible_border():
    root = parse(display.card_html("white"))
    (card,) = find_class(root, "ttr-card")
    assert "ttr-card-white" in classes(card)
    assert ".ttr-card-white" in display.STYLE and "#8a8a8a" in display.STYLE


def test_card_html_options():
    root = assert_well_formed(display.card_html("red", dim=True, highlight=True, label="a <label>"))
    (card,) = find_class(root, "ttr-card")
    assert {"ttr-dim", "ttr-hl"} <= classes(card)
    assert text_of(find_class(root, "ttr-label")[0]) == "a <label>"
    root = assert_well_formed(display.card_html(Color.GREEN, count=7))
    assert [text_of(b) for b in find_class(root, "ttr-badge")] == ["\u00d77"]
    with pytest.raises(ValueError):
        display.card_html("mauve")


def stacks(fragment: str) -> dict[str, int]:
    root = assert_well_formed(fragment)
    out = {}
    for st in find_class(root, "ttr-stack"):
        badge = text_of(find_class(st, "ttr-badge")[0])
        assert badge == f"\u00d7{st.get('data-count')}"
        out[st.get("data-color")] = int(badge[1:])
    return out


def test_cards_html_shows_each_colour_once_with_its_count():
    hand = CardCounts(red=2, blue=12, locomotive=1, white=3)
    assert stacks(display.cards_html(hand)) == {"white": 3, "blue": 12, "red": 2, "locomotive": 1}
    # deck order, one stack per colour
    root = parse(display.cards_html(hand))
    order = [st.get("data-color") for st in find_class(root, "ttr-stack")]
    assert order == ["white", "blue", "red", "locomotive"]


def test_cards_html_piles_are_capped_by_max_fan():
    root = parse(display.cards_html(CardCounts(blue=12), max_fan=4))
    (st,) = find_class(root, "ttr-stack")
    assert len(find_class(st, "ttr-card")) == 4
    root = parse(display.cards_html(CardCounts(blue=2), max_fan=4))
    assert len(find_class(root, "ttr-card")) == 2


def test_cards_html_accepts_lists_and_mappings():
    assert stacks(display.cards_html(["red", Color.RED, "green"])) == {"red": 2, "green": 1}
    assert stacks(display.cards_html({"yellow": 5})) == {"yellow": 5}


def test_cards_html_empty():
    root = assert_well_formed(display.cards_html(CardCounts()))
    assert "no cards" in visible_text(root)
    assert find_class(root, "ttr-card") == []
    root = parse(display.cards_html(CardCounts(), empty_text="nothing here"))
    assert "nothing here" in visible_text(root)


def test_cards_html_title_gives_total():
    root = assert_well_formed(display.cards_html(CardCounts(red=2, green=3), title="Pile"))
    head = text_of(find_class(root, "ttr-head")[0])
    assert "Pile" in head and "5 cards" in head


def test_repr_html_of_card_counts_uses_display():
    out = CardCounts(orange=4)._repr_html_()
    assert stacks(out) == {"orange": 4}


def test_hand_and_cardholder_frames():
    root = assert_well_formed(display.hand_html(CardCounts(red=1)))
    head = text_of(find_class(root, "ttr-head")[0])
    assert "Your hand" in head and "private" in head
    root = assert_well_formed(display.cardholder_html(CardCounts(red=1, green=1), "A"))
    head = text_of(find_class(root, "ttr-head")[0])
    assert "Team A cardholder" in head and "shared" in head and "2 cards" in head
    root = parse(display.cardholder_html(CardCounts(), "B"))
    assert find_class(root, "ttr-card") == [] and "empty" in visible_text(root)


def test_offlimits_shows_only_backs():
    root = assert_well_formed(display.offlimits_html(5, "Teammate's hand"))
    cards = find_class(root, "ttr-card")
    assert len(cards) == 5 and all("ttr-back" in classes(c) for c in cards)
    assert find_class(root, "ttr-letter") == [], "no colour letter may show"
    text = visible_text(root)
    assert "K1" in text and "I1" in text and "off-limits" in text.lower()
    assert "Teammate's hand" in text
    root = parse(display.offlimits_html(14, "X", max_shown=10))
    assert len(find_class(root, "ttr-card")) == 10 and "+4 more" in visible_text(root)


# --- ordered rows --------------------------------------------------------------------------------
def test_card_row_marks_empty_slots_in_place():
    row = [Color.RED, None, Color.LOCOMOTIVE, Color.WHITE, None]
    root = assert_well_formed(display.card_row_html(row, labels=["1", "2", "3", "4", "5"]))
    items = find_class(root, "ttr-item")
    assert len(items) == 5
    kinds = ["slot" if find_class(it, "ttr-slot") else "card" for it in items]
    assert kinds == ["card", "slot", "card", "card", "slot"]
    assert [text_of(find_class(it, "ttr-label")[0]) for it in items] == ["1", "2", "3", "4", "5"]
    letters = [
        text_of(find_class(it, "ttr-letter")[0]) for it in items if find_class(it, "ttr-card")
    ]
    assert letters == ["R", "L", "W"]


def test_card_row_highlights_the_given_indices():
    reveal = [Color.GREEN, Color.RED, Color.LOCOMOTIVE, Color.RED]
    root = assert_well_formed(display.card_row_html(reveal, highlight={1, 2}, title="Reveal"))
    cards = find_class(root, "ttr-card")
    assert ["ttr-hl" in classes(c) for c in cards] == [False, True, True, False]
    assert "Reveal" in text_of(find_class(root, "ttr-head")[0])


def test_card_row_rejects_wrong_label_count():
    with pytest.raises(ValueError):
        display.card_row_html([Color.RED, Color.RED], labels=["only one"])


# --- tickets and routes --------------------------------------------------------------------------
def test_ticket_text_is_escaped():
    t = Ticket("T<1>", "<b>Delhi</b>", "Lhasa & Co", 9)
    out = display.ticket_html(t)
    assert "&lt;b&gt;Delhi&lt;/b&gt;" in out
    assert "<b>" not in out
    root = assert_well_formed(out)
    assert root.find(".//b") is None
    cities = [text_of(c) for c in find_class(root, "ttr-city")]
    assert cities == ["<b>Delhi</b>", "Lhasa & Co"]


def test_escaping_everywhere():
    evil = '<script>x="1"</script>'
    fragments = [
        display.cards_html(CardCounts(red=1), title=evil),
        display.card_row_html([None], title=evil, labels=[evil]),
        display.tickets_html([Ticket("T", evil, "B", 1)], title=evil),
        display.route_html(Route("r", evil, "B", 2, None)),
        display.message_html(evil, rule=evil),
        display.offlimits_html(1, evil),
        display.distribution_html(StandIn({0: Fraction(1)}), title=evil, xlabel=evil),
    ]
    for frag in fragments:
        root = assert_well_formed(frag)
        assert "<script" not in frag
        assert root.find(".//script") is None
        assert evil in visible_text(root)


def test_ticket_status_badges():
    t = Ticket("T01", "Kabul", "Calcutta", 13)
    plain = parse(display.ticket_html(t))
    (badge,) = find_class(plain, "ttr-points")
    assert text_of(badge) == "13"
    done = parse(display.ticket_html(t, status="completed"))
    (badge,) = find_class(done, "ttr-points")
    assert "ttr-points-done" in classes(badge) and text_of(badge).startswith("+13")
    fail = parse(display.ticket_html(t, status="failed"))
    (badge,) = find_class(fail, "ttr-points")
    assert "ttr-points-fail" in classes(badge) and text_of(badge).startswith("\u221213")
    with pytest.raises(ValueError):
        display.ticket_html(t, status="won")


def test_ticket_id_sits_in_its_own_space_under_the_points():
    """Issue 9: the id was drawn on top of the card's border and the badge (absolute position).
    It now sits in the flow, under the badge, in a column of its own."""
    t = Ticket("T37", "Kabul", "Calcutta", 13)
    root = parse(display.ticket_html(t, status="failed"))
    (side,) = find_class(root, "ttr-ticket-side")
    assert [classes(c) & {"ttr-points", "ttr-ticket-id"} for c in side] == [
        {"ttr-points"}, {"ttr-ticket-id"}]
    assert text_of(side[1]) == "T37"
    css = display.style()
    rule = re.search(r"\.ttr-ticket-id \{([^}]*)\}", css).group(1)
    assert "absolute" not in rule and "font-size: 10px" in rule


def test_ticket_table_shows_what_one_seat_may_know():  # rule I1
    """Moved here from the ticket widget (lessons need no widget module for a picture). A1 holds
    T01 Bombay - Madras and T02 Calcutta - Mandalay, Team A shares T05 Kabul - Delhi, A2 holds
    three tickets A1 may only count; 46 - 6 placed = 40 tickets stay in the deck."""
    from ttrlib import Game

    game = Game.from_position(tickets=[["T01", "T02"], ["T03", "T04", "T06"], [], []],
                              team_tickets=[["T05"], []])
    text = visible_text(assert_well_formed(display.ticket_table_html(game.view(0))))
    assert ("Your private tickets (A1) (2 tickets) Bombay Madras 4 T01 Calcutta Mandalay 5 T02 "
            "Team A ticket cardholder (shared) (1 ticket) Kabul Delhi 5 T05 "
            "Teammate A2's tickets (3 hidden) off-limits ? ? ? ") in text
    assert text.endswith("Ticket deck 40 tickets face down")
    for secret in ("T03", "T04", "T06", "Hankow", "Canton", "Shanghai"):
        assert secret not in text


def test_hidden_tickets_show_eight_backs_at_most():
    many = visible_text(assert_well_formed(display.hidden_tickets_html(10, "A2's tickets")))
    assert many.startswith("A2's tickets (10 hidden) off-limits " + "? " * 8 + "+2 more")
    none = visible_text(assert_well_formed(display.hidden_tickets_html(0, "A2's tickets")))
    assert "no private tickets" in none and "?" not in none


def test_ticket_pictures_need_no_widget_module():
    code = ("import sys; from ttrlib.display import hidden_tickets_html, ticket_table_html; "
            "from ttrlib import Game; ticket_table_html(Game.new(seed=1).view(0)); "
            "print(sorted(m for m in sys.modules if m.startswith(('ttrlib.widgets', "
            "'ipywidgets'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
    from ttrlib.widgets import tickets  # the old place still works for now

    assert tickets.ticket_table_html is display.ticket_table_html
    assert tickets.hidden_tickets_html is display.hidden_tickets_html


def test_counts_are_plural_only_when_not_one():
    assert [display.plural(n, "ticket") for n in (0, 1, 2)] == ["0 tickets", "1 ticket",
                                                                 "2 tickets"]
    one = parse(display.tickets_html([Ticket("T01", "Kabul", "Delhi", 5)], "Yours"))
    assert "(1 ticket)" in visible_text(one) and "1 tickets" not in visible_text(one)


def test_tickets_html():
    ts = [Ticket("T1", "A", "B", 5), Ticket("T2", "C", "D", 8)]
    root = assert_well_formed(display.tickets_html(ts, "Team tickets", statuses={"T2": "failed"}))
    tickets = find_class(root, "ttr-ticket")
    assert [t.get("data-status") for t in tickets] == ["open", "failed"]
    assert "2 tickets" in text_of(find_class(root, "ttr-head")[0])
    root = parse(display.tickets_html([]))
    assert "no tickets" in visible_text(root)


def test_route_html_cars_colour_and_tunnel():
    red = Route("delhi-lhasa", "Delhi", "Lhasa", 4, Color.RED, tunnel=5)
    root = assert_well_formed(display.route_html(red))
    cars = find_class(root, "ttr-car")
    assert len(cars) == 4
    assert {inline_style(c)["background"] for c in cars} == {display.CARD_LOOKS[Color.RED].fill}
    (tunnel,) = find_class(root, "ttr-tunnel")
    assert "reveals 5" in text_of(tunnel)
    text = visible_text(root)
    assert "Delhi" in text and "Lhasa" in text and "7 points" in text  # rule E2: 4 -> 7

    gray = Route("kabul-lahore", "Kabul", "Lahore", 2, None)
    root = assert_well_formed(display.route_html(gray))
    cars = find_class(root, "ttr-car")
    assert len(cars) == 2
    fill = inline_style(cars[0])["background"]
    assert fill not in {look.fill for look in display.CARD_LOOKS.values()}
    assert find_class(root, "ttr-tunnel") == []
    assert "gray" in visible_text(root)


# --- distributions -------------------------------------------------------------------------------
def svg_of(root: ET.Element) -> ET.Element:
    (svg,) = root.iter(f"{SVG_NS}svg")
    return svg


def test_distribution_shows_exact_fractions_percentages_and_mean():
    dist = StandIn({0: Fraction(3, 10), 1: Fraction(6, 10), 2: Fraction(1, 10)})
    out = display.distribution_html(dist, title="Extra cards")
    root = assert_well_formed(out)
    svg = svg_of(root)
    bars = [el for el in svg.iter(f"{SVG_NS}rect") if "ttr-bar" in classes(el)]
    assert len(bars) == 3
    tips = [text_of(b) for b in bars]
    assert tips == [
        "P(k = 0) = 3/10 \u2248 30.0%",
        "P(k = 1) = 3/5 \u2248 60.0%",
        "P(k = 2) = 1/10 \u2248 10.0%",
    ]
    heights = [float(b.get("height")) for b in bars]
    assert heights[1] > heights[0] > heights[2]
    assert heights[0] / heights[1] == pytest.approx(0.5, abs=0.01)
    # the fractions are written on the chart as numerator over denominator
    fracs = [[text_of(t) for t in g.iter(f"{SVG_NS}text")] for g in svg.iter(f"{SVG_NS}g")]
    assert fracs == [["3", "10"], ["3", "5"], ["1", "10"]]
    svg_text = " ".join(text_of(t) for t in svg.iter(f"{SVG_NS}text"))
    for pct in ("30.0%", "60.0%", "10.0%"):
        assert pct in svg_text
    mean = text_of(find_class(root, "ttr-mean")[0])
    assert "4/5" in mean and "0.8" in mean
    assert "Extra cards" in visible_text(root)


def test_distribution_gap_and_certain_value():
    dist = StandIn({0: Fraction(1, 4), 2: Fraction(3, 4)})
    svg = svg_of(parse(display.distribution_html(dist)))
    zero = [el for el in svg.iter(f"{SVG_NS}rect") if "ttr-bar-zero" in classes(el)]
    assert len(zero) == 1 and "P(k = 1) = 0" in text_of(zero[0])
    sure = StandIn({3: Fraction(1)})
    root = assert_well_formed(display.distribution_html(sure, xlabel="extra"))
    svg_text = " ".join(text_of(t) for t in svg_of(root).iter(f"{SVG_NS}text"))
    assert "100%" in svg_text and "100.0%" not in svg_text and "extra = 3" in svg_text
    assert "Mean (expected value): 3" in visible_text(root)


def test_distribution_mean_decimal_marks_rounding():
    dist = StandIn({0: Fraction(2, 3), 1: Fraction(1, 3)})
    mean = text_of(find_class(parse(display.distribution_html(dist)), "ttr-mean")[0])
    assert "1/3" in mean and "\u2248 0.3333" in mean


def test_distribution_empty():
    root = assert_well_formed(display.distribution_html(StandIn({})))
    assert "empty distribution" in visible_text(root)


# --- messages, layout, style, imports ------------------------------------------------------------
@pytest.mark.parametrize("kind", ["error", "info", "success", "warning"])
def test_message_kinds(kind):
    root = assert_well_formed(display.message_html("Take it", kind))
    (box,) = find_class(root, "ttr-msg")
    assert f"ttr-msg-{kind}" in classes(box)
    assert f".ttr-msg-{kind} " in display.STYLE
    assert "Take it" in visible_text(root)


def test_message_rule_tag_and_bad_kind():
    root = parse(display.message_html("No second locomotive.", rule="D3"))
    assert text_of(find_class(root, "ttr-pill-rule")[0]) == "rule D3"
    with pytest.raises(ValueError):
        display.message_html("x", "fatal")


def test_layout_includes_the_style_once():
    out = display.layout_html(display.card_html("red"), display.message_html("hi"), direction="row")
    root = assert_well_formed(out)
    assert len(find_class(root, "ttr-card")) == 1 and len(find_class(root, "ttr-msg")) == 1


def test_style_is_scoped_and_xml_safe():
    selectors = re.findall(r"(?m)^\s*([^{}\s][^{}]*)\{", display.STYLE)
    assert selectors
    for sel in selectors:
        for part in sel.split(","):
            assert part.strip().startswith(".ttr-"), part
    assert "<" not in display.STYLE and "&" not in display.STYLE
    assert display.style().startswith("<style>")


def test_imports_only_stdlib_and_ttrlib():
    code = (
        "import sys; import ttrlib.cards, ttrlib.board; before = set(sys.modules); "
        "import ttrlib.display; new = set(sys.modules) - before; "
        "bad = sorted(m for m in new if m.split('.')[0] not in sys.stdlib_module_names "
        "and m.split('.')[0] != 'ttrlib'); print(bad)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# --- the package keeps every name its callers use ------------------------------------------------
REPO = Path(__file__).resolve().parent.parent
# the names callers used when display was one module (counted by hand in ttrlib/, tests/ and
# notebooks/ before the split into a package)
USED = {"CARD_LOOKS", "STYLE", "card_back_html", "card_html", "card_row_html", "cardholder_html",
        "cards_html", "distribution_html", "hand_html", "hidden_tickets_html", "layout_html",
        "message_html", "offlimits_html", "plural", "route_html", "style", "ticket_html",
        "ticket_table_html", "tickets_html", "view_html", "CardLook"}


def names_callers_use() -> set[str]:
    """Names read from display (as ``display.<name>``, ``pics.<name>`` or imported) anywhere."""
    found = set()
    for folder, pattern in (("ttrlib", "*.py"), ("tests", "*.py"), ("notebooks", "*.ipynb")):
        for path in (REPO / folder).rglob(pattern):
            text = path.read_text(encoding="utf-8")
            found |= set(re.findall(r"(?<![\w.])(?:display|pics)\.([A-Za-z]\w*)", text))
            source = r"from (?:ttrlib|\.+)\.?display import "
            for names in (re.findall(source + r"\(([^)]*)\)", text)
                          + re.findall(f"(?m){source}([\\w ,]+)$", text)):
                found |= {n.split(" as ")[0].strip() for n in names.split(",") if n.strip()}
    return found


def test_every_name_callers_use_is_still_exported():
    used = names_callers_use()
    assert {"message_html", "ticket_table_html", "plural"} <= used  # the scan finds them
    for name in USED | used:
        assert hasattr(display, name), f"ttrlib.display.{name} is gone"
    assert set(display.__all__) >= USED


@pytest.mark.parametrize("p, text", [
    (Fraction(3, 7), "42.9%"), (Fraction(1, 10), "10.0%"), (0, "0%"), (1, "100%"),
    (Fraction(1, 2000), "0.05%"),  # below 0.1%: two significant digits, never "0.0%"
    (Fraction(9997, 10000), "99.97%"),  # just below 1: never "100.0%" for a chance that is not 1
    (Fraction(999, 1000), "99.9%"),
])
def test_one_percent_formatter(p, text):
    from ttrlib.words import percent

    assert percent(p) == text
    assert percent(Fraction(1, 3), decimals=2) == "33.33%"


def test_a_near_certain_bar_does_not_read_100_percent():
    dist = StandIn({0: Fraction(9997, 10000), 1: Fraction(3, 10000)})
    svg_text = " ".join(text_of(t) for t in svg_of(parse(display.distribution_html(dist)))
                        .iter(f"{SVG_NS}text"))
    assert "99.97%" in svg_text and "0.03%" in svg_text and "100.0%" not in svg_text
