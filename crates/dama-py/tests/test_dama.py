"""Tests of the Python bindings (run by .ci/run after `pip install ./crates/dama-py`)."""

import contextlib
import copy
import io
import pathlib
import random
import re

import pytest

import dama


@pytest.fixture(scope="module")
def turkish():
    return dama.Rules.builtin("dama")


# -- variants and rules -------------------------------------------------------


def test_variants_lists_builtins():
    ids = dama.variants()
    for v in ("dama", "russian", "english", "brazilian"):
        assert v in ids
    for v in ids:
        assert isinstance(dama.Rules.builtin(v), dama.Rules)


def test_unknown_builtin_is_variant_error():
    with pytest.raises(dama.VariantError) as e:
        dama.Rules.builtin("no-such-variant")
    assert e.value.diagnostics
    assert isinstance(e.value, ValueError)


def test_rules_properties(turkish):
    assert turkish.id == "dama"
    assert (turkish.width, turkish.height) == (8, 8)
    assert len(turkish.squares()) == 64
    assert turkish == dama.Rules.builtin("turkish")
    assert hash(turkish) == hash(dama.Rules.builtin("dama"))


def test_toml_typo_reports_line_and_did_you_mean():
    text = 'extends = "dama"\nid = "mine"\n[capture]\nmajorty = "none"\n'
    with pytest.raises(dama.VariantError) as e:
        dama.Rules.from_toml(text, name="mine.toml")
    diags = e.value.diagnostics
    assert len(diags) == 1
    d = diags[0]
    assert d.line == 4
    assert d.column == 1
    assert d.code.startswith("E")
    assert "majorty" in d.message
    assert d.help is not None and "majority" in d.help
    # One shape for a diagnostic everywhere (issue 31): the location is nested,
    # as in `dama validate --format json`.
    assert d.to_dict()["location"]["line"] == 4
    assert "mine.toml:4:1" in str(e.value)


def test_toml_every_diagnostic_reported():
    text = 'extends = "dama"\n[capture]\nmajorty = "none"\n[men]\nmovs = []\n'
    with pytest.raises(dama.VariantError) as e:
        dama.Rules.from_toml(text)
    assert [d.line for d in e.value.diagnostics] == [3, 5]


def test_toml_valid_extension():
    r = dama.Rules.from_toml('extends = "dama"\nid = "mine"\n[capture]\nmajority = "none"\n')
    assert r.id == "mine"
    assert r != dama.Rules.builtin("dama")
    assert len(r.legal_moves(r.initial())) == 8


def test_from_file(tmp_path):
    p = tmp_path / "mine.toml"
    p.write_text('extends = "dama"\n[capture]\nmajority = "none"\n')
    r = dama.Rules.from_file(p)
    assert r.id == "mine"
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "dama"\n[capture]\nmajorty = "none"\n')
    with pytest.raises(dama.VariantError) as e:
        dama.Rules.from_file(str(bad))
    assert e.value.diagnostics[0].line == 3
    with pytest.raises(FileNotFoundError):
        dama.Rules.from_file(tmp_path / "missing.toml")


# -- perft ---------------------------------------------------------------------


@pytest.mark.parametrize("depth,nodes", [(1, 8), (2, 64), (3, 708), (4, 7538)])
def test_perft_dama_start(turkish, depth, nodes):
    assert turkish.perft(turkish.initial(), depth) == nodes


def test_perft_dama_depth6_threads(turkish):
    assert turkish.perft(turkish.initial(), 6) == 931312
    assert turkish.perft(turkish.initial(), 6, threads=2) == 931312


@pytest.mark.parametrize(
    "variant,figures",
    [("russian", [7, 49, 302, 1469]), ("english", [7, 49, 302, 1469])],
)
def test_perft_other_variants(variant, figures):
    r = dama.Rules.builtin(variant)
    assert [r.perft(r.initial(), d, count="moves") for d in range(1, 5)] == figures


def test_perft_bad_count(turkish):
    with pytest.raises(ValueError):
        turkish.perft(turkish.initial(), 2, count="leaves")


# -- positions and FEN ------------------------------------------------------------


def test_initial_position(turkish):
    pos = turkish.initial()
    assert pos.side_to_move == "white"
    pieces = pos.pieces()
    assert len(pieces) == 32
    assert pieces["a2"] == "w" and pieces["h7"] == "b"
    assert pos.piece_at("d4") is None
    assert pos.variant == "dama"


