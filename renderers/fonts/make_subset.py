"""Make renderers/fonts/NotoSansCJKjp-Subset.otf: Noto Sans CJK JP (Regular) cut down to the
characters the renderers can draw in Japanese (``renderers.labels.drawable_texts("ja")``) and
printable ASCII (digits, Latin letters and signs beside them).

    .venv/bin/python renderers/fonts/make_subset.py [path of NotoSansCJK-Regular.ttc]

The default source is Debian's fonts-noto-cjk package
(/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc, face 0 is "Noto Sans CJK JP"); the
upstream fonts are at https://github.com/notofonts/noto-cjk. Run it again after adding a card,
sheet or skill name with new characters: tests/test_words_on_images.py fails until then.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from renderers.labels import drawable_texts  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
FACE = 0                    # Noto Sans CJK JP in the collection
OUT = HERE / "NotoSansCJKjp-Subset.otf"
ASCII = "".join(chr(c) for c in range(0x20, 0x7F))


def characters() -> str:
    return "".join(sorted(set(ASCII + "".join(drawable_texts("ja")))))


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else SOURCE
    font = TTFont(source, fontNumber=FACE)
    options = subset.Options()
    options.layout_features = ["kern", "palt"]   # no vertical forms, ligatures or localised variants
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]   # keeps the copyright and the licence's notice
    options.hinting = False
    options.desubroutinize = True   # compresses better in git; the file stays small
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters())
    subsetter.subset(font)
    font.save(OUT)
    print(f"{OUT}: {len(characters())} characters, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
