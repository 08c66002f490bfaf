"""The worker pool that draws boards: started from a fork server that imported the renderers; with
``warm``, the server draws the palettes before the first fork and every other sprite on a
low-priority thread, and the pool swaps its first workers for ones forked after that. Each worker has its
own pipes, read by the event loop: a job's error reaches its caller, a dead worker fails only its
own job and is replaced, and no worker outlives the bot."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

import renderers
from bot.workers import pool as workers
from bot.service import GameHost
from bot.storage.sqlite import Store
from games import all_games, get_game
from renderers import UnknownRenderer, common
from renderers.common import ImageCheckError
from tests.image_checks import decode
from tests.playouts import random_states

ROOT = Path(__file__).resolve().parents[1]
# A fresh interpreter's environment: nothing of the developer's, but the image check of every test.
BARE_ENV = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
            "TABLETOP_CHECK_IMAGES": os.environ["TABLETOP_CHECK_IMAGES"]}

# In a fresh interpreter: the fork server is one per process and keeps the preload it started with.
PROBE = """
import asyncio, json, os, sys
from bot.workers import pool as workers
import renderers
from games import get_game

def frozen():
    import gc
    return gc.get_freeze_count()

def palettes():
    from renderers import squaresiv, osu
    return squaresiv.palette.cache_info().currsize + osu.palette.cache_info().currsize

def sprites():
    from renderers import squaresiv, arena
    return {"squaresiv": squaresiv.piece_sprite.cache_info().currsize,
            "arena": arena.figure_sprite.cache_info().currsize}

async def main():
    workers.REFRESH_MAX_SECONDS = 1.0  # look for the warm-up's end every second: the test waits for it
    pool = workers.process_pool(1, warm=sys.argv[1] == "warm")
    game = get_game("squaresiv")
    view = game.view(game.setup(2, game.resolve_options({}, 2), 5), None)
    first_pid = await workers.run(pool, os.getpid)
    first = await workers.run(pool, palettes)
    png = await workers.run(pool, workers.render, "squaresiv", view)  # answered, warm or not yet
    give_up = asyncio.get_running_loop().time() + workers.REFRESH_GIVE_UP_SECONDS  # a hang bound: the pool's own
    while (sys.argv[1] == "warm" and not await workers.run(pool, workers.warmed)
           and asyncio.get_running_loop().time() < give_up):  # until the warm-up's end
        await asyncio.sleep(0.1)
    done = await workers.run(pool, workers.warmed)
    after = await workers.run(pool, sprites)
    worker_frozen = await workers.run(pool, frozen)
    pid = await workers.run(pool, os.getpid)
    pool.shutdown()
    print(json.dumps({"first_pid": first_pid, "pid": pid, "palettes": first, "warmed": done, "after": after, "png": png[:8].hex(), "frozen": worker_frozen}))

if __name__ == "__main__":
    asyncio.run(main())
"""


PROBE_HANG_SECONDS = workers.REFRESH_GIVE_UP_SECONDS + 300  # only a hang: the probe ends when warmed


def probe(mode: str, tmp_path: Path) -> dict:
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    out = subprocess.run([sys.executable, str(script), mode], cwd=ROOT, capture_output=True, text=True,
                         timeout=PROBE_HANG_SECONDS, env=dict(BARE_ENV, XDG_CACHE_HOME=str(tmp_path)))  # palettes kept there
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_warmed_pool_answers_at_once_and_swaps_in_workers_with_every_sprite(tmp_path):
    warmed = probe("warm", tmp_path)
    assert warmed["palettes"] == 2  # drawn in the fork server, before the first job
    assert warmed["png"] == "89504e470d0a1a0a"  # a board drawn (a PNG), whether warm-up had finished or not
    assert warmed["warmed"] is True  # a worker forked after the server drew every sprite answers now
    assert warmed["pid"] != warmed["first_pid"]  # ...in place of the first one
    assert warmed["after"]["squaresiv"] > 100 and warmed["after"]["arena"] > 10
    assert warmed["frozen"] > 10_000  # start-up's and the sprites' objects are out of the collector's reach


def test_without_warming_the_sprites_are_drawn_on_first_use(tmp_path):
    cold = probe("cold", tmp_path)
    assert cold["warmed"] is False and cold["palettes"] == 0
    assert cold["after"] == {"squaresiv": 0, "arena": 0}  # no sprite that the opening board did not need
    assert cold["png"] == "89504e470d0a1a0a"


BOT_START = """
import asyncio, gc, sys
from bot.discord_app.client import TabletopBot

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
                         env=BARE_ENV)
    assert out.returncode == 0, out.stderr
    before, after = map(int, out.stdout.split())
    assert before == 0 and after > 10_000


