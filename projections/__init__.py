"""Folding events into game state, the read models, and the write side that keeps them in step."""
