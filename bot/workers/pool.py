"""CPU work off the event loop: drawing boards and thinking for AI seats, in worker processes.

A render (10-30 ms) or an AI search (up to a second) on the event loop would hold up every other
game's replies, and threads would not help (the GIL). The workers start from a fork server that
has already imported the engines and renderers, and register the same plugin games as the bot, so
any game the bot knows can be drawn and played there. With ``warm``, the fork server draws every
renderer's palette (most of a first board) before the first worker forks, then every other sprite
on a thread of the lowest priority, and the pool replaces the workers forked before that was done
by workers forked after, one at a time (issue #33): drawing every sprite before the first fork
took about 10 s of CPU, and the first player after a restart waited for all of it.

Each worker has its own pair of pipes, read and written by the event loop itself. The standard
``ProcessPoolExecutor`` breaks for good when one worker dies (killed, out of memory, a crash in a
C library): every later drawing of every game then fails until the bot restarts. Here a dead
worker is replaced, and the job it was running is tried once more on another (every job here is
pure: drawing, searching, replaying). Speed is the same: measured side by side, 50 games at once
ran 189-252 actions/s with either, and one drawing's hand-off costs the same.

Long jobs (an AI's search, a finished game's recap) never take the last free worker: with every
worker searching for AI seats, every game's board would wait up to a second behind them. A job
that overruns its time limit by far (a bug that loops) has its worker killed and replaced, so it
cannot keep a worker from every other game for good.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import importlib
import multiprocessing
import os
import pickle
import struct
import threading
import time
from dataclasses import dataclass

import renderers
from games import get_game
from games.ai import choose_action
from games.rng import Rng

from . import fork_server

FRAME = struct.Struct("!Q")  # every message: its length, then a pickle
# Far beyond any sound job (a drawing takes milliseconds, a hard AI search about a second).
JOB_LIMIT_SECONDS = 30.0
LONG_JOB_LIMIT_SECONDS = 120.0
REPLACE_DELAY_SECONDS = 1.0
REFRESH_SECONDS = 2.0  # with ``warm``: a worker is forked to see whether the sprites are drawn after 2 s,
REFRESH_MAX_SECONDS = 8.0  # then 4, 8, 8... (each such start costs CPU while the first players play)
REFRESH_GIVE_UP_SECONDS = 600.0  # ...until then (a warm-up that failed must not cost forks for good)
MAX_TRIES = 2  # a job whose worker died is tried once more; one that kills every worker, not again


class WorkerLost(RuntimeError):
    """The job's worker died, on both its tries (killed, out of memory, a crash), or the job ran far
    over its time limit; the pool has replaced the worker."""


def settle_heap() -> None:
    """Move everything alive after start-up (modules, catalogues, sprites) out of the collector's
    reach. A full collection walks every tracked object: measured, one took 56 ms on the event
    loop in 300 Monster Hunter actions; after this, none ran. Frozen pages are also not written
    by the collector, so forked workers keep sharing them."""
    gc.collect()
    gc.freeze()


# ---- inside a worker ---------------------------------------------------------------------------
WARM_NICE = 19  # the warming thread's priority: the lowest, below the fork server's forks and the bot
_warmed = threading.Event()  # in a worker: whether the fork server had drawn every sprite when it forked


def _serve(jobs, results, plugins: tuple[str, ...]) -> None:
    """A worker's life: answer jobs one at a time until the bot closes its pipe (or dies: the
    pipe closes with it, so no worker outlives the bot)."""
    for module in plugins:
        importlib.import_module(module).register_plugin()
    settle_heap()
    inbox = os.fdopen(_own_fd(jobs), "rb")
    outbox = os.fdopen(_own_fd(results), "wb")
    try:
        _send(outbox, (True, (os.getpid(), warmed())))  # ready, with or without every sprite
        while (job := _receive(inbox)) is not None:
            fn, args = job
            try:
                reply = (True, fn(*args))
            except Exception as e:  # the caller gets it, as from a call made here
                reply = (False, e)
            _send(outbox, reply)
    except BrokenPipeError:  # the bot is gone
        pass


def _own_fd(connection) -> int:
    fd = os.dup(connection.fileno())
    connection.close()
    return fd


def _receive(inbox):
    header = inbox.read(FRAME.size)
    if len(header) < FRAME.size:
        return None
    return pickle.loads(inbox.read(FRAME.unpack(header)[0]))


def _send(outbox, reply: tuple) -> None:
    try:
        data = pickle.dumps(reply, pickle.HIGHEST_PROTOCOL)
        if not reply[0]:
            pickle.loads(data)  # an error must also unpickle (some take arguments of their own)
    except Exception as e:  # an answer or error that cannot travel: say what it was
        data = pickle.dumps((False, RuntimeError(f"{type(e).__name__}: {e}: {reply[1]!r}")),
                            pickle.HIGHEST_PROTOCOL)
    outbox.write(FRAME.pack(len(data)) + data)
    outbox.flush()


def warm_in_background() -> threading.Thread:
    """In the fork server (``bot.workers.warming``): draw every renderer's sprites (``renderers.warm_all``)
    on a thread of the lowest priority, while workers already fork from it. A worker forked
    meanwhile has the sprites drawn so far and draws the others it needs itself; the pool replaces
    it once a worker forked later reports every sprite drawn (:meth:`WorkerPool.start`).

    Forking while this thread runs is sound: a fork happens on the server's main thread holding the
    GIL, so this thread is then waiting for the GIL or inside a C call on an image of its own (one
    it is drawing, not yet in any cache); the child has only the main thread and the caches as they
    were (Python 3.12 warns on every fork of a process with threads; this is why it is sound here).
    Tried before this: each worker warming itself on such a thread, which cost every worker the
    whole warm-up's CPU and memory (docs/performance.md)."""
    thread = threading.Thread(target=_warm_quietly, name="warm-sprites", daemon=True)
    thread.start()
    return thread


