"""The retrieval index saved per store, so a warm process builds nothing.

One folder per store in `<user cache dir>/retrieval/<sha256 of the store's real path>/` (two
stores never share one, even with identical files):

- `root.txt` — the store's real path (to prune folders of stores that are gone);
- `index.marshal` — version, the store's real path, the *context* signature (everything a
  memory's searchable head depends on besides its own bytes: the indexes and `MEMORY.md` hooks,
  the loadable tiers, the term rules), every searchable memory as (path, sha256 of content), and
  the BM25 vocabulary and the generation of its arrays, each index row's
  keyword set for the route (in the store's row order) and how many rows carry each keyword
  (the route's idf);
- `routes-<gen>.bin` — each index's form table for the route (`route.KeywordIndex.table`),
  readable alone (a query reads L0's and the few domain indexes it routes to); checked against
  the row keywords before use;
- `copies-<gen>.marshal` — each memory's prose digest (`copies.copy_key`; `index.marshal` keeps
  only the groups of near-copies, which search collapses), read only for an update;
- `docterms-<gen>.bin` — the same terms, each memory readable alone (the feedback reads five);
- `passages-<gen>.bin` — each memory's passages (`passage_rank.Row`s), readable alone (a query
  reads BM25's first twenty and the semantic source's candidates); these `.bin` files are held
  open by the engine that reads them, one positioned read a memory (`blob_file.BlobFile`);
- `terms-<gen>.marshal` — each memory's terms (for a rebuild after a change, the Python backend,
  the prior's overlap and `why`), read only when needed;
- `data-<gen>.npy`, `indices-<gen>.npy`, `indptr-<gen>.npy` — the BM25 weights, column-compressed
  (written without numpy for a small store), opened memory-mapped (the OS pages in what a query
  touches): as memoryviews for a one-shot process, as numpy arrays for a long-lived engine.

`index.marshal` is replaced last and atomically, so a reader sees an old or a new generation,
never a mix; older generations' files are removed after. A memory that changed or went makes
the next build reuse the saved terms of the others and save a new generation (entries of gone
files are dropped with it); a changed index or config rebuilds every memory's terms. Folders of
stores that no longer exist are pruned whenever an index is saved. Any damaged or missing file
only means a rebuild: the marshalled files carry a checksum (`safeio.with_checksum`), each
memory's terms in `docterms` its own CRC-32, and `index.marshal` the CRC-32 of each array, checked
when the arrays are opened — one damaged byte never changes a ranking.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import secrets
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base.safeio import checksum_head, with_checksum

VERSION = 8  # 8: the route's keyword counts and routes-<gen>.bin; 7: passages-<gen>.bin; 6: every file checksummed; 5: docterms-<gen>.bin (one memory's terms readable alone)
ARRAYS = ("data", "indices", "indptr")
INDEX = "index.marshal"  # replaced last: the generation a reader sees


def folder_for(root: Path | str) -> Path:
    from ..base.locations import cache_dir

    real = os.path.realpath(root)
    return cache_dir() / "retrieval" / hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def context_signature(store, docs, extra: str) -> str:
    """What every memory's head depends on besides its own bytes: each other record (indexes,
    MEMORY.md, …) by path and content hash, plus `extra` (tiers, term rules)."""
    searchable = {r.path for r in docs}
    h = hashlib.sha256(extra.encode())
    for path, rec in store.records.items():
        if path not in searchable:
            h.update(f"{path}\0{rec.content_hash or ''}\0{rec.tier}\0{rec.level}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


@dataclass
class Saved:
    """What `load` found: the keys it was built for, and how to reach its parts."""

    folder: Path
    context: str
    keys: list[tuple[str, str]]
    gen: str
    vocab: dict[str, int] | None
    route_keywords: list[tuple[str, ...]] | None = None
    groups: dict[str, str] | None = None  # near-copies: path → prose digest (copies.groups)
    crcs: dict[str, int] | None = None  # each array file's CRC-32
    route_df: dict[str, int] | None = None  # keyword → rows carrying it (the route's idf)
    route_tables: int = 0  # how many index form tables routes-<gen>.bin holds
    _readers: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # name → BlobFile, open

    def copies(self) -> list[str] | None:
        """Each memory's prose digest (`copies.copy_key`), aligned with `keys`."""
        data = _read_checked(self.folder / f"copies-{self.gen}.marshal")
        return data if isinstance(data, list) and len(data) == len(self.keys) else None

    def terms(self) -> list[list[str]] | None:
        data = _read_checked(self.folder / f"terms-{self.gen}.marshal")
        return data if isinstance(data, list) and len(data) == len(self.keys) else None

    def terms_of(self, indices) -> dict[int, list[str]] | None:
        """Some memories' terms, read from the per-memory file without loading the others' (the
        query's feedback expansion reads five memories of thousands); each checked by its CRC."""
        return self._blobs("docterms", indices)

    def passages_of(self, indices) -> dict[int, list] | None:
        """Some memories' passage rows (`passage_rank.Row`), read alone (and checked)."""
        return self._blobs("passages", indices)

    def route_table(self, position: int):
        """One index's form table (`route.KeywordIndex.table`), read alone (and checked), or None."""
        got = self._blobs("routes", (position,), self.route_tables)
        return got[position] if got is not None else None

    def passages(self) -> list[list] | None:
        """Every memory's passage rows (to reuse the unchanged ones' when the index is updated)."""
        got = self._blobs("passages", range(len(self.keys)))
        return [got[i] for i in range(len(self.keys))] if got is not None else None

    def _blobs(self, name: str, indices, count: int | None = None) -> dict[int, Any] | None:
        reader = self._readers.get(name)
        if reader is None:
            from .blob_file import BlobFile

            try:
                reader = self._readers[name] = BlobFile(self.folder / f"{name}-{self.gen}.bin",
                                                        len(self.keys) if count is None else count)
            except (OSError, ValueError, struct.error):
                return None
        return reader.read(indices)

    def _arrays_intact(self, maps) -> bool:
        """Do the mapped arrays hold the bytes their CRC-32s (kept in index.marshal) say?"""
        import zlib

        if not self.crcs:
            return False
        return all(zlib.crc32(m) == self.crcs.get(name) for name, m in zip(ARRAYS, maps, strict=True))

    def arrays(self):
        """(data, indices, indptr) memory-mapped, or None if any is missing or damaged."""
        if self.vocab is None:
            return None
        try:
            import numpy as np

            # plain ndarray views of the maps: slicing a np.memmap costs a Python hook per slice
            out = tuple(np.load(self.folder / f"{name}-{self.gen}.npy", mmap_mode="r", allow_pickle=False)
                        .view(np.ndarray) for name in ARRAYS)
        except Exception:  # noqa: BLE001 - missing, damaged header, numpy absent: rebuilt
            return None
        if not self._arrays_intact(out):
            return None
        data, indices, indptr = out
        if len(indptr) != len(self.vocab) + 1 or len(data) != len(indices) or int(indptr[-1]) != len(data):
            return None
        return out


    def views(self):
        """(data, indices, indptr) as memoryviews over the mapped files — no numpy import — or None."""
        if self.vocab is None:
            return None
        try:
            out = tuple(_npy_view(self.folder / f"{name}-{self.gen}.npy") for name in ARRAYS)
        except Exception:  # noqa: BLE001 - missing or a damaged header: rebuilt
            return None
        if not self._arrays_intact(out):
            return None
        data, indices, indptr = out
        if len(indptr) != len(self.vocab) + 1 or len(data) != len(indices) or indptr[-1] != len(data):
            return None
        return out


