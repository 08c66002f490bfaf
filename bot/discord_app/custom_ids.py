"""Custom ids of every component the bot sends. Pure, so both the adapter and tests share them.

They are self-contained (game id, version, action), so a button works after a restart without any
in-memory view. Discord limits a custom id to 100 characters.

>>> decode(encode_action(12, 7, "b2-b3"))
Route(kind='a', game_id=12, version=7, arg='b2-b3')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "tt"
MAX_LEN = 100
_PATTERN = re.compile(r"^tt:(?P<kind>[afglmoprsuvw]):(?P<gid>\d{1,18})(?::(?P<ver>\d{1,9}))?(?::(?P<arg>.+))?$", re.S)
LOBBY_OPS = ("join", "leave", "start", "ai", "invite", "remove")
UNDO_OPS = ("ask", "yes", "no")
ANSWER_OPS = ("yes", "no")  # a proposal's answers: a vote or offer (o), a seat offered (s)
FOLLOW_OPS = ("on", "off")  # follow a game as a spectator; stop following  # ask to take back one's last action; agree; decline


@dataclass(frozen=True)
class Route:
    kind: str  # a = action, f = follow, g = menu of next steps, l = lobby, m = form, o = vote or offer,
    # p = my panel, r = rematch, s = a seat offered, u = undo, v = replay viewer, w = the web table
    game_id: int
    version: int | None
    arg: str | None


def encode_action(game_id: int, version: int, action: str) -> str:
    return _checked(f"{PREFIX}:a:{game_id}:{version}:{action}")


STEP_SEPARATOR = "|"


def encode_group(game_id: int, version: int, prefix: tuple[str, ...] = (), menu: int = 0) -> str:
    """Menu number ``menu`` of next steps below ``prefix`` (the steps already chosen).

    A long list is split over several menus on one message; their ids differ by the number.
    """
    return _checked(f"{PREFIX}:g:{game_id}:{version}:{STEP_SEPARATOR.join((str(menu),) + tuple(prefix))}")


def prefix_of(route: "Route") -> tuple[str, ...]:
    return tuple(route.arg.split(STEP_SEPARATOR)[1:]) if route.arg else ()


def encode_lobby(game_id: int, op: str) -> str:
    assert op in LOBBY_OPS
    return _checked(f"{PREFIX}:l:{game_id}:{op}")


def encode_panel(game_id: int) -> str:
    return _checked(f"{PREFIX}:p:{game_id}")


def encode_form_button(game_id: int, version: int | None = None) -> str:
    """"Fill in the form": a panel's button carries its version; the board's has none and opens
    the form of the step under way for whoever clicks it (like "my panel")."""
    return _checked(f"{PREFIX}:m:{game_id}" + (f":{version}" if version is not None else ""))


def encode_form(game_id: int, version: int, owner: int) -> str:
    """The form dialog itself: the version it was drawn for and the user it was opened for."""
    return _checked(f"{PREFIX}:m:{game_id}:{version}:{owner}")


def form_owner(route: "Route") -> int | None:
    """The user a form dialog was opened for (None: the route is the button that opens one)."""
    return int(route.arg) if route.kind == "m" and route.arg else None


def encode_table(game_id: int) -> str:
    """"Table": opens the game's web table (the Activity, or a link for the one who clicked)."""
    return _checked(f"{PREFIX}:w:{game_id}")


def encode_rematch(game_id: int) -> str:
    return _checked(f"{PREFIX}:r:{game_id}")


def encode_follow(game_id: int, op: str) -> str:
    """Follow (``on``, the board's button, the same for everyone) or stop (``off``, in the reply)."""
    assert op in FOLLOW_OPS
    return _checked(f"{PREFIX}:f:{game_id}:{op}")


def encode_undo(game_id: int, version: int, op: str) -> str:
    """Undo by consent at a game version: ``ask`` (the actor), ``yes`` / ``no`` (the others)."""
    assert op in UNDO_OPS
    return _checked(f"{PREFIX}:u:{game_id}:{version}:{op}")


def encode_answer(game_id: int, proposal_id: int, op: str, *, seat: bool = False) -> str:
    """Agree / decline a proposal (``tt:o``: a deadline vote or draw offer) or take / refuse a seat
    offered (``tt:s``); the proposal's id stands where other ids carry a version."""
    assert op in ANSWER_OPS
    return _checked(f"{PREFIX}:{'s' if seat else 'o'}:{game_id}:{proposal_id}:{op}")


# The replay viewer: ``tt:v:<game>:<step>:<control>:<owner>:<point of view>``. The step is where a
# button leads (buttons) or the step shown (menus, whose values say where to go); the owner is the
# user who opened the viewer, the only one whose clicks it answers; the point of view is ``-`` for
# the public view or a seat number. Controls: first, prev, next, last buttons, jump menus j0/j1,
# and the point-of-view menu s. Each control has its own tag so no two ids on one message clash.
VIEWER_CONTROLS = ("first", "prev", "next", "last", "j0", "j1", "s")
_VIEWER_ARG = re.compile(r"^(?P<control>[a-z0-9]{1,5}):(?P<owner>\d{1,20}):(?P<pov>-|\d{1,2})$")


@dataclass(frozen=True)
class ViewerRoute:
    game_id: int
    step: int
    control: str
    owner: int
    pov: int | None  # None: the public view


def encode_viewer(game_id: int, step: int, control: str, owner: int, pov: int | None) -> str:
    assert control in VIEWER_CONTROLS
    return _checked(f"{PREFIX}:v:{game_id}:{step}:{control}:{owner}:{'-' if pov is None else pov}")


def viewer_of(route: "Route") -> ViewerRoute | None:
    """The viewer's fields of a decoded ``v`` route (None for any other kind)."""
    m = _VIEWER_ARG.match(route.arg or "") if route.kind == "v" else None
    if m is None or m["control"] not in VIEWER_CONTROLS:
        return None
    return ViewerRoute(route.game_id, route.version, m["control"], int(m["owner"]),
                       None if m["pov"] == "-" else int(m["pov"]))


def decode(custom_id: str) -> Route | None:
    """Parse a custom id; None for anything that is not well-formed."""
    m = _PATTERN.match(custom_id or "")
    if not m or len(custom_id) > MAX_LEN:
        return None
    kind, arg = m["kind"], m["arg"]
    version = int(m["ver"]) if m["ver"] is not None else None
    if kind == "l":
        return Route("l", int(m["gid"]), None, arg) if arg in LOBBY_OPS else None
    if kind == "f":
        return Route("f", int(m["gid"]), None, arg) if version is None and arg in FOLLOW_OPS else None
    if kind == "u" and (version is None or arg not in UNDO_OPS):
        return None
    if kind in ("o", "s") and (version is None or arg not in ANSWER_OPS):
        return None
    if kind == "a" and (version is None or not arg):
        return None
    if kind == "g" and version is None:
        return None
    if kind == "m" and arg is not None and (version is None or not arg.isdigit() or len(arg) > 20):
        return None
    if kind in ("p", "r", "w") and (version is not None or arg):
        return None
    route = Route(kind, int(m["gid"]), version, arg)
    if kind == "v" and (version is None or viewer_of(route) is None):
        return None
    return route


def _checked(custom_id: str) -> str:
    if len(custom_id) > MAX_LEN:
        raise ValueError(f"custom id too long: {custom_id!r}")
    return custom_id
