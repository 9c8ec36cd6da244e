"""Issue 4 scenario tests (a package, so test_scenarios.py does not collide with tests/compare/test_scenarios.py)."""
