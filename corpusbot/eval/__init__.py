"""Scoring extraction against the gold sets: their readers and the published scoring rules."""