@pytest.mark.parametrize(
    "fen",
    ["W:Wd6:Bc8,d7", "B:WKa1,b2:BKc5,h8", "W:W:Bd7", "W:Wa2,b2,c2,d2:Ba7,b7,c7,d7"],
)
def test_fen_round_trip(turkish, fen):
    pos = turkish.parse_fen(fen)
    assert turkish.to_fen(pos) == fen
    assert turkish.parse_fen(turkish.to_fen(pos)) == pos
    assert pos.fen == fen


def test_fen_round_trip_start_positions():
    for v in ("dama", "russian", "english", "brazilian", "dameo"):
        r = dama.Rules.builtin(v)
        pos = r.initial()
        assert r.parse_fen(r.to_fen(pos)) == pos


def test_fen_pieces_and_kings(turkish):
    pos = turkish.parse_fen("B:WKa1,b2:Bh8,Kc5")
    assert pos.side_to_move == "black"
    assert pos.pieces() == {"a1": "W", "b2": "w", "c5": "B", "h8": "b"}


def test_fen_error_has_column(turkish):
    with pytest.raises(dama.FenError) as e:
        turkish.parse_fen("W:Wz9")
    assert isinstance(e.value, ValueError)
    assert e.value.column == 4
    assert "column 4" in str(e.value)


def test_position_copy_eq_hash(turkish):
    a = turkish.initial()
    b = a.copy()
    assert a == b and hash(a) == hash(b)
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    c = turkish.play(a, "d3-d4")
    assert c != a
    assert len({a, b, c}) == 2
    assert a != dama.Rules.builtin("russian").initial()


# -- moves ---------------------------------------------------------------------------


def test_legal_moves_start(turkish):
    moves = turkish.legal_moves(turkish.initial())
    assert sorted(str(m) for m in moves) == sorted(f"{f}3-{f}4" for f in "abcdefgh")
    m = moves[0]
    assert not m.is_capture and not m.promotes
    assert m.path == [m.to_square]
    assert m.captures == []


def test_capture_move_fields(turkish):
    pos = turkish.parse_fen("W:Wd6:Bd7,c8")
    (m,) = turkish.legal_moves(pos)
    assert str(m) == "d6xd8xb8"
    assert m.from_square == "d6" and m.to_square == "b8"
    assert m.path == ["d8", "b8"]
    assert m.captures == ["d7", "c8"]
    assert m.is_capture and m.promotes
    after = turkish.play(pos, m)
    assert after.pieces() == {"b8": "W"}
    assert after.side_to_move == "black"


def test_parse_move_and_play_text(turkish):
    pos = turkish.initial()
    m = turkish.parse_move(pos, "d3-d4")
    assert m in turkish.legal_moves(pos)
    assert turkish.play(pos, m) == turkish.play(pos, "d3d4")


def test_illegal_move_explanation(turkish):
    pos = turkish.parse_fen("W:Wd3:Ba7")
    with pytest.raises(dama.IllegalMove) as e:
        turkish.parse_move(pos, "d3-d2")
    assert "men do not move backward" in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(dama.IllegalMove) as e:
        turkish.play(pos, "d3-d2")
    assert "men do not move backward" in str(e.value)


def test_move_syntax_error(turkish):
    with pytest.raises(dama.IllegalMove) as e:
        turkish.parse_move(turkish.initial(), "hello")
    assert "cannot read" in str(e.value)


def test_move_from_another_position_rejected(turkish):
    pos = turkish.initial()
    m = turkish.parse_move(pos, "d3-d4")
    with pytest.raises(dama.IllegalMove):
        turkish.play(turkish.play(pos, m), m)


def test_numeric_notation_english():
    r = dama.Rules.builtin("english")
    pos = r.initial()
    assert pos.side_to_move == "black"
    moves = r.legal_moves(pos)
    assert len(moves) == 7
    assert all(m.from_square.isdigit() for m in moves)
    assert r.play(pos, "11-15") != pos


# -- encode ------------------------------------------------------------------------------


