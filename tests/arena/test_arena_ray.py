"""The Ray backend's place: a running cluster, or a local one on loopback and pinned ports.

Most of it is checked without a cluster (the ``ray start`` command and ``ray.init``
arguments built, the options refused); one test starts a real local cluster and
checks from outside that it answers on loopback and not on the host's own address.
"""

from __future__ import annotations

import contextlib
import os
import socket

import pytest
from typer.testing import CliRunner

from cardtable.arena.backends import RayPlace, ray_available, ray_init_kwargs, run_jobs
from cardtable.arena.raycluster import NAMED_PORTS, port_span
from cardtable.arena.tournament import run_arena
from cardtable.arena.work import ArenaConfig, GameResult
from cardtable.bots.registry import parse_bot_spec
from cardtable.cli import app
from cardtable.errors import BadOptions


def option_values(command: list[str]) -> dict[str, str]:
    """``--name value`` pairs of a command line."""
    return {
        arg[2:]: command[i + 1]
        for i, arg in enumerate(command[:-1])
        if arg.startswith("--") and not command[i + 1].startswith("--")
    }


def test_a_local_cluster_listens_on_loopback_by_default() -> None:
    place = RayPlace()
    command = place.start_command(workers=2, port=6380)
    values = option_values(command)
    assert command[1:4] == ["start", "--head", "--block"]
    assert values["node-ip-address"] == "127.0.0.1"
    assert values["port"] == "6380"
    assert values["num-cpus"] == "2"
    assert values["include-dashboard"] == "false"
    assert "node-manager-port" not in values  # not pinned: Ray's choice
    # Without its single-machine mode Ray swaps a loopback node address for the host's.
    assert place.environment()["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] == "0"


def test_ray_port_pins_every_port_of_the_local_cluster_to_one_range() -> None:
    command = RayPlace(port=20000).start_command(workers=4, port=20000)
    values = option_values(command)
    named = [int(values[name]) for name in NAMED_PORTS]
    assert named == list(range(20000, 20000 + len(NAMED_PORTS)))
    assert int(values["min-worker-port"]) == 20000 + len(NAMED_PORTS)
    assert int(values["max-worker-port"]) == 20000 + port_span(4) - 1
    assert port_span(100) == len(NAMED_PORTS) + 200  # room for every worker


def test_another_host_is_not_put_in_single_machine_mode() -> None:
    place = RayPlace(host="10.1.2.3")
    assert option_values(place.start_command(1, 7000))["node-ip-address"] == "10.1.2.3"
    name = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
    assert place.environment().get(name) == os.environ.get(name)  # left as it is


def test_ray_init_is_always_given_a_cluster_address_never_asked_to_start_one() -> None:
    kwargs = ray_init_kwargs("10.0.0.5:6379")
    assert kwargs["address"] == "10.0.0.5:6379"
    assert "num_cpus" not in kwargs


@pytest.mark.parametrize(
    ("place", "words"),
    [
        (RayPlace(address="10.0.0.5:6379", port=7000), "one or the other"),
        (RayPlace(address="10.0.0.5:6379", host="10.0.0.6"), "one or the other"),
        (RayPlace(host="localhost"), "not an IP address"),
        (RayPlace(port=80), "1024-65535"),
        (RayPlace(port=65500), "1024-65535"),
    ],
)
def test_ray_options_that_cannot_work_are_refused_before_anything_starts(
    place: RayPlace, words: str
) -> None:
    config = ArenaConfig("candidate", (parse_bot_spec("candidate", "random"),) * 2, 0, {})
    with pytest.raises(BadOptions, match=words):
        run_jobs(config, [], backend="ray", workers=1, ray_place=place)


def test_arena_help_documents_the_ray_options() -> None:
    result = CliRunner().invoke(app, ["arena", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for option in ("--ray-address", "--ray-host", "--ray-port"):
        assert option in result.output


def host_address() -> str | None:
    """This machine's address on its default route (``None``: it has none but loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.123", 9))  # no packet is sent
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


def answers(host: str, port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=2):
        return True
    return False


def free_block(span: int) -> int:
    """The first of ``span`` ports that are free now on loopback."""
    for first in range(21000, 60000, span + 11):
        if not any(answers("127.0.0.1", first + i) for i in range(span)):
            return first
    raise RuntimeError("no free block of ports")


@pytest.mark.skipif(
    not ray_available(), reason="ray is not installed (pip install 'cardtable[ray]')"
)
def test_a_tiny_ray_arena_runs_on_a_cluster_reachable_on_loopback_only() -> None:
    first = free_block(port_span(1))
    config = ArenaConfig(
        "candidate",
        (parse_bot_spec("candidate", "greedy"), parse_bot_spec("candidate", "random")),
        0,
        {},
    )
    seen: list[tuple[bool, bool | None]] = []
    outside = host_address()

    def look(_result: GameResult, _done: int, _total: int) -> None:
        seen.append((answers("127.0.0.1", first), answers(outside, first) if outside else None))

    report = run_arena(
        config, 1, backend="ray", workers=1, ray_place=RayPlace(port=first), on_result=look
    )
    assert report.played == 2
    assert seen
    assert all(on_loopback for on_loopback, _ in seen)
    if outside is not None:
        assert not any(on_host for _, on_host in seen), f"the cluster answers on {outside}"
    assert not answers("127.0.0.1", first), "the local cluster was stopped"
