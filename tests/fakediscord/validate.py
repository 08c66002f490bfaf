"""Payload checks that mirror Discord's documented limits.

Every checker returns a list of :class:`Problem`; an empty list means "Discord would accept this".
Paths use Discord's error-path style (``components.0.components.1.custom_id``) so the server can
turn them into a code-50035 "Invalid Form Body" error object.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

# Locales Discord accepts as keys of name_localizations / description_localizations.
LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th "
    "zh-CN ja zh-TW ko".split()
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_CUSTOM_ID = 100
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_MEDIA_DESCRIPTION = 1024  # a media gallery item's or thumbnail's alt text

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

SELECT_TYPES = (3, 5, 6, 7, 8)
# Component types allowed at the top level of a Components V2 message.
V2_TOP_LEVEL = (1, 9, 10, 12, 13, 14, 17)
V2_IN_CONTAINER = (1, 9, 10, 12, 13, 14)


@dataclass(frozen=True)
class Problem:
    path: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message} ({self.code})"


def _p(path: str, code: str, message: str) -> Problem:
    return Problem(path, code, message)


def _join(*parts: Any) -> str:
    return ".".join(str(p) for p in parts if p != "")


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _options(path, options: list) -> list:
    """Each option of a string select or a radio/checkbox group: label, value, description, unique values."""
    out: list = []
    values: set = set()
    for i, o in enumerate(options):
        op = _join(path, "options", i)
        if not isinstance(o, dict):
            out.append(_p(op, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        out += _length(_join(op, "label"), o.get("label"), 1, 100)
        out += _length(_join(op, "value"), o.get("value"), 1, 100)
        out += _length(_join(op, "description"), o.get("description"), 0, 100, required=False)
        if o.get("value") in values:
            out.append(_p(_join(op, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique"))
        values.add(o.get("value"))
    return out


def _length(path: str, value: Any, lo: int, hi: int, *, required: bool = True) -> list[Problem]:
    if value is None:
        if required:
            return [_p(path, "BASE_TYPE_REQUIRED", "This field is required")]
        return []
    if not isinstance(value, str):
        return [_p(path, "BASE_TYPE_STRING", "Value must be a string.")]
    n = len(value)
    if n < lo or n > hi:
        if lo == 0 or (lo == 1 and n > hi):
            return [_p(path, "BASE_TYPE_MAX_LENGTH", f"Must be {hi} or fewer in length.")]
        return [_p(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")]
    return []


# ---------------------------------------------------------------------------------------------
# Application commands
# ---------------------------------------------------------------------------------------------

_EXTRA_SCRIPT_RANGES = ((0x0900, 0x097F), (0x0E00, 0x0E7F))  # Devanagari, Thai (combining marks allowed)


def _name_char_ok(ch: str) -> bool:
    if ch in "-_":
        return True
    cat = unicodedata.category(ch)
    if cat[0] in ("L", "N"):
        return True
    if cat[0] == "M":
        cp = ord(ch)
        return any(lo <= cp <= hi for lo, hi in _EXTRA_SCRIPT_RANGES)
    return False


def chat_input_name_problems(path: str, name: Any) -> list[Problem]:
    """``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and lowercase, approximated with unicodedata."""
    if not isinstance(name, str):
        return [_p(path, "BASE_TYPE_REQUIRED", "This field is required")]
    if not 1 <= len(name) <= 32:
        return [_p(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")]
    if not all(_name_char_ok(ch) for ch in name):
        return [_p(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")]
    if name != name.lower():
        return [_p(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name must be lowercase: {name!r}")]
    return []


def _localization_problems(path: str, locs: Any, check_value) -> list[Problem]:
    if locs is None:
        return []
    if not isinstance(locs, dict):
        return [_p(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")]
    out: list[Problem] = []
    for key, value in locs.items():
        if key not in LOCALES:
            out.append(_p(_join(path, key), "ENUM_TYPE_COERCE", f"Value {key!r} is not a valid enum value."))
            continue
        out.extend(check_value(_join(path, key), value))
    return out


def _option_problems(opt: Any, path: str, depth: int) -> list[Problem]:
    out: list[Problem] = []
    if not isinstance(opt, dict):
        return [_p(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")]
    otype = opt.get("type")
    if otype not in range(1, 12):
        out.append(_p(_join(path, "type"), "ENUM_TYPE_COERCE", f"Value {otype!r} is not a valid enum value."))
        return out
    out += chat_input_name_problems(_join(path, "name"), opt.get("name"))
    out += _length(_join(path, "description"), opt.get("description"), 1, 100)
    out += _localization_problems(_join(path, "name_localizations"), opt.get("name_localizations"), chat_input_name_problems)
    out += _localization_problems(
        _join(path, "description_localizations"),
        opt.get("description_localizations"),
        lambda p, v: _length(p, v, 1, 100),
    )
    choices = opt.get("choices") or []
    if choices:
        if otype not in (3, 4, 10):
            out.append(_p(_join(path, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_NOT_ALLOWED", "Choices are only allowed for string, integer and number options"))
        if opt.get("autocomplete"):
            out.append(_p(_join(path, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_AND_CHOICES", "Autocomplete cannot be used with choices"))
        out += _choices_problems(path, choices, otype)
    for key in ("min_value", "max_value"):
        if opt.get(key) is not None and otype not in (4, 10):
            out.append(_p(_join(path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is only valid for numeric options"))
    for key, lo, hi in (("min_length", 0, 6000), ("max_length", 1, 6000)):
        v = opt.get(key)
        if v is not None:
            if otype != 3:
                out.append(_p(_join(path, key), "APPLICATION_COMMAND_OPTION_INVALID", f"{key} is only valid for string options"))
            elif not isinstance(v, int) or not lo <= v <= hi:
                out.append(_p(_join(path, key), "NUMBER_TYPE_MAX", f"{key} must be between {lo} and {hi}"))
    if opt.get("autocomplete") and otype not in (3, 4, 10):
        out.append(_p(_join(path, "autocomplete"), "APPLICATION_COMMAND_OPTION_INVALID", "Autocomplete is only valid for string, integer and number options"))
    if opt.get("channel_types") and otype != 7:
        out.append(_p(_join(path, "channel_types"), "APPLICATION_COMMAND_OPTION_INVALID", "channel_types is only valid for channel options"))

    sub = opt.get("options") or []
    if otype == 1:  # sub-command: plain options only
        if opt.get("required"):
            out.append(_p(_join(path, "required"), "APPLICATION_COMMAND_OPTION_INVALID", "Sub-commands cannot be required"))
        out += _options_list_problems(sub, _join(path, "options"), depth + 1, allow_sub=False)
    elif otype == 2:  # group: sub-commands only
        if depth > 0:
            out.append(_p(path, "APPLICATION_COMMAND_SUBCOMMAND_GROUP_NESTED", "Sub-command groups cannot be nested"))
        if not sub:
            out.append(_p(_join(path, "options"), "BASE_TYPE_REQUIRED", "Sub-command groups must contain sub-commands"))
        for i, s in enumerate(sub):
            if isinstance(s, dict) and s.get("type") != 1:
                out.append(_p(_join(path, "options", i, "type"), "APPLICATION_COMMAND_OPTION_INVALID", "Sub-command groups may only contain sub-commands"))
        out += _options_list_problems(sub, _join(path, "options"), depth + 1, allow_sub=True)
    elif sub:
        out.append(_p(_join(path, "options"), "APPLICATION_COMMAND_OPTION_INVALID", "Only sub-commands and groups may have options"))
    return out


def _options_list_problems(options: Any, path: str, depth: int, *, allow_sub: bool) -> list[Problem]:
    if options is None:
        return []
    if not isinstance(options, list):
        return [_p(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
    out: list[Problem] = []
    if len(options) > 25:
        out.append(_p(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    names = set()
    seen_optional = False
    kinds = set()
    for i, opt in enumerate(options):
        out += _option_problems(opt, _join(path, i), depth)
        if not isinstance(opt, dict):
            continue
        kinds.add("sub" if opt.get("type") in (1, 2) else "plain")
        if opt.get("type") in (1, 2) and not allow_sub:
            out.append(_p(_join(path, i, "type"), "APPLICATION_COMMAND_OPTION_INVALID", "Sub-commands are not allowed here"))
        name = opt.get("name")
        if name in names:
            out.append(_p(_join(path, i, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"Option name {name!r} is already used"))
        names.add(name)
        if opt.get("type") not in (1, 2):
            if opt.get("required"):
                if seen_optional:
                    out.append(_p(_join(path, i, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options"))
            else:
                seen_optional = True
    if len(kinds) > 1:
        out.append(_p(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands and groups cannot be mixed with other options"))
    return out


def _count_chars(cmd: dict) -> int:
    total = len(cmd.get("name") or "") + len(cmd.get("description") or "")

    def walk(opts: Iterable[Any]) -> int:
        n = 0
        for o in opts or []:
            if not isinstance(o, dict):
                continue
            n += len(o.get("name") or "") + len(o.get("description") or "")
            for ch in o.get("choices") or []:
                if isinstance(ch, dict):
                    n += len(str(ch.get("name") or "")) + len(str(ch.get("value") or ""))
            n += walk(o.get("options") or [])
        return n

    return total + walk(cmd.get("options") or [])


def command_problems(cmd: Any, path: str = "") -> list[Problem]:
    if not isinstance(cmd, dict):
        return [_p(path or "_", "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")]
    out: list[Problem] = []
    ctype = cmd.get("type", 1) or 1
    if ctype not in (1, 2, 3, 4):
        return [_p(_join(path, "type"), "ENUM_TYPE_COERCE", f"Value {ctype!r} is not a valid enum value.")]
    if ctype == 1:
        out += chat_input_name_problems(_join(path, "name"), cmd.get("name"))
        out += _localization_problems(_join(path, "name_localizations"), cmd.get("name_localizations"), chat_input_name_problems)
        out += _length(_join(path, "description"), cmd.get("description"), 1, 100)
        out += _localization_problems(
            _join(path, "description_localizations"),
            cmd.get("description_localizations"),
            lambda p, v: _length(p, v, 1, 100),
        )
        out += _options_list_problems(cmd.get("options"), _join(path, "options"), 0, allow_sub=True)
        if _count_chars(cmd) > 4000:
            out.append(_p(path or "_", "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)"))
    else:
        out += _length(_join(path, "name"), cmd.get("name"), 1, 32)
        out += _localization_problems(_join(path, "name_localizations"), cmd.get("name_localizations"), lambda p, v: _length(p, v, 1, 32))
        if cmd.get("description") not in (None, ""):
            out.append(_p(_join(path, "description"), "APPLICATION_COMMAND_INVALID_DESCRIPTION", "Context menu commands cannot have a description"))
        if cmd.get("options"):
            out.append(_p(_join(path, "options"), "APPLICATION_COMMAND_OPTION_INVALID", "Context menu commands cannot have options"))
    perms = cmd.get("default_member_permissions")
    if perms is not None and not (isinstance(perms, str) and perms.isdigit()):
        out.append(_p(_join(path, "default_member_permissions"), "BASE_TYPE_STRING", "Must be a permission bit string or null"))
    for key, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
        v = cmd.get(key)
        if v is not None and (not isinstance(v, list) or any(x not in allowed for x in v)):
            out.append(_p(_join(path, key), "ENUM_TYPE_COERCE", f"{key} must be a list of {sorted(allowed)}"))
    return out


def commands_problems(commands: Any) -> list[Problem]:
    if not isinstance(commands, list):
        return [_p("_", "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
    out: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    counts: dict[int, int] = {}
    for i, cmd in enumerate(commands):
        out += command_problems(cmd, str(i))
        if isinstance(cmd, dict):
            key = (cmd.get("type", 1) or 1, cmd.get("name"))
            if key in seen:
                out.append(_p(_join(i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Application command names must be unique: {key[1]!r}"))
            seen.add(key)
            counts[key[0]] = counts.get(key[0], 0) + 1
    limits = {1: 100, 2: 15, 3: 15, 4: 1}
    for ctype, n in counts.items():
        if n > limits.get(ctype, 100):
            out.append(_p("_", "BASE_TYPE_MAX_LENGTH", f"Too many commands of type {ctype}: {n} > {limits[ctype]}"))
    return out


# ---------------------------------------------------------------------------------------------
# Embeds
# ---------------------------------------------------------------------------------------------


def embed_chars(embed: dict) -> int:
    n = len(embed.get("title") or "") + len(embed.get("description") or "")
    n += len((embed.get("footer") or {}).get("text") or "")
    n += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        if isinstance(f, dict):
            n += len(f.get("name") or "") + len(f.get("value") or "")
    return n


def embeds_problems(embeds: Any, path: str = "embeds") -> list[Problem]:
    if embeds is None:
        return []
    if not isinstance(embeds, list):
        return [_p(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
    out: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        out.append(_p(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."))
    total = 0
    for i, e in enumerate(embeds):
        ep = _join(path, i)
        if not isinstance(e, dict):
            out.append(_p(ep, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        out += _length(_join(ep, "title"), e.get("title"), 0, 256, required=False)
        out += _length(_join(ep, "description"), e.get("description"), 0, 4096, required=False)
        footer = e.get("footer")
        if isinstance(footer, dict):
            out += _length(_join(ep, "footer", "text"), footer.get("text"), 1, 2048)
        author = e.get("author")
        if isinstance(author, dict):
            out += _length(_join(ep, "author", "name"), author.get("name"), 1, 256)
        fields = e.get("fields") or []
        if len(fields) > 25:
            out.append(_p(_join(ep, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            fp = _join(ep, "fields", j)
            if not isinstance(f, dict):
                out.append(_p(fp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
                continue
            out += _length(_join(fp, "name"), f.get("name"), 1, 256)
            out += _length(_join(fp, "value"), f.get("value"), 1, 1024)
        color = e.get("color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            out.append(_p(_join(ep, "color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0."))
        total += embed_chars(e)
    if total > MAX_EMBED_TOTAL:
        out.append(_p(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"))
    return out


# ---------------------------------------------------------------------------------------------
# Components
# ---------------------------------------------------------------------------------------------


def walk_components(components: Iterable[Any]) -> Iterator[dict]:
    """Every component dict, depth-first, including section accessories and label children."""
    for c in components or []:
        if not isinstance(c, dict):
            continue
        yield c
        if isinstance(c.get("components"), list):
            yield from walk_components(c["components"])
        if isinstance(c.get("accessory"), dict):
            yield from walk_components([c["accessory"]])
        if isinstance(c.get("component"), dict):
            yield from walk_components([c["component"]])


def _custom_id_problems(path: str, c: dict, seen: set[str]) -> list[Problem]:
    out = _length(_join(path, "custom_id"), c.get("custom_id"), 1, MAX_CUSTOM_ID)
    cid = c.get("custom_id")
    if isinstance(cid, str):
        if cid in seen:
            out.append(_p(_join(path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id cannot be duplicated: {cid!r}"))
        seen.add(cid)
    return out


def _button_problems(c: dict, path: str, seen: set[str]) -> list[Problem]:
    out: list[Problem] = []
    style = c.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        return [_p(_join(path, "style"), "ENUM_TYPE_COERCE", f"Value {style!r} is not a valid enum value.")]
    if style in (1, 2, 3, 4):
        out += _custom_id_problems(path, c, seen)
        if c.get("url"):
            out.append(_p(_join(path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "A non-link button cannot have a url"))
    elif style == 5:
        out += _length(_join(path, "url"), c.get("url"), 1, 512)
        if c.get("custom_id") is not None:
            out.append(_p(_join(path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id"))
    elif style == 6 and not c.get("sku_id"):
        out.append(_p(_join(path, "sku_id"), "BASE_TYPE_REQUIRED", "This field is required"))
    if style != 6:
        out += _length(_join(path, "label"), c.get("label"), 0, 80, required=False)
        if not c.get("label") and not c.get("emoji"):
            out.append(_p(path, "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI", "A button must have a label or an emoji"))
    return out


def _select_problems(c: dict, path: str, seen: set[str]) -> list[Problem]:
    out = _custom_id_problems(path, c, seen)
    out += _length(_join(path, "placeholder"), c.get("placeholder"), 0, 150, required=False)
    min_v = c.get("min_values", 1)
    max_v = c.get("max_values", 1)
    if min_v is None:
        min_v = 1
    if max_v is None:
        max_v = 1
    if not isinstance(min_v, int) or not 0 <= min_v <= 25:
        out.append(_p(_join(path, "min_values"), "NUMBER_TYPE_MAX", "min_values must be between 0 and 25"))
    if not isinstance(max_v, int) or not 1 <= max_v <= 25:
        out.append(_p(_join(path, "max_values"), "NUMBER_TYPE_MAX", "max_values must be between 1 and 25"))
    elif isinstance(min_v, int) and min_v > max_v:
        out.append(_p(_join(path, "min_values"), "SELECT_COMPONENT_MIN_MAX_INVALID", "min_values must be <= max_values"))
    if c.get("type") == 3:
        options = c.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= 25:
            out.append(_p(_join(path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."))
            options = options if isinstance(options, list) else []
        elif isinstance(max_v, int) and max_v > len(options):
            out.append(_p(_join(path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_INVALID", "max_values cannot exceed the number of options"))
        defaults = [o for o in options if isinstance(o, dict) and o.get("default")]
        if isinstance(max_v, int) and len(defaults) > max_v:
            out.append(_p(_join(path, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULTS",
                          "The number of default options cannot exceed max_values"))
        out += _options(path, options)
    elif c.get("options"):
        out.append(_p(_join(path, "options"), "SELECT_COMPONENT_OPTIONS_NOT_ALLOWED", "Only string selects have options"))
    return out


def _action_row_problems(row: dict, path: str, seen: set[str], *, in_modal: bool = False) -> list[Problem]:
    out: list[Problem] = []
    children = row.get("components")
    if not isinstance(children, list) or not children:
        return [_p(_join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")]
    types = [c.get("type") if isinstance(c, dict) else None for c in children]
    if in_modal:
        if types != [4]:
            out.append(_p(_join(path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A modal action row holds exactly one text input"))
    elif any(t in SELECT_TYPES for t in types):
        if len(children) != 1:
            out.append(_p(_join(path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "A select menu must be alone in its action row"))
    else:
        if len(children) > 5:
            out.append(_p(_join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
    for i, c in enumerate(children):
        cp = _join(path, "components", i)
        if not isinstance(c, dict):
            out.append(_p(cp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        t = c.get("type")
        if t == 2 and not in_modal:
            out += _button_problems(c, cp, seen)
        elif t in SELECT_TYPES and not in_modal:
            out += _select_problems(c, cp, seen)
        elif t == 4 and in_modal:
            out += _text_input_problems(c, cp, seen, in_label=False)
        else:
            out.append(_p(_join(cp, "type"), "UNION_TYPE_CHOICES", f"Component type {t!r} is not allowed in this action row"))
    return out


def _v2_problems(c: dict, path: str, seen: set[str], allowed: tuple[int, ...]) -> list[Problem]:
    t = c.get("type")
    if t not in allowed:
        return [_p(_join(path, "type"), "UNION_TYPE_CHOICES", f"Component type {t!r} is not allowed here")]
    if t == 1:
        return _action_row_problems(c, path, seen)
    out: list[Problem] = []
    if t == 9:  # section
        kids = c.get("components")
        if not isinstance(kids, list) or not 1 <= len(kids) <= 3:
            out.append(_p(_join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."))
            kids = kids if isinstance(kids, list) else []
        for i, k in enumerate(kids):
            if isinstance(k, dict):
                out += _v2_problems(k, _join(path, "components", i), seen, (10,))
        acc = c.get("accessory")
        if not isinstance(acc, dict):
            out.append(_p(_join(path, "accessory"), "BASE_TYPE_REQUIRED", "This field is required"))
        elif acc.get("type") == 2:
            out += _button_problems(acc, _join(path, "accessory"), seen)
        elif acc.get("type") == 11:
            out += _v2_problems(acc, _join(path, "accessory"), seen, (11,))
        else:
            out.append(_p(_join(path, "accessory", "type"), "UNION_TYPE_CHOICES", "A section accessory must be a button or a thumbnail"))
    elif t == 10:
        out += _length(_join(path, "content"), c.get("content"), 1, MAX_V2_TEXT)
    elif t == 11:
        media = c.get("media")
        if not isinstance(media, dict) or not media.get("url"):
            out.append(_p(_join(path, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required"))
        out += _length(_join(path, "description"), c.get("description"), 0, MAX_MEDIA_DESCRIPTION, required=False)
    elif t == 12:
        items = c.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= 10:
            out.append(_p(_join(path, "items"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length."))
        else:
            for i, it in enumerate(items):
                if not isinstance(it, dict) or not isinstance(it.get("media"), dict) or not it["media"].get("url"):
                    out.append(_p(_join(path, "items", i, "media", "url"), "BASE_TYPE_REQUIRED", "This field is required"))
                elif it.get("description") is not None:
                    out += _length(_join(path, "items", i, "description"), it["description"], 0, MAX_MEDIA_DESCRIPTION)
    elif t == 13:
        f = c.get("file")
        url = f.get("url") if isinstance(f, dict) else None
        if not isinstance(url, str) or not url.startswith("attachment://"):
            out.append(_p(_join(path, "file", "url"), "COMPONENT_FILE_URL_INVALID", "A file component must reference attachment://<filename>"))
    elif t == 14:
        if c.get("spacing") not in (None, 1, 2):
            out.append(_p(_join(path, "spacing"), "ENUM_TYPE_COERCE", "spacing must be 1 or 2"))
    elif t == 17:
        kids = c.get("components")
        if not isinstance(kids, list) or not kids:
            out.append(_p(_join(path, "components"), "BASE_TYPE_REQUIRED", "This field is required"))
            kids = []
        for i, k in enumerate(kids):
            if isinstance(k, dict):
                out += _v2_problems(k, _join(path, "components", i), seen, V2_IN_CONTAINER)
        color = c.get("accent_color")
        if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
            out.append(_p(_join(path, "accent_color"), "NUMBER_TYPE_MAX", "int value should be <= 16777215 and >= 0."))
    return out


def components_problems(components: Any, *, v2: bool, path: str = "components") -> list[Problem]:
    if components is None:
        return []
    if not isinstance(components, list):
        return [_p(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")]
    out: list[Problem] = []
    seen: set[str] = set()
    if v2:
        total = sum(1 for _ in walk_components(components))
        if total > MAX_V2_COMPONENTS:
            out.append(_p(path, "BASE_TYPE_MAX_LENGTH", f"A message may contain at most {MAX_V2_COMPONENTS} components (got {total})"))
        text = sum(len(c.get("content") or "") for c in walk_components(components) if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            out.append(_p(path, "BASE_TYPE_MAX_LENGTH", f"Text displays may hold at most {MAX_V2_TEXT} characters in total"))
        for i, c in enumerate(components):
            if not isinstance(c, dict):
                out.append(_p(_join(path, i), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
                continue
            out += _v2_problems(c, _join(path, i), seen, V2_TOP_LEVEL)
        return out
    if len(components) > 5:
        out.append(_p(path, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    for i, row in enumerate(components):
        rp = _join(path, i)
        if not isinstance(row, dict):
            out.append(_p(rp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        if row.get("type") != 1:
            hint = " (set flags IS_COMPONENTS_V2 to use layout components)" if row.get("type") in V2_TOP_LEVEL else ""
            out.append(_p(_join(rp, "type"), "UNION_TYPE_CHOICES", f"Top-level components must be action rows{hint}"))
            continue
        out += _action_row_problems(row, rp, seen)
    return out


# ---------------------------------------------------------------------------------------------
# Messages, modals, autocomplete
# ---------------------------------------------------------------------------------------------


def message_problems(payload: dict, *, n_files: int, editing: bool = False, flags: int | None = None) -> list[Problem]:
    """Checks a create/edit message body. ``flags`` is the effective flags (edits keep the old ones)."""
    out: list[Problem] = []
    if flags is None:
        flags = payload.get("flags") or 0
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            out.append(_p("content", "BASE_TYPE_STRING", "Value must be a string."))
        elif len(content) > MAX_CONTENT:
            out.append(_p("content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."))
        elif v2 and content:
            out.append(_p("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
    if v2 and payload.get("embeds"):
        out.append(_p("embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2"))
    out += embeds_problems(payload.get("embeds"))
    out += components_problems(payload.get("components"), v2=v2)
    if n_files > MAX_FILES:
        out.append(_p("files", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."))
    atts = payload.get("attachments")
    if isinstance(atts, list) and len(atts) > MAX_FILES:
        out.append(_p("attachments", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."))
    return out


def attachment_reference_problems(components: Any, filenames: Iterable[str], path: str = "components") -> list[Problem]:
    """Every ``attachment://name`` in a Components V2 message must name one of the message's
    attachments (uploaded with this request, or kept from before on an edit)."""
    names = set(filenames)
    out: list[Problem] = []

    def media_urls(c: dict, p: str) -> Iterator[tuple[str, Any]]:
        if c.get("type") == 12:
            for i, it in enumerate(c.get("items") or []):
                if isinstance(it, dict) and isinstance(it.get("media"), dict):
                    yield _join(p, "items", i, "media", "url"), it["media"].get("url")
        elif c.get("type") == 11 and isinstance(c.get("media"), dict):
            yield _join(p, "media", "url"), c["media"].get("url")
        elif c.get("type") == 13 and isinstance(c.get("file"), dict):
            yield _join(p, "file", "url"), c["file"].get("url")

    def check(c: dict, p: str) -> None:
        for up, url in media_urls(c, p):
            if isinstance(url, str) and url.startswith("attachment://") and url[len("attachment://"):] not in names:
                out.append(_p(up, "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                              f"Attachment {url[len('attachment://'):]!r} is not attached to this message"))

    def walk(comps: Any, p: str) -> None:
        for i, c in enumerate(comps if isinstance(comps, list) else []):
            if isinstance(c, dict):
                check(c, _join(p, i))
                walk(c.get("components"), _join(p, i, "components"))
                if isinstance(c.get("accessory"), dict):
                    check(c["accessory"], _join(p, i, "accessory"))

    walk(components, path)
    return out


def is_empty_message(payload: dict, n_files: int) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or n_files
        or payload.get("sticker_ids")
        or payload.get("poll")
        or payload.get("attachments")
    )


def _text_input_problems(c: dict, path: str, seen: set[str], *, in_label: bool) -> list[Problem]:
    out = _custom_id_problems(path, c, seen)
    if c.get("style") not in (1, 2):
        out.append(_p(_join(path, "style"), "ENUM_TYPE_COERCE", "style must be 1 (short) or 2 (paragraph)"))
    if not in_label:
        out += _length(_join(path, "label"), c.get("label"), 1, 45)
    out += _length(_join(path, "placeholder"), c.get("placeholder"), 0, 100, required=False)
    out += _length(_join(path, "value"), c.get("value"), 0, 4000, required=False)
    for key, lo, hi in (("min_length", 0, 4000), ("max_length", 1, 4000)):
        v = c.get(key)
        if v is not None and (not isinstance(v, int) or not lo <= v <= hi):
            out.append(_p(_join(path, key), "NUMBER_TYPE_MAX", f"{key} must be between {lo} and {hi}"))
    return out


def _choice_group_problems(c: dict, path: str, seen: set[str]) -> list[Problem]:
    """A radio group (2-10 options, at most one default) or a checkbox group (1-10 options):
    labels and values 1-100 characters, descriptions up to 100, values unique."""
    out = _custom_id_problems(path, c, seen)
    radio = c.get("type") == 21
    low = 2 if radio else 1
    opts = c.get("options")
    if not isinstance(opts, list) or not low <= len(opts) <= 10:
        out.append(_p(_join(path, "options"), "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and 10 in length."))
        opts = opts if isinstance(opts, list) else []
    out += _options(path, opts)
    if radio and sum(1 for o in opts if isinstance(o, dict) and o.get("default")) > 1:
        out.append(_p(_join(path, "options"), "RADIO_GROUP_TOO_MANY_DEFAULTS", "Only one option may be the default"))
    return out


def modal_problems(data: Any, path: str = "data") -> list[Problem]:
    if not isinstance(data, dict):
        return [_p(path, "BASE_TYPE_REQUIRED", "This field is required")]
    out = _length(_join(path, "custom_id"), data.get("custom_id"), 1, MAX_CUSTOM_ID)
    out += _length(_join(path, "title"), data.get("title"), 1, 45)
    comps = data.get("components")
    if not isinstance(comps, list) or not 1 <= len(comps) <= 5:
        out.append(_p(_join(path, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
        comps = comps if isinstance(comps, list) else []
    seen: set[str] = set()
    for i, c in enumerate(comps):
        cp = _join(path, "components", i)
        if not isinstance(c, dict):
            out.append(_p(cp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        t = c.get("type")
        if t == 1:
            out += _action_row_problems(c, cp, seen, in_modal=True)
        elif t == 18:  # label
            out += _length(_join(cp, "label"), c.get("label"), 1, 45)
            out += _length(_join(cp, "description"), c.get("description"), 0, 100, required=False)
            inner = c.get("component")
            if not isinstance(inner, dict):
                out.append(_p(_join(cp, "component"), "BASE_TYPE_REQUIRED", "This field is required"))
            elif inner.get("type") == 4:
                out += _text_input_problems(inner, _join(cp, "component"), seen, in_label=True)
            elif inner.get("type") in SELECT_TYPES:
                out += _select_problems(inner, _join(cp, "component"), seen)
            elif inner.get("type") in (21, 22):  # radio group, checkbox group
                out += _choice_group_problems(inner, _join(cp, "component"), seen)
            elif inner.get("type") in (19, 23):  # file upload, checkbox
                out += _custom_id_problems(_join(cp, "component"), inner, seen)
            else:
                out.append(_p(_join(cp, "component", "type"), "UNION_TYPE_CHOICES", "Unsupported component in a label"))
        elif t == 10:
            out += _length(_join(cp, "content"), c.get("content"), 1, MAX_V2_TEXT)
        else:
            out.append(_p(_join(cp, "type"), "UNION_TYPE_CHOICES", f"Component type {t!r} is not allowed in a modal"))
    return out


def autocomplete_problems(data: Any, path: str = "data") -> list[Problem]:
    if not isinstance(data, dict):
        return [_p(path, "BASE_TYPE_REQUIRED", "This field is required")]
    choices = data.get("choices")
    if not isinstance(choices, list):
        return [_p(_join(path, "choices"), "BASE_TYPE_REQUIRED", "This field is required")]
    return _choices_problems(path, choices, None)


def _choices_problems(path: str, choices: list, otype: int | None) -> list[Problem]:
    """Choices of a command option of type ``otype``, or (``None``) of an autocomplete answer,
    whose values may be strings or numbers."""
    out: list[Problem] = []
    if len(choices) > 25:
        out.append(_p(_join(path, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    for i, ch in enumerate(choices):
        cp = _join(path, "choices", i)
        if not isinstance(ch, dict):
            out.append(_p(cp, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"))
            continue
        out += _length(_join(cp, "name"), ch.get("name"), 1, 100)
        out += _localization_problems(_join(cp, "name_localizations"), ch.get("name_localizations"), lambda p, v: _length(p, v, 1, 100))
        v = ch.get("value")
        if otype == 3 or (otype is None and isinstance(v, str)):
            out += _length(_join(cp, "value"), v, 1, 100)
        elif otype == 4 and (not isinstance(v, int) or isinstance(v, bool) or abs(v) > 2**53):
            out.append(_p(_join(cp, "value"), "NUMBER_TYPE_COERCE", "Value is not int."))
        elif otype in (10, None) and (not isinstance(v, (int, float)) or isinstance(v, bool)):
            out.append(_p(_join(cp, "value"), "NUMBER_TYPE_COERCE", "Value is not a number."))
    return out


def problems_to_errors(problems: list[Problem]) -> dict:
    """Discord's nested ``errors`` object for a code-50035 response."""
    root: dict = {}
    for prob in problems:
        node = root
        parts = [p for p in prob.path.split(".") if p] or ["_"]
        for part in parts:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": prob.code, "message": prob.message})
    return root