_NPY_TYPES = {"<f4": "f", "<i4": "i", "<i8": "q"}


_ARRAY_DESCR = {"f": "<f4", "i": "<i4", "q": "<i8", "l": "<i8"}


def _npy_parts(arr) -> tuple[bytes, memoryview]:
    """A 1-d array (numpy or `array.array`) as a version 1.0 .npy file: (its header, the array's
    own bytes, not copied — a copy, then a copy behind the header, held 80 MB a weight array at
    50,000 memories while the index was saved)."""
    import sys

    if sys.byteorder != "little":
        raise ValueError("the saved index is little-endian only")
    descr = arr.dtype.str if hasattr(arr, "dtype") else _ARRAY_DESCR[arr.typecode]
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({len(arr)},), }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin-1"), memoryview(arr).cast("B")


def _npy_view(path: Path) -> memoryview:
    """A 1-d little-endian .npy file as a typed memoryview over its memory-mapped bytes."""
    import ast
    import mmap
    import sys

    with open(path, "rb") as fh:
        mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    if mm[:6] != b"\x93NUMPY" or sys.byteorder != "little":
        raise ValueError(f"{path.name}: not a .npy file this machine can map")
    size = 2 if mm[6] == 1 else 4
    start = 8 + size + int.from_bytes(mm[8 : 8 + size], "little")
    header = ast.literal_eval(mm[8 + size : start].decode("latin-1"))
    fmt = _NPY_TYPES.get(header["descr"])
    if fmt is None or header["fortran_order"] or len(header["shape"]) != 1:
        raise ValueError(f"{path.name}: unexpected array layout")
    view = memoryview(mm)[start:]
    # (typeshed lists the format letters as literals: `fmt` is one of _NPY_TYPES' values)
    if not header["shape"][0]:
        return memoryview(b"").cast(fmt)  # type: ignore[call-overload]
    return view.cast(fmt)  # type: ignore[call-overload]


