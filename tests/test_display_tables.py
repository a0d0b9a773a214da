"""display.table_html, the lessons' one table builder: text is escaped, Markup is not, and the
alignment asked for is on the columns asked for (expected markup written by hand)."""

from __future__ import annotations

from ttrlib.display import Markup, table_html


def test_text_cells_are_escaped_and_markup_is_kept():
    html = table_html(("a<b", "b"), [("x & y", Markup("<b>7</b>"))])
    assert html == ("<table><thead><tr><th>a&lt;b</th><th>b</th></tr></thead><tbody><tr>"
                    "<td>x &amp; y</td><td><b>7</b></td></tr></tbody></table>")


def test_left_columns_caption_and_what_follows():
    html = table_html(("k", "chance"), [(0, "1/2")], left={1}, caption="A & B",
                      after="<p>done</p>")
    assert ("<caption style='text-align:left'>A &amp; B</caption>" in html
            and "<th>k</th><th style='text-align:left'>chance</th>" in html
            and "<td>0</td><td style='text-align:left'>1/2</td>" in html
            and html.endswith("</table><p>done</p>"))


def test_a_padded_table_aligns_every_cell():
    html = table_html(("a", "b"), [(1, 2)], padded=True)
    assert html.count("padding:2px 10px 2px 0") == 4