def _warm_quietly() -> None:
    try:  # on Linux a thread has a priority of its own: only this one is lowered, never the forks'
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WARM_NICE)
    except (AttributeError, OSError):
        pass
    renderers.warm_all()
    gc.freeze()  # the sprites out of the collector's reach too, in every worker forked from now on
    _warmed.set()


def warmed() -> bool:
    """Whether this process has every sprite drawn (in a worker: whether its fork server had when
    it forked). Also a job, for the tests and benchmarks."""
    return _warmed.is_set()


def render(game_name: str, view: dict, lang: str = "en") -> bytes:
    return renderers.render(game_name, view, lang=lang)


def think(game_name: str, state: dict, seat: int, seed: int, level: str, seconds: float = 1.0) -> str:
    """An AI seat's action, from a generator seeded by the game (so an AI game replays). The search
    is bounded by a count; ``seconds`` is only a safety net on a slow or busy machine."""
    give_up = time.monotonic() + seconds
    return choose_action(get_game(game_name), state, seat, Rng(seed), level=level,
                         should_stop=lambda: time.monotonic() > give_up)


# ---- in the bot --------------------------------------------------------------------------------
@dataclass(eq=False)
class _Worker:
    process: multiprocessing.process.BaseProcess
    jobs: asyncio.WriteTransport | None = None
    job: _Job | None = None  # the job it is running
    timer: asyncio.TimerHandle | None = None  # ...and when that is overdue
    ready: asyncio.Future | None = None
    warm: bool = False  # forked after its fork server had drawn every sprite
    retired: bool = False  # replaced by a warm worker: leaves after its job, and is not replaced


@dataclass(eq=False)
class _Job:
    fn: object
    args: tuple
    long: bool
    future: asyncio.Future
    tries: int = 0
    overdue: bool = False


class _Replies(asyncio.Protocol):
    """Reads a worker's answers off its pipe as they arrive, without ever blocking the loop."""

    def __init__(self, pool: WorkerPool, worker: _Worker):
        self.pool, self.worker = pool, worker
        self.buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        while len(buffer) >= FRAME.size:
            size = FRAME.unpack_from(buffer)[0]
            if len(buffer) < FRAME.size + size:
                return
            try:
                reply = pickle.loads(memoryview(buffer)[FRAME.size:FRAME.size + size])
            except Exception as e:  # its caller must hear something, or it would wait forever
                reply = (False, RuntimeError(f"a worker's answer could not be read: {e!r}"))
            del buffer[:FRAME.size + size]
            self.pool._answered(self.worker, reply)

    def connection_lost(self, exc) -> None:
        self.pool._lost(self.worker)


