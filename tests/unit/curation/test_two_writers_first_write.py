"""Two curators (the app and the CLI) writing for the first time at once: both make `.curator/`
and its `.gitignore`; neither may take the other's temp file for a crash's and fail with
"No such file or directory" (it did, about one race in four)."""

from __future__ import annotations

import threading

from curator.curation import journal


def test_curators_making_the_journal_folder_at_once_all_succeed(tmp_path):
    for n in range(40):
        root = tmp_path / f"s{n}"
        root.mkdir()
        errors = []

        def make(root=root, errors=errors):
            try:
                journal.curator_dir(root)
            except Exception as exc:  # noqa: BLE001 - the test counts every failure
                errors.append(exc)

        threads = [threading.Thread(target=make) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and (root / ".curator" / ".gitignore").read_bytes() == journal.GITIGNORE
