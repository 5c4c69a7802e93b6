"""Benchmark scripts: ``python -m benchmarks.<name>`` writes ``benchmarks/results/<name>.json``."""
