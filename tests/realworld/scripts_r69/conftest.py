# The files here are third-party scripts used as lint input, never tests (some names end in _test.py).
collect_ignore_glob = ["*.py"]
