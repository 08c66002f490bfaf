"""Buttons and selects built from the service's Controls, and the persistent handlers behind them.

Every component is a :class:`discord.ui.DynamicItem`, registered once at start-up, whose custom id
carries all it needs (see custom_ids.py), so buttons keep working after the bot restarts.
"""

from __future__ import annotations

import discord

from . import custom_ids
from .emoji import label_and_emoji
from ..i18n import render, t
from ..service import AI_LEVELS, MOST_ACTION_BUTTONS, Controls, FormSpec, Viewer

BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25
MAX_INVITES = 10
MAX_MODAL_TITLE = 45
MAX_MODAL_LABEL = 45
RADIO_CHOICES = range(2, 11)  # a radio group takes 2 to 10 options; other counts go in a select
FORM_LIFETIME = 15 * 60  # seconds a dialog stays known to this process (its submit is handled anyway)


class Routed(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s)^.*$"):
    """Any button or select the bot ever drew; the router reads its custom id.

    One class for both kinds, matching every custom id, so a click is always answered (a
    malformed or foreign id gets a polite refusal) and two handlers never race for one click.
    """

    def __init__(self, item: discord.ui.Item, row: int | None = None):
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))
        await interaction.client.router.on_component(interaction, self.item.custom_id, values)


def button(custom_id: str, label: str, style=discord.ButtonStyle.secondary, row: int | None = None,
           emoji: discord.PartialEmoji | None = None) -> Routed:
    return Routed(discord.ui.Button(custom_id=custom_id, label=label[:80], style=style, emoji=emoji), row=row)


def select(custom_id: str, options: list[discord.SelectOption], placeholder: str, row: int | None = None) -> Routed:
    return Routed(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder,
                                    min_values=1, max_values=1), row=row)


def controls_view(controls: Controls, lang: str, *, direct_limit: int = 20) -> discord.ui.View:
    """Few actions, or one action per choice: a button each. Otherwise menus of next steps."""
    direct_limit = min(direct_limit, MOST_ACTION_BUTTONS)  # the service names no more actions than that
    view = discord.ui.View(timeout=None)
    actions = controls.actions
    one_each = all(len(v) == 1 for v in controls.choices.values())
    def label(key: str) -> str:
        return render(lang, controls.labels[key]) if key in controls.labels else key

    def pictured(key: str) -> tuple[str, discord.PartialEmoji | None]:  # words and the app emoji beside them
        return label_and_emoji(label(key), controls.labels.get(key))

    if controls.form:  # the one-dialog way first: one click and one submit, no menus
        view.add_item(button(custom_ids.encode_form_button(controls.game_id, controls.version),
                             t(lang, "form.button"), discord.ButtonStyle.success, row=0))

    first = 1 if controls.form else 0  # rows taken by the form and pinned buttons, before everything else
    for i, action in enumerate(controls.pinned[:BUTTONS_PER_ROW - int(controls.form)]):
        words, emoji = pictured(action)
        view.add_item(button(custom_ids.encode_action(controls.game_id, controls.version, action),
                             words, discord.ButtonStyle.success, row=0, emoji=emoji))
        first = 1
    rows = MAX_ROWS - first
    if controls.pinned and len(actions) > BUTTONS_PER_ROW:
        direct_limit = 0  # with a one-click answer pinned, the rest goes in menus: one short message
    if len(actions) <= direct_limit or (one_each and len(actions) <= BUTTONS_PER_ROW * rows):
        for i, action in enumerate(actions[: BUTTONS_PER_ROW * rows]):
            words, emoji = pictured(action)
            view.add_item(button(custom_ids.encode_action(controls.game_id, controls.version, action),
                                 words, discord.ButtonStyle.primary, row=first + i // BUTTONS_PER_ROW, emoji=emoji))
        return view
    steps = list(controls.choices.items())
    chunks = [steps[i:i + MAX_SELECT_OPTIONS] for i in range(0, len(steps), MAX_SELECT_OPTIONS)][:rows]
    question = render(lang, controls.question) if controls.question is not None else t(lang, "controls.pick_group")
    for row, chunk in enumerate(chunks):
        options = [discord.SelectOption(label=words[:100], value=step[:100],
                                        description=_choice_note(lang, step, under, label), emoji=emoji)
                   for step, under in chunk for words, emoji in [pictured(step)]]
        placeholder = (t(lang, "controls.pick_step", question=question, first=label(chunk[0][0])[:30],
                         last=label(chunk[-1][0])[:30]) if len(chunks) > 1 else question)
        menu_id = custom_ids.encode_group(controls.game_id, controls.version, controls.prefix, menu=row)
        view.add_item(select(menu_id, options, placeholder, row=first + row))
    return view


def _choice_note(lang: str, step: str, under: list[str], label) -> str:
    if len(under) == 1 and under[0] != step:
        return label(under[0])[:100]
    return t(lang, "controls.group_option", count=len(under))[:100]


def lobby_view(game_id: int, lang: str, removable: list | None = None) -> discord.ui.View:
    """Join, Leave, Start buttons; menus to add an AI player at a level, invite people (a user
    picker) and, for the creator, remove a seat."""
    view = discord.ui.View(timeout=None)
    styles = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
              "start": discord.ButtonStyle.primary}
    for op, style in styles.items():
        view.add_item(button(custom_ids.encode_lobby(game_id, op), t(lang, f"lobby.button.{op}"), style, row=0))
    levels = [discord.SelectOption(label=t(lang, f"ai.level.{level}"), value=level,
                                   description=t(lang, f"ai.level.{level}.desc")[:100]) for level in AI_LEVELS]
    view.add_item(select(custom_ids.encode_lobby(game_id, "ai"), levels, t(lang, "lobby.ai_select"), row=1))
    view.add_item(Routed(discord.ui.UserSelect(custom_id=custom_ids.encode_lobby(game_id, "invite"),
                                               placeholder=t(lang, "lobby.invite_select"), min_values=1,
                                               max_values=MAX_INVITES), row=2))
    if removable:
        options = [discord.SelectOption(label=render(lang, label)[:100], value=str(seat))
                   for seat, label in removable[:MAX_SELECT_OPTIONS]]
        view.add_item(select(custom_ids.encode_lobby(game_id, "remove"), options, t(lang, "lobby.remove_select"), row=3))
    return view


def rematch_view(game_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom_ids.encode_rematch(game_id), t(lang, "rematch.button"), discord.ButtonStyle.primary))
    return view


