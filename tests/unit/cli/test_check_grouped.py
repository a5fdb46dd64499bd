"""`curator check`'s text: findings that name one target three times or more read as one entry
with its places (skogai: 34 links to one missing file were 34 entries); JSON keeps each."""

from __future__ import annotations

import json

from curator.cli import main


def test_links_to_one_missing_file_are_one_entry_with_their_places(capsys, make_store):
    files = {f"note_{i}.md": f"# Note {i}\n\nSee [the plan](gone-plan.md).\n" for i in range(4)}
    files["other.md"] = "# Other\n\nSee [x](elsewhere.md).\n"
    root = make_store(files)
    main(["check", str(root), "--format", "json"])
    found = [f for f in json.loads(capsys.readouterr().out)["findings"] if f["check"] == "links.broken"]
    assert len(found) == 5
    main(["check", str(root)])
    text = capsys.readouterr().out
    assert text.count("gone-plan.md  in 4 places, the first: link to gone-plan.md") == 1
    assert all(f"note_{i}.md:3" in text for i in range(4))
    assert "other.md:3" in text and "elsewhere.md" in text and "places" not in text.split("other.md:3")[1].split("\n")[0]
