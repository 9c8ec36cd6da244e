"""Measurement: every number is timed by measure/timer.py. torch is imported inside functions only."""
