"""One module (or package) per game: its rules (pure) and its round machine."""