class Picky(Exception):
    """An error that cannot be rebuilt from its args alone (pickling it back fails)."""

    def __init__(self, a, b):
        super().__init__(f"{a}/{b}")


def raises_picky():
    raise Picky(1, 2)


async def test_a_jobs_error_reaches_its_caller_and_the_pool_goes_on():
    pool = workers.process_pool(2)
    try:
        with pytest.raises(UnknownRenderer):
            await workers.run(pool, workers.render, "no such game", {})
        with pytest.raises(RuntimeError, match="Picky"):  # said in words, not a caller waiting forever
            await asyncio.wait_for(workers.run(pool, raises_picky), HOLD_LIMIT_SECONDS)
        assert await workers.run(pool, sum, [1, 2, 3]) == 6
    finally:
        pool.shutdown()


async def test_jobs_one_at_a_time_go_to_the_worker_that_ran_the_last_one(tmp_path):
    """A game's consecutive boards are drawn where its last board's bands are cached; jobs at
    once still spread over the workers."""
    pool = workers.process_pool(2)
    try:
        await workers.start(pool)
        one_at_a_time = {await workers.run(pool, os.getpid) for _ in range(6)}
        assert len(one_at_a_time) == 1
        at_once = await asyncio.gather(*(workers.run(pool, meet, str(tmp_path), name, 2) for name in "ab"))
        assert len(set(at_once)) == 2
    finally:
        pool.shutdown()


# Jobs that hold their worker until the test lets them go: what a test asserts of the pool must not
# depend on how long a job lasts beside the machine's other work. Their own limit only ends a hang.
HOLD_LIMIT_SECONDS = 60


def held_until(release: str) -> int:
    """Hold the worker until the file ``release`` exists; then its pid."""
    deadline = time.monotonic() + HOLD_LIMIT_SECONDS
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


def meet(folder: str, name: str, count: int) -> int:
    """Hold the worker until ``count`` jobs have arrived in ``folder`` (so they ran at once); its pid."""
    Path(folder, name).touch()
    deadline = time.monotonic() + HOLD_LIMIT_SECONDS
    while len(os.listdir(folder)) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid()


async def until(predicate, what: str) -> None:
    """Until ``predicate()`` holds (the pool is no event of ours: looked at every 10 ms)."""
    deadline = asyncio.get_running_loop().time() + HOLD_LIMIT_SECONDS
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def test_a_worker_retired_while_busy_answers_its_job_then_leaves(tmp_path):
    """A worker swapped for one with every sprite (``warm``) may be drawing: its caller still gets
    the board, then it leaves, and the pool goes on with the others."""
    pool = workers.process_pool(2)
    try:
        await workers.start(pool)
        release = tmp_path / "release"
        busy = asyncio.ensure_future(workers.run(pool, held_until, str(release)))
        await until(lambda: any(w.job is not None for w in pool._workers), "the job to reach a worker")
        worker = next(w for w in pool._workers if w.job is not None)
        pool._retire(worker)
        release.touch()
        assert await asyncio.wait_for(busy, HOLD_LIMIT_SECONDS) == worker.process.pid
        worker.process.join(timeout=10)
        assert worker.process.exitcode is not None  # it left
        others = {await workers.run(pool, os.getpid) for _ in range(3)}
        assert worker.process.pid not in others and worker not in pool._workers
        assert len(pool._workers) == 2  # (a pool short of workers starts one for the next job)
    finally:
        pool.shutdown()


def dies(marker: str | None = None) -> int:
    """A job that kills its worker (only the first time, with a ``marker`` file to leave)."""
    if marker is None or not os.path.exists(marker):
        if marker is not None:
            open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


