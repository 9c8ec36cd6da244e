"""The command line: the only place that parses flags and picks exit codes."""