class WorkerPool:
    """``size`` worker processes; jobs wait in arrival order for the first free one."""

    def __init__(self, size: int, plugins: tuple[str, ...] = (), *, warm: bool = False):
        self.size, self.plugins = size, tuple(plugins)
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(fork_server.preload(warm))  # no change once it runs
        self.warm = warm
        self._workers: set[_Worker] = set()
        self._idle: collections.deque[_Worker] = collections.deque()
        self._waiting: collections.deque[_Job] = collections.deque()
        self._long_places = max(1, size - 1)  # one worker stays free for drawing
        self.limits = {False: JOB_LIMIT_SECONDS, True: LONG_JOB_LIMIT_SECONDS}  # seconds, by ``long``
        self._replacing: set[asyncio.Task] = set()
        self._refreshing: asyncio.Task | None = None
        self._closed = False

    async def start(self) -> None:
        """Start every worker now, not on the first player's action (with ``warm``, the first ones
        are later swapped for workers with every sprite: :meth:`_refresh_when_warm`)."""
        while len(self._workers) < self.size:
            await self._spawn()
        await asyncio.gather(*(w.ready for w in list(self._workers) if w.ready is not None))
        if self.warm and self._refreshing is None and not self._closed:
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh_when_warm())

    async def until_warm(self, timeout: float = 300.0) -> bool:
        """Wait until every worker has every sprite drawn (with ``warm``; the benchmarks that time
        a bot that has been running a while); whether they have."""
        give_up = time.monotonic() + timeout
        while not (self._workers and all(w.warm for w in self._workers)) and time.monotonic() < give_up:
            await asyncio.sleep(0.2)
        return bool(self._workers) and all(w.warm for w in self._workers)

    async def _refresh_when_warm(self) -> None:
        """Replace, one at a time, the workers forked before the fork server had drawn every sprite
        by workers forked after (they share its sprites; a worker that drew its own keeps them
        apart). A new worker is forked to see, less and less often, until one reports the sprites."""
        give_up, delay = time.monotonic() + REFRESH_GIVE_UP_SECONDS, REFRESH_SECONDS
        while (not self._closed and time.monotonic() < give_up
               and any(not w.warm and not w.retired for w in self._workers)):
            await asyncio.sleep(delay)
            delay = min(2 * delay, REFRESH_MAX_SECONDS)
            try:
                fresh = await self._spawn()
                if fresh is None:
                    continue
                if fresh.ready is not None:  # (its first word may have come already)
                    await fresh.ready
            except Exception:  # it could not start: the next round tries again
                continue
            if not fresh.warm:
                self._retire(fresh)  # the fork server is still drawing
                continue
            cold = next((w for w in self._workers if not w.warm and not w.retired), None)
            self._retire(cold if cold is not None else fresh)

    def _retire(self, worker: _Worker) -> None:
        """Let a worker go: at once if idle, else after the job it runs is answered (its pipe
        closed, it leaves)."""
        worker.retired = True
        self._workers.discard(worker)
        if worker.job is None:
            if worker in self._idle:
                self._idle.remove(worker)
            if worker.jobs is not None:
                worker.jobs.close()

    async def run(self, fn, *args, long: bool = False):
        if self._closed:
            raise RuntimeError("the worker pool is shut down")
        # In line before the pool's start is awaited: jobs asked for while it starts run in the
        # order they were asked, not in the order their callers happened to wake up.
        job = _Job(fn, args, long, asyncio.get_running_loop().create_future())
        self._waiting.append(job)
        if len(self._workers) < self.size:
            try:
                await self.start()
            except BaseException:
                job.future.cancel()  # its caller stopped waiting (or the start failed): dropped
                raise
        self._dispatch()
        return await job.future

    async def _spawn(self) -> _Worker | None:
        loop = asyncio.get_running_loop()
        job_reader, job_writer = self._context.Pipe(duplex=False)
        reply_reader, reply_writer = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_serve, args=(job_reader, reply_writer, self.plugins), daemon=True)
        worker = _Worker(process, ready=loop.create_future())
        self._workers.add(worker)
        # In a thread: the first start waits for the fork server's imports.
        await loop.run_in_executor(None, process.start)
        if self._closed:  # shut down while it started
            process.terminate()
            self._workers.discard(worker)
            worker.ready.cancel()
            return None
        job_reader.close()  # the worker's ends: only it may hold them, so its death closes the pipes
        reply_writer.close()
        worker.jobs, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(_own_fd(job_writer), "wb", 0))
        await loop.connect_read_pipe(lambda: _Replies(self, worker), os.fdopen(_own_fd(reply_reader), "rb", 0))
        return worker

    def _dispatch(self) -> None:
        while self._idle and (job := self._next_job()) is not None:
            try:
                data = pickle.dumps((job.fn, job.args), pickle.HIGHEST_PROTOCOL)
            except Exception as e:
                job.future.set_exception(e)
                continue
            # The worker idle for the shortest time: the one that drew this game's last board when
            # actions come one at a time, its cache still holding that board's compressed bands.
            worker = self._idle.pop()
            worker.job = job
            job.tries += 1
            worker.jobs.write(FRAME.pack(len(data)) + data)
            worker.timer = asyncio.get_running_loop().call_later(self.limits[job.long], self._overdue, worker, job)

    @staticmethod
    def _overdue(worker: _Worker, job: _Job) -> None:
        if worker.job is job and worker.process.is_alive():
            job.overdue = True  # not tried again: it would only overrun again
            worker.process.kill()  # its pipe closes: the job fails as lost, and a new worker comes

    def _next_job(self) -> _Job | None:
        """The first waiting job that may start now: a long one only while long jobs hold fewer
        than their places (jobs whose callers stopped waiting are dropped)."""
        long_running = sum(1 for w in self._workers if w.job is not None and w.job.long)
        for job in list(self._waiting):
            if job.future.done():
                self._waiting.remove(job)
            elif not job.long or long_running < self._long_places:
                self._waiting.remove(job)
                return job
        return None

    def _answered(self, worker: _Worker, reply: tuple) -> None:
        ok, value = reply
        if worker.ready is not None:  # its first word: ready, and whether it has every sprite
            worker.warm = bool(value[1])
            worker.ready.set_result(worker.warm)
            worker.ready = None
        elif worker.job is not None:
            future = worker.job.future
            if not future.done():
                future.set_result(value) if ok else future.set_exception(value)
            worker.job = None
            worker.timer.cancel()
        if worker.retired:
            worker.jobs.close()
        else:
            self._idle.append(worker)
        self._dispatch()

    def _lost(self, worker: _Worker) -> None:
        if worker.retired and worker.job is None:  # it left as asked
            worker.process.join(timeout=0)
            return
        self._workers.discard(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if worker.jobs is not None:
            worker.jobs.close()
        worker.process.join(timeout=0)
        died_starting = worker.ready is not None
        lost = WorkerLost(f"worker {worker.process.pid} exited ({worker.process.exitcode})")
        if worker.ready is not None and not worker.ready.done():
            worker.ready.set_exception(lost)
        job = worker.job
        if job is not None and not job.future.done():
            if job.overdue or job.tries >= MAX_TRIES or self._closed:
                job.future.set_exception(lost)
            else:
                self._waiting.appendleft(job)  # first in line again
                self._dispatch()
        if not self._closed:
            task = asyncio.get_running_loop().create_task(self._replace(REPLACE_DELAY_SECONDS if died_starting else 0))
            self._replacing.add(task)
            task.add_done_callback(self._replacing.discard)

    async def _replace(self, delay: float) -> None:
        await asyncio.sleep(delay)  # a worker that cannot even start must not be restarted in a tight loop
        if self._closed:
            return
        try:
            await self.start()
        except Exception:
            pass  # the next job tries again
        self._dispatch()

    def shutdown(self, wait: bool = True) -> None:
        """Close every worker's pipe (each leaves when it sees it closed, at the latest with the
        bot); jobs still waiting are cancelled. ``wait``: stop the workers now and reap them."""
        self._closed = True
        if self._refreshing is not None:
            self._refreshing.cancel()
        for job in self._waiting:
            job.future.cancel()
        self._waiting.clear()
        for worker in list(self._workers):
            if worker.jobs is not None:
                worker.jobs.close()
            if wait and worker.process.pid is not None:  # (a pipe closes on the loop's next turn)
                worker.process.terminate()
                worker.process.join(timeout=5)


def pool_size(processes: int | None = None) -> int:
    return processes or os.cpu_count() or 2


def process_pool(processes: int | None = None, plugins: tuple[str, ...] = (), *, warm: bool = False) -> WorkerPool:
    """Workers forked from a server that imported the engines and renderers, so each starts ready;
    with ``warm``, the server also draws every sprite, in the background (:func:`warm_in_background`)."""
    return WorkerPool(pool_size(processes), plugins, warm=warm)


async def start(pool: WorkerPool) -> None:
    """Start every worker now (see :meth:`WorkerPool.start`)."""
    await pool.start()


async def run(pool: WorkerPool | None, fn, *args):
    """``fn(*args)`` in the pool, or right here when there is none (tests, the local driver)."""
    if pool is None:
        return fn(*args)
    return await pool.run(fn, *args)


async def run_long(pool: WorkerPool | None, fn, *args):
    """As :func:`run`, for a job that may take a second or more: it leaves a worker free for drawing."""
    if pool is None:
        return fn(*args)
    return await pool.run(fn, *args, long=True)