def test_encode_layout(turkish):
    pos = turkish.parse_fen("W:Wa1,Kb2:Bh8,Kc5")
    data = turkish.encode(pos)
    assert isinstance(data, bytes)
    w, h = turkish.width, turkish.height
    assert len(data) == 4 * w * h == 256
    assert sum(data) == 4

    def at(plane, square):
        f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
        return data[plane * w * h + r * w + f]

    assert at(0, "a1") == 1 and at(1, "b2") == 1 and at(2, "h8") == 1 and at(3, "c5") == 1
    assert len(turkish.encode(turkish.initial())) == 256
    assert sum(turkish.encode(turkish.initial())) == 32


def test_encode_length_other_boards():
    for v in dama.variants():
        r = dama.Rules.builtin(v)
        assert len(r.encode(r.initial())) == 4 * r.width * r.height


# -- games and PDN ----------------------------------------------------------------------------


def test_random_game_to_the_end(turkish):
    rng = random.Random(17)
    g = dama.Game(turkish)
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))
        assert len(g) < 2000
    assert g.result in ("1-0", "0-1", "1/2-1/2")
    assert g.reason
    assert g.legal_moves() == []
    with pytest.raises(dama.GameOver):
        g.play("d3-d4")
    # The record replays to the same end.
    (back,) = dama.read_pdn(g.to_pdn(white="a", black="b"))
    assert back.moves == g.moves
    assert back.result == g.result
    assert back.position == g.position


def test_short_game_by_the_rules(turkish):
    # White's king takes Black's last piece.
    g = dama.Game(turkish, turkish.parse_fen("W:WKd1:Bd5"))
    assert g.start_position == turkish.parse_fen("W:WKd1:Bd5")
    m = g.play("d1xd6")
    assert m.captures == ["d5"]
    assert g.is_over and g.result == "1-0"
    assert "no pieces" in g.reason
    assert g.moves == ["d1xd6"]


def test_game_undo(turkish):
    g = dama.Game(turkish)
    assert g.undo() is None
    g.play("d3-d4")
    g.play(g.legal_moves()[0])
    assert len(g.moves) == 2
    last = g.undo()
    assert isinstance(last, dama.Move)
    assert len(g) == 1
    g.undo()
    assert g.position == turkish.initial()
    assert g.result is None and g.reason is None and not g.is_over


def test_game_rejects_illegal(turkish):
    g = dama.Game(turkish)
    with pytest.raises(dama.IllegalMove):
        g.play("d3-d5")
    assert g.moves == []


def test_read_pdn_error_location():
    text = '[Event "x"]\n[Variant "dama"]\n[Result "*"]\n\n1. d3-d4 a6-a5 2. e3-e4 h6-h5\n3. d4-d3 *\n'
    with pytest.raises(dama.PdnError) as e:
        dama.read_pdn(text)
    assert (e.value.line, e.value.column) == (6, 4)
    assert "backward" in str(e.value)


def test_read_pdn_several_games(turkish):
    text = "1. d3-d4 a6-a5 *\n\n1. e3-e4 *\n"
    games = dama.read_pdn(text, rules=turkish)
    assert [g.moves for g in games] == [["d3-d4", "a6-a5"], ["e3-e4"]]


PAST_THREEFOLD = (
    '[GameType "20"]\n[SetUp "1"]\n[FEN "W:WK47,46:BK4,5"]\n\n'
    "1. 47-41 4-9 2. 41-47 9-4 3. 47-41 4-9 4. 41-47 9-4\n5. 47-41 4-10 2-0\n"
)


def test_read_pdn_goes_on_past_a_threefold_repetition_with_a_warning():
    # Issue 37: players record games the arbiter did not stop.
    with pytest.warns(UserWarning, match=r"before `47-41` \(ply 9, move 5\): Draw: threefold repetition"):
        (g,) = dama.read_pdn(PAST_THREEFOLD)
    assert len(g) == 10
    assert g.passed_end == (9, "Draw: threefold repetition")
    assert g.result == "1-0"
    with pytest.raises(dama.PdnError) as e:
        dama.read_pdn(PAST_THREEFOLD, strict=True)
    assert (e.value.line, e.value.column) == (6, 4)


# -- engine ---------------------------------------------------------------------------------------


def test_engine_search(turkish):
    e = dama.Engine(turkish)
    r = e.search(turkish.initial(), depth=4)
    assert r.best in turkish.legal_moves(turkish.initial())
    assert r.depth == 4
    assert r.nodes > 0
    assert isinstance(r.score, int)
    assert r.pv and r.pv[0] == r.best


