"""BERT's uncased WordPiece tokenizer in pure Python, for the bundled sentence encoder.

Why not the `tokenizers` package: it is a 3 MB native wheel that now pulls huggingface-hub and an
HTTP client into the install, for a job this file does with the model's own vocabulary
(`data/minilm-vocab.txt`, 30,522 pieces, 230 KB). It reproduces `BertTokenizer(do_lower_case=True)`
— clean, split CJK, lowercase, strip accents, split punctuation, greedy longest-match pieces —
and stops once the encoder's budget of pieces is reached, so a long memory costs no more than a
short one (tests compare it with `tokenizers` on real memories when that is installed).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

VOCAB = Path(__file__).parent / "data" / "minilm-vocab.txt"
MAX_WORD = 100  # BERT's max_input_chars_per_word: a longer word is one [UNK]
# In ASCII, BERT's punctuation is every printable character but letters and digits, and its
# cleaning drops the control characters: a chunk's words are then its letter-and-digit runs and
# each other character alone (tests compare this with the character loop on random text)
_ASCII_WORDS = re.compile(r"[a-z0-9]+|[^a-z0-9]").findall
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class WordPiece:
    def __init__(self, vocab_path: Path = VOCAB) -> None:
        pieces = vocab_path.read_text(encoding="utf-8").split("\n")
        if pieces and pieces[-1] == "":
            pieces.pop()
        self.vocab = {p: i for i, p in enumerate(pieces)}
        self.cls, self.sep, self.unk = self.vocab["[CLS]"], self.vocab["[SEP]"], self.vocab["[UNK]"]
        self._word = lru_cache(maxsize=65536)(self._pieces)
        self._chunks: dict[str, tuple[int, ...]] = {}
        self._counts: dict[str, int] = {}

    def encode(self, text: str, max_len: int = 128) -> list[int]:
        """[CLS] pieces… [SEP], at most `max_len` ids (truncated like the model's tokenizer)."""
        budget = max_len - 2
        ids = [self.cls]
        for word in self._words(text):
            ids.extend(self._word(word))
            if len(ids) - 1 >= budget:
                del ids[budget + 1:]
                break
        ids.append(self.sep)
        return ids

    def count(self, chunk: str) -> int:
        """How many pieces one whitespace-separated chunk takes (memoised, as `pieces`)."""
        n = self._counts.get(chunk)
        if n is None:
            if len(self._counts) > 200_000:
                self._counts.clear()
            n = self._counts[chunk] = len(self.pieces(chunk))
        return n

    def pieces(self, chunk: str) -> tuple[int, ...]:
        """The ids of one whitespace-separated chunk (cleaned, punctuation split), memoised:
        a passage cutter counts every word of a memory, most of them seen before."""
        hit = self._chunks.get(chunk)
        if hit is None:
            if len(self._chunks) > 200_000:
                self._chunks.clear()
            hit = self._chunks[chunk] = tuple(i for w in self._words(chunk) for i in self._word(w))
        return hit

    def _words(self, text: str):
        """Lowercased, accent-free words and single punctuation marks, lazily (a long text is
        only read as far as the budget needs)."""
        for chunk in text.split():
            if chunk.isascii():  # the most of any memory: one regex does what `_chunk_words` does
                yield from _ASCII_WORDS(_ASCII_CONTROL.sub("", chunk).lower())
            else:
                yield from self._chunk_words(chunk)

    def _chunk_words(self, chunk: str):
        """One whitespace-free chunk's words, character by character (BERT's BasicTokenizer)."""
        chunk = self._clean(chunk)
        word: list[str] = []
        for ch in chunk:
            if ch.isspace():
                if word:
                    yield "".join(word)
                    word = []
            elif _is_punct(ch) or _is_cjk(ord(ch)):
                if word:
                    yield "".join(word)
                    word = []
                yield ch
            else:
                word.append(ch)
        if word:
            yield "".join(word)

    @staticmethod
    def _clean(chunk: str) -> str:
        out = []
        for ch in chunk:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD or (unicodedata.category(ch).startswith("C") and ch not in "\t\n\r"):
                continue
            out.append(ch)
        text = "".join(out).lower()
        if text.isascii():
            return text
        text = unicodedata.normalize("NFD", text)
        return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")

    def _pieces(self, word: str) -> tuple[int, ...]:
        if len(word) > MAX_WORD:
            return (self.unk,)
        out, start, vocab = [], 0, self.vocab
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    out.append(vocab[piece])
                    break
                end -= 1
            else:
                return (self.unk,)
            start = end
        return tuple(out)


_SHARED: WordPiece | None = None


def shared() -> WordPiece:
    """One tokenizer per process (the passage cutter, the static vectors and the model share its
    memoised words)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = WordPiece()
    return _SHARED
