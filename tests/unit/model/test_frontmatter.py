from curator.model.frontmatter import split_frontmatter


def test_no_frontmatter_returns_text_untouched():
    fm, body, first = split_frontmatter("# Title\nbody\n")
    assert not fm.present and fm.error is None
    assert body == "# Title\nbody\n" and first == 1


def test_mapping_parsed_and_body_starts_after_fence():
    fm, body, first = split_frontmatter("---\ndate: 2026-01-02\ntags: [a, b]\n---\n# T\n")
    assert fm.present and fm.error is None
    assert fm.data["tags"] == ["a", "b"]
    assert body == "# T\n" and first == 5


def test_long_fence_and_trailing_spaces_open_frontmatter():
    fm, _, _ = split_frontmatter("-----  \nk: v\n---\n")
    assert fm.data == {"k": "v"}


def test_unclosed_is_an_error():
    fm, _, _ = split_frontmatter("---\nk: v\n# no close\n")
    assert fm.error == "frontmatter is never closed"


def test_list_is_not_a_mapping():
    fm, _, _ = split_frontmatter("---\n- a\n- b\n---\nx\n")
    assert "not a mapping" in fm.error


def test_broken_yaml_reports_line():
    fm, _, _ = split_frontmatter("---\nok: 1\nbad: [\n---\n")
    assert fm.error.startswith("frontmatter is not valid YAML")
    assert fm.error_line is not None and fm.error_line >= 2


def test_bom_before_frontmatter_is_an_error_but_still_parsed():
    fm, _, _ = split_frontmatter("\ufeff---\nk: v\n---\n")
    assert "byte-order mark" in fm.error
    assert fm.data == {"k": "v"}


def test_quoting_fix_quotes_a_colon_value_and_leaves_an_impossible_date_alone():
    from curator.model.frontmatter import quoted_frontmatter

    assert quoted_frontmatter("---\nname: x\ndescription: use it when: always\n---\n# T\n") == {
        3: 'description: "use it when: always"'}
    # a date YAML parses but cannot build (month 13) is no quoting fix, and never an exception
    assert quoted_frontmatter("---\ndate: 2026-13-45\n---\n# T\n") is None
    assert quoted_frontmatter("---\ndate: 2026-13-45\ndescription: a: b\n---\n# T\n") is None
