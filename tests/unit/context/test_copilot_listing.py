"""VS Code lists every `.instructions.md` with each request (description, path, applyTo) and
matches `applyTo` whatever the case, as its `computeAutomaticInstructions.ts` does."""

from __future__ import annotations

from .test_context_model import build, repo


def test_every_instructions_file_is_listed_at_start_up_and_its_body_stays_on_demand(tmp_path):
    root = repo(tmp_path, {
        ".github/instructions/ts.instructions.md": "---\ndescription: TypeScript style\napplyTo: '**/*.ts'\n---\nbody\n",
        ".github/instructions/bare.instructions.md": "just a body\n",
        "src/x.ts": "x\n"})
    ctx = build(root, tmp_path, agents=["copilot"]).agents["copilot"]
    listed = {e.path: e.text for e in ctx.startup if "instructions listing" in e.why}
    assert listed == {
        ".github/instructions/ts.instructions.md": "<instruction>\n<description>TypeScript style</description>\n"
                                                  "<file>.github/instructions/ts.instructions.md</file>\n"
                                                  "<applyTo>**/*.ts</applyTo>\n</instruction>",
        ".github/instructions/bare.instructions.md": "<instruction>\n</instruction>"}  # no frontmatter: the tags
    assert {o.path for o in ctx.on_demand} == set(listed)  # the bodies: when they apply, or read from the list
    assert all(e.rule == "copilot/path.listed" for e in ctx.startup if e.path in listed)


def test_an_apply_to_glob_in_another_case_is_not_dead_in_vs_code(tmp_path):
    root = repo(tmp_path, {".github/instructions/ts.instructions.md": "---\napplyTo: '**/*.TS'\n---\nbody\n",
                           ".github/instructions/py.instructions.md": "---\napplyTo: '**/*.py'\n---\nbody\n",
                           "src/x.ts": "x\n"})
    found = build(root, tmp_path, agents=["copilot"]).findings
    assert [f.path for f in found if f.check == "instructions.dead-glob"] == [".github/instructions/py.instructions.md"]


def test_the_files_copilot_instructions_link_to_are_attached_whole_and_an_instructions_file_brings_its_own(tmp_path):
    root = repo(tmp_path, {
        ".github/copilot-instructions.md": "# Rules\nFollow [the style guide](../docs/style.md) and #file:../docs/api.instructions.md\n"
                                           "See [CLAUDE.md](../CLAUDE.md), [the site](https://example.com/x.md), "
                                           "![logo](../docs/logo.md) and [a missing page](../docs/gone.md).\n",
        "CLAUDE.md": "claude\n", "docs/style.md": "style\n", "docs/logo.md": "an image link\n",
        "docs/api.instructions.md": "---\napplyTo: '**/*.py'\n---\nsee [more](more.md)\n", "docs/more.md": "more\n"})
    ctx = build(root, tmp_path, agents=["copilot"]).agents["copilot"]
    attached = {e.path: e.via for e in ctx.startup if e.why.startswith("referenced by")}
    assert attached == {"docs/style.md": ".github/copilot-instructions.md:2",
                        "docs/api.instructions.md": ".github/copilot-instructions.md:2",
                        "docs/more.md": "docs/api.instructions.md:4"}  # CLAUDE.md is attached once, as itself
    assert [e.path for e in ctx.startup].count("CLAUDE.md") == 1
    assert all(e.rule == "copilot/repo.references" for e in ctx.startup if e.path in attached)


def test_markdown_links_are_found_as_vs_codes_regex_finds_them_and_in_one_pass():
    import re
    import time

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from curator.context.parse import markdown_links

    vs_code = re.compile(r"\[(.*?)\]\((.+?)\)")

    @settings(max_examples=400, deadline=None)
    @given(st.text(alphabet="[]()!a ", max_size=40))
    def same(line):
        assert markdown_links(line) == [(m.start(), m.group(2)) for m in vs_code.finditer(line)]

    same()
    started = time.perf_counter()
    markdown_links("[" * 1_000_000 + "](")
    assert time.perf_counter() - started < 1.0  # the regex would try each `[` to the line's end


def test_what_loads_for_a_file_matches_apply_to_whatever_the_case(tmp_path):
    from curator.context.build import loads_for

    root = repo(tmp_path, {".github/instructions/ts.instructions.md": "---\napplyTo: '**/*.TS'\n---\nbody\n",
                           "src/x.ts": "x\n"})
    model = build(root, tmp_path, agents=["copilot"])
    assert [o.path for o in loads_for(model, "src/x.ts")["copilot"]] == [".github/instructions/ts.instructions.md"]
