"""Builds the games' compiled cores (:data:`CORES`: Candidate's and Spy's ``_core.c``) with
the ordinary install: a hatchling build hook (``[tool.hatch.build.hooks.custom]``).

Why this way (docs/engine.md): each core is plain C against CPython's C API, so
building it needs only a C compiler and setuptools' ``build_ext`` — no Cython or other
code generator, and hatchling stays the build backend. The build is optional: when it
fails (no compiler, no Python headers) the hook says so and the install goes on with
the pure-Python engines, which are always there; the cores are built one by one, so
one that fails leaves the other. ``CARDTABLE_PURE=1`` at install skips it.

An editable install (``pip install -e .``, what ``make`` does) builds the extension in
place, beside its source, where the editable install finds it; a wheel gets it inside.
``python hatch_build.py`` rebuilds them in place by hand (after editing a ``_core.c``).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # run as a script, outside a build
    BuildHookInterface = object  # type: ignore[assignment,misc]

#: Each compiled core: its module and its C source (which may include headers beside it).
CORES: tuple[tuple[str, Path], ...] = (
    ("cardtable.games.candidate._core", Path("src/cardtable/games/candidate/_core.c")),
    ("cardtable.games.spy._core", Path("src/cardtable/games/spy/_core.c")),
)


def build_core(root: Path, out_dir: Path, module: str, source: Path) -> Path:
    """Compile one core into ``out_dir`` (as its package path); return the file made."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    extension = Extension(module, [str(root / source)], extra_compile_args=["-O2"])
    command = build_ext(Distribution({"name": "cardtable-core", "ext_modules": [extension]}))
    with tempfile.TemporaryDirectory() as temp:
        command.build_lib = str(out_dir)
        command.build_temp = temp
        command.force = True  # a header changed alone must rebuild too
        command.ensure_finalized()
        command.run()
    return Path(command.get_ext_fullpath(module))


def build_cores(root: Path, out_dir: Path) -> tuple[list[Path], list[str]]:
    """Compile every core into ``out_dir``: the files made, and why any was not."""
    built: list[Path] = []
    failed: list[str] = []
    for module, source in CORES:
        try:
            built.append(build_core(root, out_dir, module, source))
        except Exception as exc:  # no compiler, no headers: that game's pure engine runs
            failed.append(f"{module} ({exc})")
    return built, failed


def build_in_place(root: Path) -> list[Path]:
    """Compile the cores beside their sources (``src/``), where an editable install
    finds them; raises RuntimeError naming any that failed."""
    built, failed = build_cores(root, root / "src")
    if failed:
        raise RuntimeError("not built: " + "; ".join(failed))
    return built


class CompiledCoreHook(BuildHookInterface):  # type: ignore[misc]
    """The build hook: the core into the wheel, or in place for an editable install."""

    PLUGIN_NAME = "custom"
    #: Where a wheel's core is compiled; removed once the wheel is built.
    _out: Path | None = None

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("CARDTABLE_PURE") == "1":
            return
        root = Path(self.root)
        if version == "editable":
            built, failed = build_cores(root, root / "src")
        else:
            out = self._out = Path(tempfile.mkdtemp(prefix="cardtable-core-"))
            built, failed = build_cores(root, out)
            for path in built:
                build_data["force_include"][str(path)] = str(path.relative_to(out))
        for reason in failed:  # no compiler, no headers: that game's pure engine runs
            self.app.display_warning(
                f"cardtable: a compiled core was not built: {reason}; "
                "the pure-Python engine will run"
            )
        if not built:
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._out is not None:
            shutil.rmtree(self._out, ignore_errors=True)


if __name__ == "__main__":
    for path in build_in_place(Path(__file__).resolve().parent):
        print(path)
    sys.exit(0)