async def test_a_dead_worker_is_replaced_and_its_job_tried_once_more(tmp_path):
    """Before, one killed worker broke the standard pool for good: every later drawing of every
    game failed until a restart. Now the job is tried again on another worker (jobs are pure), the
    other jobs never notice, and a job that kills every worker it meets fails after two."""
    pool = workers.process_pool(2)
    try:
        await workers.start(pool)
        first = {w.process.pid for w in pool._workers}
        others = [asyncio.ensure_future(workers.run(pool, os.getpid)) for _ in range(5)]
        survivor = await asyncio.wait_for(workers.run(pool, dies, str(tmp_path / "once")), HOLD_LIMIT_SECONDS)
        assert (tmp_path / "once").exists() and survivor > 0
        assert all(await asyncio.gather(*others))
        with pytest.raises(workers.WorkerLost):
            await asyncio.wait_for(workers.run(pool, dies), HOLD_LIMIT_SECONDS)
        assert await workers.run(pool, sum, [1, 2]) == 3
        await until(lambda: len(pool._workers) == 2 and not any(w.ready for w in pool._workers),
                    "the pool to be whole again")
        assert len(pool._workers) == 2 and first - {w.process.pid for w in pool._workers}  # replaced
    finally:
        pool.shutdown()


def render_dying_once(marker: str, game_name: str, view: dict) -> bytes:
    dies(marker)
    return workers.render(game_name, view)


async def test_an_action_whose_drawing_worker_dies_is_answered_as_usual(tmp_path):
    store = await Store.open(str(tmp_path / "game.sqlite3"))
    pool = workers.process_pool(2)
    marker = tmp_path / "died"
    try:
        host = GameHost(store, render=functools.partial(render_dying_once, str(marker)), executor=pool)
        row, _ = await host.create("squares", None, guild_id=1, channel_id=2, user_id=11, locale="en")
        await host.join(row.id, 22)
        await host.start(row.id, 11)
        row = await store.load(row.id)
        game = get_game(row.game)
        seat = min(game.to_act(row.state))
        outbox = await host.act(row.id, row.user_of(seat), game.legal_actions(row.state, seat)[0],
                                seen_version=row.version)
        assert marker.exists()  # a worker died drawing this game's boards
        assert outbox.posts and all(p.image.startswith(b"\x89PNG") for p in outbox.posts)
        assert (await store.load(row.id)).version == row.version + 1
    finally:
        pool.shutdown()
        await store.close()


async def test_a_cancelled_caller_leaves_the_pool_free(tmp_path):
    pool = workers.process_pool(1)
    try:
        release = tmp_path / "release"
        slow = asyncio.ensure_future(workers.run(pool, held_until, str(release)))
        queued = asyncio.ensure_future(workers.run(pool, time.sleep, 30))  # waits behind it
        await asyncio.sleep(0)
        queued.cancel()
        release.touch()
        await asyncio.wait_for(slow, HOLD_LIMIT_SECONDS)  # asked first, so run first, even while the pool was starting
        assert await asyncio.wait_for(workers.run(pool, os.getpid), HOLD_LIMIT_SECONDS)  # the cancelled job never ran
    finally:
        pool.shutdown()


async def test_jobs_asked_for_while_the_pool_starts_run_in_the_order_asked():
    pool = workers.process_pool(1)
    finished = []

    async def job(name, *call):
        await workers.run(pool, *call)
        finished.append(name)
    try:
        await asyncio.gather(job("first", time.sleep, 0.2), job("second", os.getpid), job("third", os.getpid))
        assert finished == ["first", "second", "third"]
    finally:
        pool.shutdown()


async def test_long_jobs_leave_a_worker_free_for_drawing(tmp_path):
    """Two AI searches at once on a pool of 2: one waits, and a drawing asked after both is done
    first, while the searches still run."""
    pool = workers.process_pool(2)
    try:
        await workers.start(pool)
        finished = []

        async def job(name, *call, long=False):
            await (workers.run_long if long else workers.run)(pool, *call)
            finished.append(name)

        release = tmp_path / "release"
        searches = [asyncio.ensure_future(job(f"search {i}", held_until, str(release), long=True)) for i in range(2)]
        await asyncio.sleep(0)  # both searches asked first
        await job("drawing", os.getpid)
        assert finished == ["drawing"]
        release.touch()
        await asyncio.gather(*searches)
        assert finished == ["drawing", "search 0", "search 1"]
    finally:
        pool.shutdown()


