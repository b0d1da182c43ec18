"""What the tests and the benchmarks need and the product does not ship (not in the wheel:
pyproject.toml packages only controller* and drivers*). Importable from the checkout's root,
which pytest puts on sys.path (`pythonpath` in pyproject.toml) and the benchmarks insert."""
