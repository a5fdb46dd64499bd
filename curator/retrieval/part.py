"""What the engine's parts share: each part (the passage, prior and feedback rankers, the
explainer) is a class of its own that the engine composes, reading the engine's index and
settings by the names its `READS` declares — nothing else of the engine."""

from __future__ import annotations


class EnginePart:
    READS: tuple[str, ...] = ()  # the engine attributes this part reads

    def __init__(self, engine) -> None:
        self.engine = engine

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls.READS:  # a read-only property each: a part never sets the engine's state
            setattr(cls, name, _engine_property(name))

    def __getattr__(self, name: str):  # only for a name that is neither the part's nor in READS
        raise AttributeError(f"{type(self).__name__} has no {name!r} (and does not read it from the engine)")


def _engine_property(name: str) -> property:
    def read(part: EnginePart) -> object:
        return getattr(part.engine, name)

    return property(read)