def test_engine_finds_the_capture(turkish):
    pos = turkish.parse_fen("W:Wd6:Bd7,c8")
    r = dama.Engine(turkish).search(pos, nodes=10_000)
    assert str(r.best) == "d6xd8xb8"


def test_engine_on_game_and_no_moves(turkish):
    g = dama.Game(turkish)
    g.play("d3-d4")
    r = dama.Engine(turkish).search(g, depth=2)
    assert r.best in g.legal_moves()
    over = turkish.parse_fen("W:W:Bd7")
    assert dama.Engine(turkish).search(over, depth=2).best is None


# -- the examples of the docs ------------------------------------------------

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _python_blocks(doc):
    """The ```python blocks of a doc file: (line of the block's first line, text)."""
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            blocks.append((i + 2, "\n".join(lines[i + 1 : j]) + "\n"))
            i = j
        i += 1
    return blocks


def _shown(expected, got):
    """Does a printed line match what a `# comment` shows (`...` elides)?"""
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, got) is not None


@pytest.mark.parametrize("doc", ["docs/python.md", "README.md"])
def test_doc_examples_print_what_they_show(doc):
    """Runs each ```python block of the doc; a `print(...)  # text` line must
    print `text` (`...` stands for anything), so the docs cannot drift."""
    blocks = _python_blocks(doc)
    assert blocks, f"{doc}: no python block found"
    for first, code in blocks:
        shown = []  # (doc line, what the comment shows), one per print
        for k, line in enumerate(code.splitlines()):
            m = re.match(r"\s*print\(.*\)\s+#\s?(.*)$", line)
            if m:
                shown.append((first + k, m.group(1).strip()))
            elif line.lstrip().startswith("print("):
                shown.append((first + k, None))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{doc}:{first}", "exec"), {})
        printed = out.getvalue().splitlines()
        assert len(printed) == len(shown), f"{doc}:{first}: {printed}"
        for (line, expected), got in zip(shown, printed):
            if expected is not None:
                assert _shown(expected, got), (
                    f"{doc}:{line}: the doc shows `{expected}`, the program prints `{got}`"
                )


# -- one shape per view (issue 31) ----------------------------------------------

VIEWS = pathlib.Path(__file__).resolve().parents[3] / "tests" / "views"


def test_move_to_dict_is_the_move_view_of_every_front_end():
    import json

    rules = dama.Rules.builtin("dama")
    pos = rules.parse_fen("W:Wd6,a2:Bd7,c8")
    want = json.loads((VIEWS / "moves.json").read_text())
    assert [m.to_dict() for m in rules.legal_moves(pos)] == want


def test_diagnostic_to_dict_is_the_diagnostic_view_of_every_front_end():
    import json

    text = 'extends = "dama"\n[capture]\nmajorty = "none"\n'
    with pytest.raises(dama.VariantError) as e:
        dama.Rules.from_toml(text, "mine.toml")
    want = json.loads((VIEWS / "diagnostics.json").read_text())
    assert [d.to_dict() for d in e.value.diagnostics] == want


def test_game_to_dict_is_the_game_view_of_every_front_end():
    import json

    rules = dama.Rules.builtin("dama")
    game = dama.Game(rules, rules.parse_fen("W:Wd6:Bd7,c8"), moves=["d6xd8xb8"])
    want = json.loads((VIEWS / "game.json").read_text())
    assert game.to_dict() == want


def test_search_result_to_dict_is_the_search_view_of_every_front_end():
    import json

    rules = dama.Rules.builtin("dama")
    found = dama.Engine(rules).search(rules.parse_fen("W:Wd6:Bd7,c8"), depth=2).to_dict()
    want = json.loads((VIEWS / "search.json").read_text())
    # The time it took is the one figure that changes from run to run.
    assert isinstance(found.pop("ms"), int)
    assert found == want


def test_a_game_starts_with_moves_and_says_which_move_fails():
    rules = dama.Rules.builtin("dama")
    game = dama.Game(rules, moves=["d3-d4", "a6-a5"])
    assert game.moves == ["d3-d4", "a6-a5"]
    with pytest.raises(dama.IllegalMove, match="move 2"):
        dama.Game(rules, moves=["d3-d4", "d4-d5"])
