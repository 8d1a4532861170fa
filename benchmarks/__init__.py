"""Benchmarks comparing layoutkit's reading order and speed with peer extractors.

Run ``python -m benchmarks.run``; see ``benchmarks/README.md``.
"""
