"""The worker pool that draws boards: started from a fork server that, with ``warm``, drew every
renderer's sprites once, so each worker starts with them (renderers.warmed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# In a fresh interpreter: the fork server is one per process and keeps the preload it started with.
PROBE = """
import json, sys
from bot import workers
import renderers
from games import get_game

def frozen():
    import gc
    return gc.get_freeze_count()

def sprites():
    from renderers import squaresiv, arena
    return {"squaresiv": squaresiv.piece_sprite.cache_info().currsize,
            "arena": arena.figure_sprite.cache_info().currsize}

if __name__ == "__main__":
    pool = workers.process_pool(1, warm=sys.argv[1] == "warm")
    game = get_game("squaresiv")
    view = game.view(game.setup(2, game.resolve_options({}, 2), 5), None)
    before = pool.submit(sprites).result()
    png = pool.submit(workers.render, "squaresiv", view).result()
    worker_frozen = pool.submit(frozen).result()
    pool.shutdown()
    print(json.dumps({"before": before, "png": png[:8].hex(), "frozen": worker_frozen}))
"""


def probe(mode: str, tmp_path: Path) -> dict:
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    out = subprocess.run([sys.executable, str(script), mode], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_warmed_pool_starts_its_workers_with_the_sprites_drawn(tmp_path):
    warmed = probe("warm", tmp_path)
    assert warmed["before"]["squaresiv"] > 100 and warmed["before"]["arena"] > 10
    assert warmed["png"] == "89504e470d0a1a0a"  # and it draws boards (a PNG)
    assert warmed["frozen"] > 10_000  # start-up's objects are out of the collector's reach


def test_without_warming_the_sprites_are_drawn_on_first_use(tmp_path):
    cold = probe("cold", tmp_path)
    assert cold["before"] == {"squaresiv": 0, "arena": 0}
    assert cold["png"] == "89504e470d0a1a0a"


BOT_START = """
import asyncio, gc, sys
from bot.adapter.client import TabletopBot

async def main():
    bot = TabletopBot(sys.argv[1], worker_processes=0, sync_commands=False)
    before = gc.get_freeze_count()
    await bot.setup_hook()
    print(before, gc.get_freeze_count())
    await bot.store.close()

asyncio.run(main())
"""


def test_the_bot_moves_what_start_up_built_out_of_the_collectors_reach(tmp_path):
    """A full collection on the event loop walks every object alive: after start-up, the
    modules, catalogues and commands are frozen, so a collection walks only what games make."""
    script = tmp_path / "start.py"
    script.write_text(BOT_START)
    out = subprocess.run([sys.executable, str(script), str(tmp_path / "bot.sqlite3")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    before, after = map(int, out.stdout.split())
    assert before == 0 and after > 10_000
