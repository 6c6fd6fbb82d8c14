"""Benchmarks of the running web app (``make bench``): load, propagation, page weight.

Not tests: nothing here runs under pytest. See docs/performance.md.
"""