def _read_checked(path: Path):
    """A checksummed marshal file's value, or None (missing, damaged, another layout)."""
    from ..base.safeio import without_checksum

    try:  # one read, then loads: marshal.load on a file object reads it in many small pieces
        payload = without_checksum(path.read_bytes())
        return marshal.loads(payload) if payload is not None else None
    except (OSError, EOFError, ValueError, TypeError):
        return None


def any_saved(root: Path | str) -> bool:
    """Is an index file saved for this store (usable or not: `load` says), without reading it?"""
    return (folder_for(root) / INDEX).exists()


def load(root: Path | str) -> Saved | None:
    folder = folder_for(root)
    meta = _read_checked(folder / INDEX)
    if not isinstance(meta, dict) or meta.get("v") != VERSION or meta.get("root") != os.path.realpath(root):
        return None
    try:
        keys = [(str(p), str(h)) for p, h in meta["keys"]]
        groups = meta.get("copies")
        crcs = meta.get("crc")
        df, tables = meta.get("route_df"), meta.get("route_tables")
        return Saved(folder, str(meta["context"]), keys, str(meta["gen"]), meta.get("vocab"), meta.get("route"),
                     groups if isinstance(groups, dict) else None, crcs if isinstance(crcs, dict) else None,
                     df if isinstance(df, dict) else None, tables if type(tables) is int and tables >= 0 else 0)
    except (KeyError, TypeError, ValueError):
        return None


