"""The arena: duplicate-deal matches, statistics, ratings, reports and backends (docs/arena.md)."""
