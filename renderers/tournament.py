"""Tournament pictures: the standings table and an elimination bracket. Pure: data in, PNG out.

Like the boards, the pictures carry no words: ranks, each player's number in the tournament
(``#3``, the same number the message prints beside their name), points with a bar, the
tiebreak in brackets and the games played beside a small board; the message says the rest in the
reader's language. At 800 px wide (shown about 400 px wide on a phone) every number is at least
16 px tall there.

Standings rows: ``{"rank", "entry", "points", "tiebreak" (or None), "played", "out" (dropped or
knocked out)}``; ``most`` is the points a full bar stands for. A bracket: rounds of matches
``{"a", "b", "winner"}`` of entry numbers (None for an empty slot or a bye).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .common import INK, MUTED, OKABE_ITO, PAPER, WHITE, draw_text, font, mix, png_bytes, readable_size

WIDTH = 800
MAX_ROWS = 40  # a longer field is cut here; the message lists everyone
BAR = OKABE_ITO["blue"]
WINNER = OKABE_ITO["bluish_green"]
ROW_TINT = (242, 245, 249)


def number(value: float) -> str:
    """Points as people write them: 2, 2.5, 1.67.

    >>> number(2.0), number(2.5), number(5 / 3)
    ('2', '2.5', '1.67')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _width_of(text: str, size: int) -> int:
    x0, _, x1, _ = font(size).getbbox(text)
    return x1 - x0


