"""Benchmarks: deterministic synthetic stores and commands that print timings (never timed tests)."""
