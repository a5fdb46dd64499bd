"""The lab runs numpy's BLAS on one thread (base/blas.py): two products side by side (the query's
vector, the static candidates) each on every core starved each other and the UI."""

from __future__ import annotations

import pytest

from curator.base.blas import one_thread
from curator.tui.screens.lab_engines import LabEngines

threadpoolctl = pytest.importorskip("threadpoolctl")
pytest.importorskip("numpy")


def _blas_threads() -> set[int]:
    return {i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"}


class _Engine:
    def start_semantic(self, progress) -> None:
        pass

    def prepare(self, lean: bool = False):
        return self


def test_the_lab_engine_with_meaning_leaves_blas_on_one_thread():
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):  # as a fresh process on two cores
        if _blas_threads() != {2}:
            pytest.skip("this machine's BLAS runs on one thread whatever is asked")
        engine = _Engine()
        assert LabEngines.with_meaning(engine, None) is engine
        assert _blas_threads() == {1}
        assert one_thread() and _blas_threads() == {1}  # asked again: nothing changes