def draw_standings(rows: list[dict], most: float) -> bytes:
    size = readable_size(WIDTH, bold=False)
    big = size + size // 3
    row_h = big + size
    rows = rows[:MAX_ROWS]
    height = max(1, len(rows)) * row_h + size
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    rank_w = _width_of("00", big) + size // 2
    entry_w = _width_of("#00", size) + size
    side = _width_of("(00.5)", size) + size // 2 + size + _width_of("00", size) + size
    bar_left = size // 2 + rank_w + entry_w + size // 2
    bar_room = WIDTH - bar_left - side - _width_of("00.5", big) - size
    for i, row in enumerate(rows):
        top = size // 2 + i * row_h
        middle = top + row_h // 2
        if i % 2 == 0:
            draw.rectangle((0, top, WIDTH, top + row_h), fill=ROW_TINT)
        ink = MUTED if row.get("out") else INK
        draw_text(draw, (size // 2 + rank_w - size // 2, middle), str(row["rank"]), big, ink, anchor="rm", bold=True)
        badge = (size // 2 + rank_w, middle - size * 7 // 10, size // 2 + rank_w + entry_w - size // 3, middle + size * 7 // 10)
        draw.rounded_rectangle(badge, radius=size // 3, fill=mix(ink, WHITE, 0.12))
        draw_text(draw, ((badge[0] + badge[2]) / 2, middle), f"#{row['entry']}", size, WHITE)
        share = 0.0 if most <= 0 else max(0.0, min(1.0, row["points"] / most))
        length = int(bar_room * share)
        if length:
            draw.rounded_rectangle((bar_left, middle - size // 2, bar_left + length, middle + size // 2),
                                   radius=size // 4, fill=mix(BAR, WHITE, 0.5) if row.get("out") else BAR)
        draw_text(draw, (bar_left + length + size // 3, middle), number(row["points"]), big, ink, anchor="lm", bold=True)
        right = WIDTH - size // 2
        draw_text(draw, (right, middle), str(row["played"]), size, ink, anchor="rm")
        icon = right - _width_of(str(row["played"]), size) - size // 3
        _board_icon(draw, icon - size * 8 // 10, middle - size * 4 // 10, size * 8 // 10, ink)
        if row.get("tiebreak") is not None:
            draw_text(draw, (icon - size * 8 // 10 - size // 2, middle), f"({number(row['tiebreak'])})", size, MUTED,
                      anchor="rm")
        if row.get("out"):
            draw.line((size // 2, middle, bar_left - size // 3, middle), fill=MUTED, width=max(2, size // 10))
    return png_bytes(image)


def _board_icon(draw: ImageDraw.ImageDraw, left: int, top: int, edge: int, ink) -> None:
    """A small 2×2 board: "games played" without a word."""
    half = edge // 2
    draw.rectangle((left, top, left + edge, top + edge), outline=ink, width=max(1, edge // 12))
    draw.rectangle((left, top, left + half, top + half), fill=ink)
    draw.rectangle((left + half, top + half, left + edge, top + edge), fill=ink)


MAX_BRACKET_ROUNDS = 3  # columns that stay readable on a phone with the champion's beside them


def draw_bracket(rounds: list[list[dict]], final: bool = True) -> bytes:
    """The bracket: a column per round (at most :data:`MAX_BRACKET_ROUNDS`: a larger bracket is
    drawn a window of rounds at a time), each match a box of two slots, the winner's filled; with
    ``final`` the last column given is the final and the champion's box follows."""
    if not 1 <= len(rounds) <= MAX_BRACKET_ROUNDS:
        raise ValueError(f"draw 1 to {MAX_BRACKET_ROUNDS} rounds of a bracket at a time")
    columns = len(rounds) + (1 if final else 0)
    width = WIDTH
    for _ in range(8):  # wider columns need larger numbers to stay readable once shrunk to a phone
        size = readable_size(width, bold=False)
        slot_w, gap = _width_of("#00", size) + size, size * 2 // 3
        needed = size + columns * slot_w + (columns - 1) * gap + size
        if needed <= width:
            break
        width = needed
    slot_h = size * 3 // 2
    first = max(1, len(rounds[0]))
    pitch = 2 * slot_h + size  # one match of the first column and the space below it
    height = first * pitch + size
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    left = size + (width - needed) // 2
    centres: list[float] = [size // 2 + pitch * (i + 0.5) for i in range(first)]
    line = max(2, size // 12)
    for r, matches in enumerate(rounds):
        x = left + r * (slot_w + gap)
        if r > 0:
            centres = [(centres[2 * i] + centres[2 * i + 1]) / 2 for i in range(len(matches))]
        for i, match in enumerate(matches):
            cy = centres[i]
            for j, key in enumerate(("a", "b")):
                top = cy - slot_h + j * slot_h
                _slot(draw, (x, top, x + slot_w, top + slot_h), match.get(key), match.get("winner"), size)
            if r + 1 == len(rounds) and not final:
                continue
            # a line on to where the winner goes: the next match, or the champion's box
            target = cy if r + 1 >= len(rounds) else (centres[i] + centres[i ^ 1]) / 2
            elbow = x + slot_w + gap // 2
            draw.line((x + slot_w, cy, elbow, cy), fill=MUTED, width=line)
            draw.line((elbow, cy, elbow, target), fill=MUTED, width=line)
            draw.line((elbow, target, x + slot_w + gap, target), fill=MUTED, width=line)
    if final:
        champion = rounds[-1][0].get("winner") if rounds[-1] else None
        x = left + len(rounds) * (slot_w + gap)
        cy = centres[0]
        _slot(draw, (x, cy - slot_h / 2, x + slot_w, cy + slot_h / 2), champion, champion, size, crown=True)
    return png_bytes(image)


def _slot(draw: ImageDraw.ImageDraw, box, entry: int | None, winner: int | None, size: int, crown: bool = False) -> None:
    won = entry is not None and entry == winner
    lost = entry is not None and winner is not None and entry != winner
    fill = (WINNER if crown else mix(WINNER, WHITE, 0.15)) if won else PAPER
    draw.rectangle(box, fill=fill, outline=INK, width=max(2, size // 12))
    if entry is not None:
        ink = WHITE if won else (MUTED if lost else INK)
        draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), f"#{entry}", size, ink)
