"""One builder for the lessons' plain tables: headers and rows of cells, each cell escaped text
or ``Markup`` (a fragment of this package, put in as it is), some columns aligned left."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from .frames import escape

#: Every cell of a ``padded`` table: text tables read best left-aligned, tops together.
PADDED = "text-align:left;padding:2px 10px 2px 0;vertical-align:top"
LEFT = "text-align:left"


class Markup(str):
    """A table cell that is already HTML (a picture, a bold figure): not escaped."""


def _cell(value: object) -> str:
    return value if isinstance(value, Markup) else escape(value)


def table_html(headers: Sequence[str], rows: Iterable[Sequence[object]], *, caption: str = "",
               left: Collection[int] = (), padded: bool = False, after: str = "") -> str:
    """A table with a header row. Columns whose index is in ``left`` are aligned left;
    ``padded`` aligns every cell left with room between the columns. ``after`` is markup
    that follows the table (a verdict under a ranking)."""

    def style(i: int) -> str:
        if padded:
            return f" style='{PADDED}'"
        return f" style='{LEFT}'" if i in left else ""

    head = "".join(f"<th{style(i)}>{escape(h)}</th>" for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f"<td{style(i)}>{_cell(v)}</td>" for i, v in enumerate(row))
                   + "</tr>" for row in rows)
    cap = f"<caption style='{LEFT}'>{escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{after}"
