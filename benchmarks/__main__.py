"""Run every benchmark: ``python -m benchmarks [NAME ...]`` (candidate, spy, cpp, bots,
engine_match, arena, rl, server, analysis, tournament, pairing, alpha). Options after one
name go to that benchmark: ``python -m benchmarks server --processes 3``."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "candidate",
    "spy",
    "cpp",
    "bots",
    "engine_match",
    "arena",
    "rl",
    "server",
    "analysis",
    "tournament",
    "pairing",
    "alpha",
)


def main(argv: list[str]) -> int:
    first_option = next((i for i, arg in enumerate(argv) if arg.startswith("-")), len(argv))
    names, options = argv[:first_option] or list(BENCHMARKS), argv[first_option:]
    if options and len(names) != 1:
        print("options go to one benchmark: python -m benchmarks NAME --option …", file=sys.stderr)
        return 2
    for name in names:
        if name not in BENCHMARKS:
            print(
                f"unknown benchmark {name!r}: expected one of {', '.join(BENCHMARKS)}",
                file=sys.stderr,
            )
            return 2
    for name in names:
        try:
            module = importlib.import_module(f"benchmarks.bench_{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"benchmarks.bench_{name}":
                raise
            print(f"{name}: benchmark not available yet")
            continue
        if options:
            module.main(options)
        else:
            module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
