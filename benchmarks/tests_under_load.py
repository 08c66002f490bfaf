"""The test command beside CPU-bound processes: a verdict must not depend on how busy the machine is.

    .venv/bin/python benchmarks/tests_under_load.py                  # the whole suite beside 2 burners
    .venv/bin/python benchmarks/tests_under_load.py --burners 3 -- tests/e2e -x

Starts ``--burners`` processes that only spin (``while True: pass``), runs the README's test command
(``python -m pytest`` with whatever follows ``--``) and stops the burners however pytest ends. Prints
the load average before, during (sampled every 10 s) and after, and the run's duration; exits with
pytest's own code, so a run with no tests (5) fails as it does in CI.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPIN = "while True: pass"


def start_burners(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", SPIN], stdin=subprocess.DEVNULL) for _ in range(count)]


def stop(burners: list[subprocess.Popen]) -> None:
    for burner in burners:
        burner.kill()
    for burner in burners:
        burner.wait()


def sample_load(samples: list[float], done: threading.Event) -> None:
    while not done.wait(10):
        samples.append(os.getloadavg()[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burners", type=int, default=2, help="CPU-bound processes beside the tests (default 2)")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args(argv)

    print(f"load average before: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs; {args.burners} burners", flush=True)
    samples: list[float] = []
    done = threading.Event()
    sampler = threading.Thread(target=sample_load, args=(samples, done), daemon=True)
    burners = start_burners(args.burners)
    began = time.monotonic()
    try:
        sampler.start()
        code = subprocess.call([sys.executable, "-m", "pytest", *args.pytest_args], cwd=ROOT,
                               stdin=subprocess.DEVNULL)
    finally:
        stop(burners)
        done.set()
    minutes = (time.monotonic() - began) / 60
    during = f"{min(samples):.2f}-{max(samples):.2f}" if samples else "n/a"
    print(f"pytest exited {code} after {minutes:.1f} min; load average during: {during}; "
          f"after: {os.getloadavg()[0]:.2f}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