def save(root: Path | str, context: str, keys: list[tuple[str, str]], terms: list[list[str]], bm25,
         route_keywords: list[tuple[str, ...]] | None = None, copies: list[str] | None = None,
         passages: Iterable[list] | None = None, route_df: dict[str, int] | None = None,
         route_tables: list[dict] | None = None) -> None:
    """Write a new generation for this store; a cache that cannot be written is only slower next time."""
    folder = folder_for(root)
    gen = secrets.token_hex(6)
    vocab, *parts = bm25.csc()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _atomic(folder / "root.txt", os.path.realpath(root).encode("utf-8", "surrogatepass"))
        payload = marshal.dumps(terms)
        _atomic(folder / f"terms-{gen}.marshal", checksum_head(payload), payload)  # not copied behind its head
        del payload
        _atomic_rows(folder / f"docterms-{gen}.bin", terms, len(terms))
        if passages is not None:  # each memory's as it is made (passage_rank.make_rows)
            _atomic_rows(folder / f"passages-{gen}.bin", passages, len(keys))
        if route_tables is not None:
            _atomic_rows(folder / f"routes-{gen}.bin", route_tables, len(route_tables))
        if copies is not None:
            _atomic(folder / f"copies-{gen}.marshal", with_checksum(marshal.dumps(copies)))
        crcs = {}
        for name, arr in zip(ARRAYS, parts, strict=True):
            head, body = _npy_parts(arr)
            crcs[name] = zlib.crc32(body)
            _atomic(folder / f"{name}-{gen}.npy", head, body)
        meta = {"v": VERSION, "root": os.path.realpath(root), "context": context, "keys": keys, "gen": gen,
                "vocab": dict(vocab), "route": route_keywords, "crc": crcs,
                "route_df": route_df, "route_tables": len(route_tables) if route_tables is not None else 0}
        if copies is not None:
            from .copies import groups

            meta["copies"] = groups((p for p, _ in keys), copies)
        _atomic(folder / INDEX, with_checksum(marshal.dumps(meta)))
    except (OSError, ValueError):
        return
    for f in folder.iterdir():  # earlier generations (and leftovers of a crash)
        if gen not in f.name and f.name not in (INDEX, "root.txt"):
            with contextlib.suppress(OSError):
                f.unlink()
    prune_gone_stores(folder.parent)
    with contextlib.suppress(OSError):  # the terms cache every store used to share (before this index)
        (folder.parent.parent / "terms.pickle").unlink()


def _doc_terms_bytes(terms: list) -> bytes:
    """The bytes `_write_rows` writes (tests build saved files with them)."""
    import io

    buf = io.BytesIO()
    _write_rows(buf, terms, len(terms))
    return buf.getvalue()


def _write_rows(fh, items: Iterable, n: int) -> None:
    """n, n + 1 offsets, n CRC-32s, then each memory's terms (or passage rows) marshalled: one
    memory readable (and checked) alone. Each is written as it is made and the header filled in
    after: the file is never whole in memory (10,000 memories' passages, 56 MB, were held three
    times over — the parts, joined, then behind their header — at the top of an index build)."""
    start = fh.tell()
    fh.write(bytes(8 * (n + 2) + 4 * n))
    offsets, crcs = [0], []
    for item in items:
        blob = marshal.dumps(item)
        fh.write(blob)
        offsets.append(offsets[-1] + len(blob))
        crcs.append(zlib.crc32(blob))
    if len(offsets) != n + 1:
        raise ValueError(f"{len(offsets) - 1} rows where {n} were named")
    end = fh.tell()
    fh.seek(start)
    fh.write(struct.pack(f"<q{n + 1}q", n, *offsets))
    fh.write(struct.pack(f"<{n}I", *crcs))
    fh.seek(end)


def _atomic(path: Path, *parts: bytes | memoryview) -> None:
    """`parts` written in turn to a new file, put in place whole."""
    _replace(path, lambda fh: fh.writelines(parts))


def _atomic_rows(path: Path, items: Iterable, n: int) -> None:
    """`n` rows (`_write_rows`) in a new file, put in place whole; `items` may be a generator."""
    _replace(path, lambda fh: _write_rows(fh, items, n))


def _replace(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(tmp, "wb") as fh:
        write(fh)
    os.replace(tmp, path)


def prune_gone_stores(base: Path) -> int:
    """Remove the saved index of every store whose folder no longer exists (scratch copies)."""
    import shutil

    gone = 0
    try:
        folders = list(base.iterdir())
    except OSError:
        return 0
    for folder in folders:
        try:
            root = (folder / "root.txt").read_bytes().decode("utf-8", "surrogatepass")
        except (OSError, UnicodeDecodeError):
            continue
        if not os.path.isdir(root):
            shutil.rmtree(folder, ignore_errors=True)
            gone += 1
    return gone


def forget(root: Path | str) -> None:
    """Drop a store's saved index (a scratch copy that is about to go)."""
    import shutil

    shutil.rmtree(folder_for(root), ignore_errors=True)
