"""Claude Code's `paths:` are .gitignore lines (its `vAi`, then its own rewrite of the `ignore`
package, case-insensitive, in 2.1.332). Every expectation below was printed by that matcher, taken
out of the 2.1.332 bundle and run in node on the lines as Claude Code hands them on (braces
expanded, a trailing `/**` dropped); `ignore` 7 prints the same but where a line says otherwise."""

from __future__ import annotations

import pytest

from curator.base.tokens import FakeTokenCounter
from curator.context import build_context
from curator.context.build import loads_for
from curator.context.ignore_lines import claude_lines, dead_negations, ignores

NODE = [
    (["**/*.ts", "!**/*.test.ts"], {"src/a.test.ts": False, "a.ts": True}),
    (["*.ts", "!a.ts"], {"a.ts": False, "src/a.ts": False, "src/b.ts": True}),
    (["src/"], {"src/a.ts": True, "src": False}),
    (["docs/*.md", "!docs/README.md"], {"docs/README.md": False, "docs/x.md": True, "docs/sub/y.md": False}),
    (["!**/*.test.ts"], {"a.ts": False, "a.test.ts": False}),
    (["src/*", "!src/gen"], {"src/gen/b.ts": False, "src/a.ts": True}),
    (["src/*.ts"], {"src/a.ts": True, "lib/src/a.ts": False}),
    (["a/**/b.ts"], {"a/b.ts": True, "a/x/y/b.ts": True}),
    (["src/**/*.ts", "!src/gen/**"], {"src/gen/b.ts": True, "src/a.ts": True}),
    (["src/**", "!src/gen/**"], {"src/gen/b.ts": True, "src/a.ts": True}),
    (["**/*.ts", "!src/**", "src/keep/*.ts"], {"src/keep/a.ts": True, "src/x.ts": True, "lib/a.ts": True}),
    (["src/**/*.ts", "!src/gen/*.ts"], {"src/gen/b.ts": False, "src/a.ts": True}),
    (["src/**/*.ts", "!**/gen/**"], {"src/gen/b.ts": True, "src/a.ts": True}),
    (["**/*.ts", "!**/node_modules/**"], {"node_modules/x/a.ts": True, "a.ts": True}),
    (["src/**/*.ts", "!src/gen/**/*"], {"src/gen/b.ts": False, "src/gen/d/c.ts": False, "src/a.ts": True}),
    (["src/**", "!src/gen/**/*"], {"src/gen/b.ts": True, "src/a.ts": True}),
    (["src/**/*", "!src/gen/**/*"], {"src/gen/b.ts": True, "src/a.ts": True}),
    (["**/*.ts", "!**/node_modules/**/*"], {"node_modules/x/a.ts": False, "a.ts": True}),
    (["**/*.{ts,vue}", "!**/*.test.ts"], {"src/a.vue": True, "src/a.ts": True, "src/a.test.ts": False}),
    # found by a differential fuzzer against node (research/fuzz20.md): `**` only as a whole part,
    # one leading and one trailing `/`, whatever the case, `\c` is the character c
    (["a**b"], {"a/b": False, "axxb": True}),
    (["/**s"], {"a/s": False}),
    (["***/a"], {"a": False, "x/a": True}),  # `***` is `*` for Claude Code (`ignore` 7: `**`)
    (["//a"], {"a": False}),
    (["*//"], {"a/a": False}),
    (["s"], {"S": True}),
    (["*", "!Readme.md"], {"README.md": False, "x.md": True}),
    (["\\a"], {"a": True}),
    (["x\\*"], {"x*": True}),
    (["\\!a"], {"!a": True}),
    (["src/*.ts, lib/*.ts"], {"lib/a.ts": True}),  # Claude Code splits a glob at its commas
    (["src/**/"], {"src/a": True, "src": False, "x/src/a": False}),  # its last `/**/` may be no folder
    (["**/"], {"a/a": True, "a": False}),
    (["*", "!"], {"a": False}),  # a lone `!` takes back everything
    (["[!a]"], {"a": True, "!": True, "b": False}),  # no negated class: `!` and `a`
    (["[^a]"], {"a": True, "b": False}),
    (["x\\*"], {"xy": True}),  # `\*` ending a line is a star
    (["x\\*y"], {"x*y": True, "xzy": False}),  # elsewhere the character
]


