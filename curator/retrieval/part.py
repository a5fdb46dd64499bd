"""What the engine's parts share: each part (the passage, prior and feedback rankers, the
explainer) is a class of its own that the engine composes, reading the engine's index and
settings by the names its `READS` declares — nothing else of the engine."""

from __future__ import annotations


class EnginePart:
    READS: tuple[str, ...] = ()  # the engine attributes this part reads

    def __init__(self, engine) -> None:
        self.engine = engine

    def __getattr__(self, name: str):
        if name in type(self).READS:
            return getattr(self.engine, name)
        raise AttributeError(f"{type(self).__name__} has no {name!r} (and does not read it from the engine)")