def undo_answer_view(game_id: int, version: int, lang: str) -> discord.ui.View:
    """Agree / decline under an undo request (anyone may click; the service checks who answers)."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom_ids.encode_undo(game_id, version, "yes"), t(lang, "undo.button.yes"),
                         discord.ButtonStyle.success))
    view.add_item(button(custom_ids.encode_undo(game_id, version, "no"), t(lang, "undo.button.no"),
                         discord.ButtonStyle.danger))
    return view


def proposal_view(game_id: int, proposal_id: int, kind: str, lang: str) -> discord.ui.View:
    """Agree / decline under a deadline vote or draw offer; take / refuse under a seat offered
    (anyone may click; the service checks who answers)."""
    seat = kind == "substitute"
    words = "seat" if seat else "consent"
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom_ids.encode_answer(game_id, proposal_id, "yes", seat=seat),
                         t(lang, f"{words}.button.yes"), discord.ButtonStyle.success))
    view.add_item(button(custom_ids.encode_answer(game_id, proposal_id, "no", seat=seat),
                         t(lang, f"{words}.button.no"), discord.ButtonStyle.danger))
    return view


def add_undo_ask(view: discord.ui.View, game_id: int, version: int, lang: str) -> None:
    """The "take it back" button for the player who just acted, where the view has room for it."""
    try:
        view.add_item(button(custom_ids.encode_undo(game_id, version, "ask"), t(lang, "undo.button.ask")))
    except ValueError:
        pass  # every row is full: /game undo still works


def follow_button(game_id: int, lang: str, op: str = "on") -> Routed:
    style = discord.ButtonStyle.secondary
    return button(custom_ids.encode_follow(game_id, op), t(lang, f"follow.button.{op}"), style)


def add_follow(view: discord.ui.View | None, game_id: int, lang: str) -> discord.ui.View:
    """The spectators' "Follow" button on a board, in the first row with room. A board whose
    five rows are full of choices goes without; the game's pinned status message (in its thread)
    always carries one, and ``/game follow`` works everywhere."""
    view = view if view is not None else discord.ui.View(timeout=None)
    try:
        view.add_item(follow_button(game_id, lang))
    except ValueError:
        pass
    return view


def add_table(view: discord.ui.View | None, game_id: int, lang: str) -> discord.ui.View:
    """The "Table" button (the web table: the Activity, or a private link), in the first row with
    room; a message whose rows are full goes without (its game's other messages carry one)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    try:
        view.add_item(button(custom_ids.encode_table(game_id), t(lang, "web.table_button"), discord.ButtonStyle.secondary))
    except ValueError:
        pass
    return view


def follow_view(game_id: int, lang: str, op: str = "on") -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(follow_button(game_id, lang, op))
    return view


def panel_view(game_id: int, lang: str, form: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(custom_ids.encode_panel(game_id), t(lang, "panel.button"), discord.ButtonStyle.success))
    if form:
        view.add_item(button(custom_ids.encode_form_button(game_id), t(lang, "form.button"), discord.ButtonStyle.primary))
    return view


class FormModal(discord.ui.Modal):
    """A seat's secret step as one dialog: a Label per question around a RadioGroup (2-10 choices)
    or a Select. Its submit is handled by the client's ``on_interaction`` from the custom id alone
    (see Router.on_form_submit), so it works after a restart or in another process too."""

    def __init__(self, spec: FormSpec, lang: str):
        super().__init__(title=render(lang, spec.title)[:MAX_MODAL_TITLE], timeout=FORM_LIFETIME,
                         custom_id=custom_ids.encode_form(spec.game_id, spec.version, spec.owner))
        for n, (label, choices) in enumerate(spec.fields[:MAX_ROWS]):
            field_id = f"f{n}"
            if len(choices) in RADIO_CHOICES:
                options = [discord.RadioGroupOption(label=render(lang, words)[:100], value=value)
                           for value, words in choices]
                widget = discord.ui.RadioGroup(custom_id=field_id, options=options, required=True)
            else:
                options = [discord.SelectOption(label=render(lang, words)[:100], value=value)
                           for value, words in choices[:MAX_SELECT_OPTIONS]]
                widget = discord.ui.Select(custom_id=field_id, options=options, min_values=1, max_values=1,
                                           required=True)
            self.add_item(discord.ui.Label(text=render(lang, label)[:MAX_MODAL_LABEL], component=widget))


def form_values(data: dict) -> list[str] | None:
    """The answers of a submitted form, one per field ``f0, f1, ...`` in order (None when they are
    not exactly those): a radio group sends ``value``, a select ``values``."""
    found: dict[str, str] = {}

    def walk(components) -> None:
        for c in components or []:
            if c.get("type") == 1:
                walk(c.get("components"))
            elif c.get("type") == 18:
                walk([c.get("component") or {}])
            elif c.get("custom_id"):
                value = c.get("value") if "value" in c else (c.get("values") or [None])[0]
                if isinstance(value, str):
                    found[c["custom_id"]] = value

    walk((data or {}).get("components"))
    names = [f"f{n}" for n in range(len(found))]
    return [found[name] for name in names] if set(names) == set(found) else None


def viewer_view(viewer: Viewer, lang: str) -> discord.ui.View:
    """The replay viewer: ⏮ ◀ ▶ ⏭ (disabled where they lead nowhere), the jump menus, and the
    point-of-view menu when this user may take more than one."""
    view = discord.ui.View(timeout=None)
    gid, owner, pov, step, steps = viewer.game_id, viewer.owner_id, viewer.pov, viewer.step, viewer.steps
    targets = {"first": 0, "prev": max(step - 1, 0), "next": min(step + 1, steps), "last": steps}
    for control, target in targets.items():
        item = discord.ui.Button(custom_id=custom_ids.encode_viewer(gid, target, control, owner, pov),
                                 label=t(lang, f"replay.button.{control}"), style=discord.ButtonStyle.secondary,
                                 disabled=target == step)
        view.add_item(Routed(item, row=0))
    placeholders = (["replay.jump_all"] if len(viewer.jumps) == 1 else ["replay.jump_spread", "replay.jump_near"])
    for n, (options, placeholder) in enumerate(zip(viewer.jumps, placeholders)):
        choices = [discord.SelectOption(label=render(lang, text)[:100], value=str(k), default=k == step)
                   for k, text in options[:MAX_SELECT_OPTIONS]]
        view.add_item(select(custom_ids.encode_viewer(gid, step, f"j{n}", owner, pov), choices,
                             t(lang, placeholder), row=1 + n))
    if len(viewer.povs) > 1:
        choices = [discord.SelectOption(label=render(lang, text)[:100], value="-" if p is None else str(p),
                                        default=p == pov) for p, text in viewer.povs[:MAX_SELECT_OPTIONS]]
        view.add_item(select(custom_ids.encode_viewer(gid, step, "s", owner, pov), choices,
                             t(lang, "replay.pov_select"), row=1 + len(viewer.jumps)))
    return view


# ---- one-message boards (Components V2) ---------------------------------------------------------------
MAX_V2_COMPONENTS = 40  # every component of a message counts, nested ones too
MAX_V2_TEXT = 4000  # characters over all text displays of a message
MAX_ALT_TEXT = 1024  # a media gallery item's description
BOARD_IMAGE = "attachment://board.png"


def view_rows(view: discord.ui.View | None) -> list[list[discord.ui.Item]]:
    """A classic view's items by the row Discord would show them in (as View.to_components lays
    them out), so the same controls can be moved into a Components V2 message."""
    if view is None:
        return []
    rows: dict[int, list[discord.ui.Item]] = {}
    for item in view.children:
        rows.setdefault(item._rendered_row or 0, []).append(item)  # set by the view's row layout
    return [rows[r] for r in sorted(rows)]


def board_layout(text: str, alt: str, accent: int | None, rows: list[list[discord.ui.Item]]) -> discord.ui.LayoutView:
    """A board as ONE message: a container framed in the acting seat's colour holding the text,
    the image (with its alt text) and the controls. Rows that would take the message past 40
    components are left out (a classic view's 5 full rows never do: 3 + 1 + 5 x 6 = 34)."""
    container = discord.ui.Container(accent_colour=accent)
    container.add_item(discord.ui.TextDisplay(text[:MAX_V2_TEXT]))
    image = discord.MediaGalleryItem(BOARD_IMAGE, description=alt[:MAX_ALT_TEXT] or None)
    container.add_item(discord.ui.MediaGallery(image))
    used = 3  # container, text, gallery
    if rows:
        container.add_item(discord.ui.Separator())
        used += 1
    for row in rows:
        if used + 1 + len(row) > MAX_V2_COMPONENTS:
            break  # degrade: the last rows go; /game play and the panel still offer every action
        for item in row:
            item.row = None  # a classic row index means nothing inside an action row
        container.add_item(discord.ui.ActionRow(*row))
        used += 1 + len(row)
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    return layout


def without_action_rows(components: list[dict], attachments: list[dict]) -> list[dict]:
    """A fetched Components V2 message's components minus every action row (a retired board keeps
    its text and image, loses its controls). Media pointing at the message's own attachments is
    sent back as ``attachment://name``, which an edit that keeps the attachments may reference:
    Discord hands out attachment URLs signed afresh on every fetch (``?ex=&is=&hm=``), and a URL
    echoed back would stop showing once its signature expires."""
    own = _own_files(attachments)
    out = []
    for c in components:
        if c.get("type") == 1:
            continue
        c = dict(c)
        if isinstance(c.get("components"), list):
            c["components"] = without_action_rows(c["components"], attachments)
        if c.get("type") == 12:
            c["items"] = [_sent_media(item, own) for item in c.get("items") or []]
        if c.get("type") == 11 and isinstance(c.get("media"), dict):
            c["media"] = _sent_media({"media": c["media"]}, own)["media"]
        out.append(c)
    while out and out[-1].get("type") == 14:  # a separator that only led to the controls
        out.pop()
    return out


def has_action_rows(components: list[dict]) -> bool:
    return any(c.get("type") == 1 or has_action_rows(c.get("components") or []) for c in components)


def _own_files(attachments: list[dict]) -> dict[str, str]:
    """A message's attachments by id and by URL without its signature -> file name."""
    own = {}
    for a in attachments:
        own[f"id:{a.get('id')}"] = a.get("filename")
        for url in (a.get("url"), a.get("proxy_url")):
            if url:
                own[url.split("?", 1)[0]] = a.get("filename")
    return own


def _sent_media(item: dict, own: dict[str, str]) -> dict:
    media = item.get("media") or {}
    url = media.get("url")
    name = own.get(f"id:{media.get('attachment_id')}") or (own.get(url.split("?", 1)[0]) if url else None)
    sent = {k: v for k, v in item.items() if k in ("description", "spoiler")}
    sent["media"] = {"url": f"attachment://{name}" if name else url}
    return sent