async def test_a_job_far_over_its_time_limit_has_its_worker_replaced():
    pool = workers.process_pool(2)
    pool.limits = {False: 0.3, True: 0.3}
    try:
        await workers.start(pool)
        with pytest.raises(workers.WorkerLost):
            await asyncio.wait_for(workers.run(pool, time.sleep, 300), HOLD_LIMIT_SECONDS)  # a job that never ends
        pool.limits = {False: 30, True: 30}
        assert await workers.run(pool, sum, [2, 3]) == 5
        await until(lambda: len(pool._workers) == 2 and not any(w.ready for w in pool._workers),
                    "the pool to be whole again")
        assert len(pool._workers) == 2
    finally:
        pool.shutdown()


ORPHAN = """
import asyncio, os, signal
from bot.workers import pool as workers

async def main():
    pool = workers.process_pool(2)
    await workers.start(pool)
    print(" ".join(str(w.process.pid) for w in pool._workers), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the bot dies without a word

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_no_worker_outlives_a_killed_bot(tmp_path):
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN)
    out = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env=BARE_ENV)
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + HOLD_LIMIT_SECONDS
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie has left
    except FileNotFoundError:
        return False


def png_bytes_with_a_wrong_checksum(image: Image.Image) -> bytes:
    """``png_bytes`` with the writer's stream checksum broken, in the process that runs it."""
    from renderers import png

    real = png.adler_joined
    png.adler_joined = lambda *sums: 0
    try:
        return common.png_bytes(image)
    finally:
        png.adler_joined = real


async def test_the_image_check_is_on_in_the_workers():
    """A worker reads back each PNG it writes (TABLETOP_CHECK_IMAGES, inherited from the tests):
    a file that does not decode fails its job, named by size and level."""
    image = Image.new("P", (30, 20), 5)
    pool = workers.process_pool(1)
    try:
        with pytest.raises(ImageCheckError, match="a 30x20 P image written at level 1 does not decode"):
            await workers.run(pool, png_bytes_with_a_wrong_checksum, image)
        assert decode(await workers.run(pool, common.png_bytes, image)).tobytes() == image.tobytes()
    finally:
        pool.shutdown()


def png_files(images: list[Image.Image]) -> list[bytes]:
    """Each image's PNG, one after another in one worker (so through one band cache)."""
    return [common.png_bytes(image) for image in images]


def boards_of_every_game() -> list[tuple[str, dict, float]]:
    """(game, view, scale): three public boards of each game and player count, every other one enlarged."""
    boards = []
    for game in all_games():
        for players in game.player_counts():
            for i, state in enumerate(list(random_states(game, [players], [players], steps=25))[::10]):
                boards.append((game.name, game.view(state, None), renderers.LARGE_SCALE if i % 2 else 1.0))
    return boards


async def test_boards_of_every_size_drawn_at_once_in_the_pool_read_back_as_drawn():
    """Issue #30: a worker's band cache meets boards of every game and size, and enlarged copies,
    mixed; each file must decode to the board as this process draws it."""
    boards = boards_of_every_game()
    jobs = boards * 2
    random.Random(30).shuffle(jobs)
    one_band_at_two_widths = [Image.new("P", (1320, 8)), Image.new("P", (880, 12))]  # 10,560 bytes each
    pool = workers.process_pool(2)
    try:
        drawn = await asyncio.gather(*(workers.run(pool, functools.partial(renderers.render, scale=scale), name, view)
                                       for name, view, scale in jobs))
        pair = await workers.run(pool, png_files, one_band_at_two_widths)
    finally:
        pool.shutdown()
    assert len({decode(png).size for png in drawn}) > 10
    expected = {id(view): decode(renderers.render(name, view, scale=scale)) for name, view, scale in boards}
    for (name, view, _), png in zip(jobs, drawn):
        back, board = decode(png), expected[id(view)]
        assert (back.size, back.tobytes(), back.getpalette()) == (board.size, board.tobytes(), board.getpalette()), name
    for image, png in zip(one_band_at_two_widths, pair):
        assert decode(png).tobytes() == image.tobytes()
