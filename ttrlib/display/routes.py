"""A route label: its cities, one car per space in its colour, the tunnel marker, its points."""

from __future__ import annotations

from ..board import Route
from ..rules.scoring import ROUTE_POINTS
from ..words import plural
from .frames import escape, root
from .looks import CARD_LOOKS, GRAY_ROUTE

_TUNNEL_SVG = (
    '<svg width="18" height="13" viewBox="0 0 18 13" aria-hidden="true">'
    '<path d="M0 13 L6 2 L9 5 L12 1 L18 13 Z" fill="#8d6e63"/>'
    '<path d="M6 13 V10 A3 3 0 0 1 12 10 V13 Z" fill="#212121"/></svg>'
)


def tunnel_words(route: Route) -> str:
    """What a tunnel's marker means (rule U1), in the route label and on the map."""
    return f"tunnel: {route.tunnel} cards are revealed (rule U1)"


def route_html(route: Route) -> str:
    """A route label: endpoints, one small car per space in the route colour, tunnel marker."""
    if route.color is None:
        fill, cname = GRAY_ROUTE, "gray"
    else:
        fill, cname = CARD_LOOKS[route.color].fill, route.color.value
    cars = "".join(
        f'<span class="ttr-car" style="background:{fill}"></span>' for _ in range(route.length)
    )
    pts = ROUTE_POINTS.get(route.length)
    parts = [
        f'<span class="ttr-cars" title="{escape(plural(route.length, cname + " space"))}">{cars}</span>',
        f"<span>{route.length} \u00d7 {escape(cname)}</span>",
    ]
    if route.is_tunnel:
        parts.append(
            f'<span class="ttr-tunnel" title="{escape(tunnel_words(route))}">'
            f"{_TUNNEL_SVG}tunnel \u00b7 reveals {route.tunnel}</span>"
        )
    if pts is not None:
        parts.append(f'<span class="ttr-sub">{plural(pts, "point")}</span>')
    return root(
        f'<span class="ttr-route" title="{escape(route.describe())}" data-route="{escape(route.id)}">'
        f'<span class="ttr-route-ends">{escape(route.a)} \u2013 {escape(route.b)}</span>'
        f'<span class="ttr-route-line">{"".join(parts)}</span></span>',
        inline=True,
    )
