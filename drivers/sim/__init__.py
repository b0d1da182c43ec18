"""Emulators of every device on the table, speaking the same bytes as the hardware."""
