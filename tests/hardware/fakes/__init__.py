"""Faithful fakes of the hardware parts, for tests only."""