@pytest.mark.parametrize(("globs", "want"), NODE)
def test_the_lines_match_as_the_ignore_package_matches_them(globs, want):
    assert {path: ignores(globs, path) for path in want} == want


def test_claude_code_expands_braces_and_drops_a_trailing_double_star():
    assert claude_lines(["src/**", "!gen/**", "a/{b,c}/*.{md, txt}"]) == (
        "src", "!gen", "a/b/*.md", "a/b/*.txt", "a/c/*.md", "a/c/*.txt")


def test_a_negation_that_takes_nothing_back_is_found():
    files = ["src/a.ts", "src/gen/b.ts", "src/a.test.ts"]
    assert dead_negations(["src/**/*.ts", "!src/gen/**"], files) == ["!src/gen/**"]
    assert dead_negations(["src/**", "!src/gen/**/*"], files) == ["!src/gen/**/*"]
    assert dead_negations(["src/**/*.ts", "!src/gen/**/*"], files) == []
    assert dead_negations(["**/*.ts", "!**/*.test.ts"], files) == []
    assert dead_negations(["**/*.ts", "!docs/**/*"], files) == []  # it names no file here: nothing to say


def test_a_huge_brace_list_is_matched_plainly_and_fast():
    import time

    globs = ["x" + "{a,b}" * 5 + ".ts", "y" + "{a,b}" * 5 + ".ts", "!nothing"]  # 65 lines multiplied out
    start = time.process_time()
    assert ignores(globs, "x" + "a" * 5 + ".ts") and not ignores(globs, "z.ts")
    assert dead_negations(globs, ["a.ts"] * 2000) == []
    assert time.process_time() - start < 2


def repo(tmp_path, rules: dict[str, str], files: list[str]):
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# p\n")
    for name, text in rules.items():
        p = tmp_path / ".claude" / "rules" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for f in files:
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_text("x\n")
    return build_context(tmp_path, token_counter=FakeTokenCounter(), env={"HOME": str(tmp_path / "home")},
                         agents=["claude-code"])


def test_what_loads_for_a_file_honours_the_negation_and_says_when_it_cannot(tmp_path):
    model = repo(tmp_path, {
        "utils.md": '---\npaths:\n  - "**/*.{ts,vue}"\n  - "!**/*.test.ts"\n---\n# utils\n',
        "api.md": '---\npaths:\n  - "src/**/*.ts"\n  - "!src/gen/**"\n---\n# api\n',
    }, ["src/a.ts", "src/a.test.ts", "src/gen/b.ts"])

    def loaded(path):
        return sorted(o.path for o in loads_for(model, path)["claude-code"])

    assert loaded("src/a.test.ts") == [".claude/rules/api.md"]  # the test file is taken back from utils
    assert loaded("src/gen/b.ts") == [".claude/rules/api.md", ".claude/rules/utils.md"]  # not from api
    found = [(f.check, f.path) for f in model.findings]
    assert ("instructions.dead-negation", ".claude/rules/api.md") in found
    assert not any(f.check.startswith("instructions.dead") and f.path.endswith("utils.md") for f in model.findings)
    message = next(f.message for f in model.findings if f.check == "instructions.dead-negation")
    assert "write `!src/gen/**/*`" in message


def test_paths_that_are_only_double_star_are_no_paths_and_load_at_start_up(tmp_path):
    model = repo(tmp_path, {"all.md": '---\npaths: "**"\n---\n# all\n', "all2.md": '---\npaths: ["**/**"]\n---\n# b\n',
                            "ts.md": '---\npaths: ["**/*.ts"]\n---\n# ts\n'}, ["a.ts"])
    ctx = model.agents["claude-code"]
    startup = {e.path: e.why for e in ctx.startup}
    assert "its `paths: **` is every file" in startup[".claude/rules/all.md"]
    assert ".claude/rules/all2.md" in startup and ".claude/rules/ts.md" not in startup
    assert [o.path for o in ctx.on_demand if o.trigger == "path"] == [".claude/rules/ts.md"]
