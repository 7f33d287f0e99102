"""The solver: search over engine positions (full information) and an honest player."""
