"""Application services: what the commands call (cli -> app -> the packages)."""
