"""curator: a workbench for an AI coding agent's memory store."""

__version__ = "0.1.0"
