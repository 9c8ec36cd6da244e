"""Fails before its first step."""
import sys

sys.exit(3)
