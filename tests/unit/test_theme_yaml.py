"""Theme files are read with curator's bounded YAML loader: an alias bomb is a failure said in
one line, never a hang, and a good file beside it still loads."""

from __future__ import annotations

from curator.tui.themes import load_theme_files

# nine levels of nine aliases: 387 million values once anything walks them (here: a variable
# made text)
BOMB = "variables:\n  a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"  {chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


def test_an_alias_bomb_is_refused_and_the_good_theme_loads(tmp_path):
    (tmp_path / "bomb.yaml").write_text("name: bomb\nprimary: '#ffffff'\n" + BOMB, encoding="utf-8")
    (tmp_path / "good.yaml").write_text("name: good\nprimary: '#112233'\n", encoding="utf-8")
    themes, failures = load_theme_files(tmp_path)
    assert [t.name for t in themes] == ["good"]
    assert [p.name for p, _ in failures] == ["bomb.yaml"]
    assert "\n" not in failures[0][1] and failures[0][1]
