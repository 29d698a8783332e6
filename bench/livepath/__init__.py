"""The parts of ``bench/live.py``, the benchmark of the live path (issue 13), one concept each."""
