"""Réussite: patience games with an exact rules engine, a solver and a web site."""

__version__ = "0.1.0"
