"""Run a command beside a CPU hog, and say what load it saw and how long it took.

``make test-busy`` runs ``make test`` this way: the suite must pass when every core is
already busy, as on a small shared host or a crowded CI runner. The hog is a few processes
that spin (one per core by default); this script starts them, and stops them by their own
process ids on every way out: the command ending, a failure here, Ctrl-C or SIGTERM. A hog
also stops by itself once this script is gone (even after SIGKILL), so none is ever left.

    python scripts/busy.py [--hogs N] [--rounds K] -- COMMAND [ARG ...]

It prints the load average before, during (lowest, mean, highest, sampled every few
seconds) and after each round, the round's time, and exits with the first failing
round's status (0 when every round passed).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from types import FrameType

# Each hog spins, and checks every so often that the script which started it still runs.
HOG = (
    "import os\n"
    "parent = os.getppid()\n"
    "while os.getppid() == parent:\n"
    "    for _ in range(2_000_000):\n"
    "        pass\n"
)
SAMPLE_SECONDS = 5.0


class Stopped(Exception):
    """SIGTERM reached this script: unwind so that the hogs are stopped."""


def _on_term(signum: int, frame: FrameType | None) -> None:
    raise Stopped(f"signal {signum}")


def start_hogs(count: int) -> list[subprocess.Popen[bytes]]:
    """Start ``count`` spinning processes (at the same priority as everything else)."""
    hogs: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            hogs.append(subprocess.Popen([sys.executable, "-c", HOG]))
    except BaseException:
        stop(hogs)
        raise
    return hogs


def stop(procs: Sequence[subprocess.Popen[bytes]]) -> None:
    """Stop each process by its id: SIGTERM, then SIGKILL if it lingers."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class LoadSampler:
    """Samples the 1-minute load average in a thread until stopped."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._done.wait(SAMPLE_SECONDS):
            self.samples.append(os.getloadavg()[0])

    def summary(self) -> str:
        if not self.samples:
            return "no samples"
        return (
            f"lowest {min(self.samples):.1f}, mean {statistics.fmean(self.samples):.1f}, "
            f"highest {max(self.samples):.1f} over {len(self.samples)} samples"
        )


def loads() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f} (1 / 5 / 15 min)"


def run_round(command: Sequence[str], hogs: int, number: int) -> int:
    """One run of ``command`` beside ``hogs`` spinning processes; its exit status."""
    say(f"round {number}: load average before the hog {loads()}")
    procs = start_hogs(hogs)
    say(f"round {number}: {hogs} hog processes, ids {' '.join(str(p.pid) for p in procs)}")
    started = time.monotonic()
    child: subprocess.Popen[bytes] | None = None
    try:
        with LoadSampler() as sampler:
            child = subprocess.Popen(list(command))
            status = child.wait()
    finally:
        if child is not None and child.poll() is None:
            stop([child])
        stop(procs)
    elapsed = time.monotonic() - started
    minutes, seconds = divmod(round(elapsed), 60)
    say(f"round {number}: load average during the run: {sampler.summary()}")
    say(f"round {number}: load average at the end {loads()}")
    verdict = "passed" if status == 0 else f"FAILED (exit status {status})"
    say(f"round {number}: {verdict} in {minutes} min {seconds} s ({elapsed:.0f} s)")
    return status


def say(text: str) -> None:
    print(f"[busy] {text}", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 2, help="spinning processes (one per core)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="run the command this many times")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    if args.hogs < 1 or args.rounds < 1:
        parser.error("--hogs and --rounds must be at least 1")
    signal.signal(signal.SIGTERM, _on_term)
    results: list[int] = []
    try:
        for number in range(1, args.rounds + 1):
            results.append(run_round(command, args.hogs, number))
    except (Stopped, KeyboardInterrupt) as stopped:
        say(f"stopped ({stopped or 'Ctrl-C'}); the hog processes are stopped")
        return 130
    passed = sum(1 for status in results if status == 0)
    say(f"{passed} of {len(results)} rounds passed")
    return next((status for status in results if status != 0), 0)


if __name__ == "__main__":
    sys.exit(main())
