"""The pure domain model: store, records, indexes, findings. No Textual, no Rich."""

from importlib import import_module
from typing import TYPE_CHECKING

# each name from its module when first asked for (PEP 562): a module of the package
# (`model.vocabulary`) is imported without the rest — a warm `retrieve` needs only a few
_HOMES = {
    "Located": "discovery", "StoreError": "discovery", "locate_store": "discovery",
    "Finding": "findings", "Fix": "findings", "Severity": "findings",
    "DomainIndex": "indexes", "IndexLink": "indexes", "IndexRow": "indexes", "L0Index": "indexes",
    "parse_domain_index": "indexes", "parse_l0": "indexes",
    "load_store": "loader", "Record": "records", "Route": "store", "Store": "store",
}

if TYPE_CHECKING:
    from .discovery import Located, StoreError, locate_store
    from .findings import Finding, Fix, Severity
    from .indexes import DomainIndex, IndexLink, IndexRow, L0Index, parse_domain_index, parse_l0
    from .loader import load_store
    from .records import Record
    from .store import Route, Store


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DomainIndex",
    "Finding",
    "Fix",
    "IndexLink",
    "IndexRow",
    "L0Index",
    "Located",
    "Record",
    "Route",
    "Severity",
    "Store",
    "StoreError",
    "load_store",
    "locate_store",
    "parse_domain_index",
    "parse_l0",
]
