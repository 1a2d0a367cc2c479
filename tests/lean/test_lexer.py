from paperlint.lean.lexer import Kind, code_tokens, ident_parts, mask, tokenize


def _code_texts(text):
    return [t.text for t in code_tokens(text)]


def test_nested_block_comment_hides_everything_inside():
    text = "/- a /- b -/ sorry -/ x"
    assert _code_texts(text) == ["x"]


def test_doc_and_module_doc_comments_are_comments():
    text = "/-- doc sorry -/\n/-! module sorry -/\ny"
    assert _code_texts(text) == ["y"]


def test_line_comment_ends_at_newline():
    assert _code_texts("a -- sorry\nb") == ["a", "b"]


def test_string_with_escaped_quote_is_one_token():
    tokens = [t for t in tokenize('f "a\\"sorry" g') if t.kind is Kind.STRING]
    assert [t.text for t in tokens] == ['"a\\"sorry"']
    assert _code_texts('f "a\\"sorry" g') == ["f", "g"]


def test_interpolated_string_braces_are_code():
    assert "sorry" in _code_texts('s!"x = {sorry}"')
    assert "sorry" not in _code_texts('"x = {sorry}"')


def test_raw_string_is_a_string():
    assert _code_texts('r#"sorry " quote"# z') == ["z"]


def test_primes_are_part_of_identifiers_not_char_literals():
    assert _code_texts("theorem foo' (h' : x') : True") == [
        "theorem",
        "foo'",
        "(",
        "h'",
        ":",
        "x'",
        ")",
        ":",
        "True",
    ]


def test_char_literals_including_quote_and_escapes():
    kinds = [t.kind for t in tokenize("'a' '\"' '\\'' '\\\\' '\\x41'")]
    assert kinds == [Kind.CHAR] * 5


def test_double_quote_in_char_literal_does_not_open_a_string():
    assert _code_texts("def q := '\"'\ntheorem t := sorry")[-1] == "sorry"


def test_image_and_preimage_notation_are_symbols_not_char_literals():
    assert _code_texts("f '' s ⊆ g ⁻¹' t") == ["f", "''", "s", "⊆", "g", "⁻¹'", "t"]


def test_quoted_names_are_single_identifiers():
    tokens = code_tokens("Foo.«sorry here».bar")
    assert [(t.kind, t.text) for t in tokens] == [(Kind.IDENT, "Foo.«sorry here».bar")]
    assert ident_parts(tokens[0].text) == ["Foo", "«sorry here»", "bar"]


def test_name_literals_are_not_identifiers():
    assert [t.kind for t in tokenize("`sorry ``Nat.add")] == [Kind.NAME, Kind.NAME]
    assert [t.text for t in tokenize("`sorry ``Nat.add")] == ["`sorry", "``Nat.add"]


def test_positions_are_one_based_lines_and_zero_based_columns():
    token = code_tokens("/- x\n y -/\n  ℝ sorry")[1]
    assert (token.text, token.line, token.col) == ("sorry", 3, 4)


def test_mask_keeps_length_and_newlines():
    text = 'a /- b\nc -/ "d" -- e\nf'
    masked = mask(text)
    assert len(masked) == len(text)
    assert masked.split("\n")[0].strip() == "a"
    assert masked.count("\n") == text.count("\n")
    assert masked.split()[-1] == "f"


def test_unterminated_comment_runs_to_the_end_without_raising():
    assert _code_texts("x /- sorry") == ["x"]
    assert _code_texts('x "sorry') == ["x"]


def test_hash_commands_are_one_token():
    tokens = code_tokens("#print axioms foo\n#eval 1")
    assert [(t.kind, t.text) for t in tokens][:2] == [
        (Kind.HASH_COMMAND, "#print"),
        (Kind.IDENT, "axioms"),
    ]


def test_random_text_never_raises_and_positions_match_offsets():
    import random

    pieces = [*"abs rx'\"\\/-!{}()[]⟨⟩«»#@:=|\n\tr.+*1_`", "sorry", "/-", "-/", "--", 's!"', 'r#"']
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 50)))
        assert len(mask(text)) == len(text)
        for token in tokenize(text):
            assert text[token.offset : token.end] == token.text
            assert token.line == text.count("\n", 0, token.offset) + 1
            assert token.col == token.offset - (text.rfind("\n", 0, token.offset) + 1)
