"""Speed benchmarks. Run them all with ``make bench`` (``python -m benchmarks``).

Every benchmark prints its own figures *and* a baseline measured in the same run on
the same machine, so the ratio means something even on a busy shared machine.
"""
