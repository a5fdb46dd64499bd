"""The pure domain model: store, records, indexes, findings. No Textual, no Rich."""

from .discovery import Located, StoreError, locate_store
from .findings import Finding, Fix, Severity
from .indexes import DomainIndex, IndexLink, IndexRow, L0Index, parse_domain_index, parse_l0
from .loader import load_store
from .records import Record
from .store import Route, Store

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
