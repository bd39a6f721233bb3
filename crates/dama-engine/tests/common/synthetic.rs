//! Synthetic variants shared by the differential test
//! (`tests/differential.rs`) and the count table of `benches/variants.rs`:
//! each is a shipped variant with one or two rule parameters changed, so
//! that every parameter value is exercised by some variant.

/// Synthetic variants: a shipped variant with one or two parameters changed.
pub const SYNTHETIC: &[(&str, &str)] = &[
    ("dama-end-of-move", "extends = \"dama\"\n[capture]\nremoval = \"end_of_move\"\n"),
    ("dama-reversal", "extends = \"dama\"\n[capture]\nno_reversal = false\n"),
    ("dama-no-majority", "extends = \"dama\"\n[capture]\nmajority = \"none\"\n"),
    // Issue 14: the capture choice by value and priorities, men that may
    // not take kings, the S2r crowning, killer's halt, a light a1.
    (
        "dama-max-value",
        "extends = \"dama\"\n[capture]\nmajority = \"max_value\"\nman_value = 2\nking_value = 3\npriority = [\"by_king\"]\n",
    ),
    (
        "dama-priorities",
        "extends = \"dama\"\n[capture]\nmajority = \"none\"\npriority = [\"kings_first\", \"most_kings\", \"by_king\"]\n",
    ),
    ("dama-men-spare-kings", "extends = \"dama\"\n[men]\ncapture_kings = false\n"),
    (
        "dama-s2r",
        "extends = \"dama\"\n[capture]\npromote_mid_capture = \"promote_and_continue_any_direction\"\n",
    ),
    ("dama-halt-behind-king", "extends = \"dama\"\n[kings]\nhalt_behind_king = true\n"),
    (
        "russian-halt-behind-king",
        "extends = \"russian\"\n[kings]\nhalt_behind_king = true\n[capture]\npriority = [\"most_kings\"]\n",
    ),
    (
        "russian-light-corner",
        "extends = \"russian\"\n[board]\nlower_left = \"light\"\n[setup]\nwhite = [\"b1-h3\"]\nblack = [\"a6-h8\"]\n",
    ),
    ("dama-stop", "extends = \"dama\"\n[capture]\npromote_mid_capture = \"stop\"\n"),
    ("dama-king-step", "extends = \"dama\"\n[kings]\nmove_range = 1\n"),
    ("dama-king-range-2", "extends = \"dama\"\n[kings]\nmove_range = 2\n"),
    (
        "dama-short-king",
        "extends = \"dama\"\n[kings]\ncapture_range = \"short\"\nlanding = \"adjacent_beyond\"\n",
    ),
    ("dama-short-king-any-landing", "extends = \"dama\"\n[kings]\ncapture_range = \"short\"\n"),
    ("dama-adjacent-landing", "extends = \"dama\"\n[kings]\nlanding = \"adjacent_beyond\"\n"),
    (
        "dama-must-continue",
        "extends = \"dama\"\n[kings]\nlanding_must_continue = true\n[capture]\nmajority = \"none\"\n",
    ),
    ("dama-optional", "extends = \"dama\"\n[capture]\nmandatory = false\n"),
    (
        "dama-optional-free",
        "extends = \"dama\"\n[capture]\nmandatory = false\nmajority = \"none\"\n",
    ),
    ("dama-promotion-rank-7", "extends = \"dama\"\n[promotion]\nrank = 7\n"),
    (
        "dama-6x6",
        "extends = \"dama\"\n[board]\nwidth = 6\nheight = 6\n[setup]\nwhite = [\"a2-f2\"]\nblack = [\"a5-f5\"]\n",
    ),
    (
        "dama-5x7",
        "extends = \"dama\"\n[board]\nwidth = 5\nheight = 7\n[setup]\nwhite = [\"a2-e3\"]\nblack = [\"a5-e6\"]\n",
    ),
    (
        "keny-chain-any",
        "extends = \"keny\"\n[men]\nfriendly_jump_chain = true\nfriendly_jump_over = \"any\"\n",
    ),
    ("keny-chain", "extends = \"keny\"\n[men]\nfriendly_jump_chain = true\n"),
    ("keny-over-any", "extends = \"keny\"\n[men]\nfriendly_jump_over = \"any\"\n"),
    (
        "keny-promote-and-continue",
        "extends = \"keny\"\n[capture]\npromote_mid_capture = \"promote_and_continue\"\n",
    ),
    ("keny-stop", "extends = \"keny\"\n[capture]\npromote_mid_capture = \"stop\"\n"),
    (
        "keny-end-of-move-reversal",
        "extends = \"keny\"\n[capture]\nremoval = \"end_of_move\"\nno_reversal = false\n",
    ),
    ("croda-immediate", "extends = \"croda\"\n[capture]\nremoval = \"immediate\"\n"),
    (
        "croda-promote-and-continue",
        "extends = \"croda\"\n[capture]\npromote_mid_capture = \"promote_and_continue\"\n",
    ),
    ("dameo-stop", "extends = \"dameo\"\n[capture]\npromote_mid_capture = \"stop\"\n"),
    (
        "dameo-friendly-chain",
        "extends = \"dameo\"\n[men]\nfriendly_jumps = [\"F\", \"FL\", \"FR\", \"L\", \"R\"]\nfriendly_jump_chain = true\n",
    ),
    (
        "all-eight",
        "extends = \"armenian\"\n[men]\ncaptures = [\"F\", \"B\", \"L\", \"R\", \"FL\", \"FR\", \"BL\", \"BR\"]\n\
         [kings]\ncaptures = [\"F\", \"B\", \"L\", \"R\", \"FL\", \"FR\", \"BL\", \"BR\"]\n",
    ),
    (
        "diagonal-8x8",
        "extends = \"dama\"\n[board]\nsquares = \"dark\"\n[setup]\nwhite = [\"a1-h3\"]\nblack = [\"a6-h8\"]\n\
         [men]\nmoves = [\"FL\", \"FR\"]\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         [kings]\nmoves = [\"FL\", \"FR\", \"BL\", \"BR\"]\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         [capture]\nremoval = \"end_of_move\"\n",
    ),
    (
        "diagonal-6x6-short",
        "extends = \"dama\"\n[board]\nwidth = 6\nheight = 6\nsquares = \"dark\"\n\
         [setup]\nwhite = [\"a1-f2\"]\nblack = [\"a5-f6\"]\n\
         [men]\nmoves = [\"FL\", \"FR\"]\ncaptures = [\"FL\", \"FR\"]\n\
         [kings]\nmoves = [\"FL\", \"FR\", \"BL\", \"BR\"]\nmove_range = 1\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         capture_range = \"short\"\nlanding = \"adjacent_beyond\"\n\
         [capture]\nmajority = \"none\"\nno_reversal = false\npromote_mid_capture = \"stop\"\n",
    ),
    (
        "diagonal-7x5-immediate",
        "extends = \"dama\"\n[board]\nwidth = 7\nheight = 5\nsquares = \"dark\"\n\
         [setup]\nwhite = [\"a1-g1\"]\nblack = [\"a5-g5\"]\n\
         [men]\nmoves = [\"FL\", \"FR\"]\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         [kings]\nmoves = [\"FL\", \"FR\", \"BL\", \"BR\"]\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         [capture]\npromote_mid_capture = \"promote_and_continue\"\n",
    ),
    // Boards larger than 8×8 (up to 16×16), beside the shipped international
    // (10×10), canadian (12×12) and dama-10x10: the generator numbers their
    // squares otherwise and works in other words (see `Layout`): the dark
    // squares of 10×10 (50 bits, u64) and 11×9 (odd rows); every square of
    // 10×10 (100 bits, u128) and 16×16 (256 bits).
    (
        // Russian rules (crowned mid-capture, landing must continue) on 10×10.
        "russian-10x10",
        "extends = \"russian\"\n[board]\nwidth = 10\nheight = 10\n\
         [setup]\nwhite = [\"a1-j4\"]\nblack = [\"a7-j10\"]\n",
    ),
    (
        // An odd width on the dark squares, short kings, promotion rank 8.
        "diagonal-11x9-short",
        "extends = \"brazilian\"\n[board]\nwidth = 11\nheight = 9\n\
         [setup]\nwhite = [\"a1-k3\"]\nblack = [\"a7-k9\"]\n\
         [kings]\nmove_range = 1\ncapture_range = \"short\"\nlanding = \"adjacent_beyond\"\n\
         landing_must_continue = false\n[promotion]\nrank = 8\n",
    ),
    (
        "keny-10x10",
        "extends = \"keny\"\n[board]\nwidth = 10\nheight = 10\n[setup]\nwhite = [\"a2-j3\"]\nblack = [\"a8-j9\"]\n",
    ),
    (
        "dameo-10x10",
        "extends = \"dameo\"\n[board]\nwidth = 10\nheight = 10\n[setup]\nwhite = [\"a1-j3\"]\nblack = [\"a8-j10\"]\n",
    ),
    (
        // Turkish on 16×16 (the 256-bit word). Kings fly but capture only
        // over an adjacent piece: flying captures with pieces vanishing at
        // once have too many paths on a board this big for the reference.
        "dama-16x16",
        "extends = \"dama\"\n[board]\nwidth = 16\nheight = 16\n[setup]\nwhite = [\"a2-p3\"]\nblack = [\"a14-p15\"]\n\
         [kings]\ncapture_range = \"short\"\nlanding = \"adjacent_beyond\"\n",
    ),
    // A blocked side passes (end.no_legal_move = "pass") on a dark-square
    // board, where men on the edges are often hemmed in.
    (
        "diagonal-6x6-pass",
        "extends = \"dama\"\n[board]\nwidth = 6\nheight = 6\nsquares = \"dark\"\n\
         [setup]\nwhite = [\"a1-f2\"]\nblack = [\"a5-f6\"]\n\
         [men]\nmoves = [\"FL\", \"FR\"]\ncaptures = [\"FL\", \"FR\"]\n\
         [kings]\nmoves = [\"FL\", \"FR\", \"BL\", \"BR\"]\nmove_range = 1\ncaptures = [\"FL\", \"FR\", \"BL\", \"BR\"]\n\
         capture_range = \"short\"\nlanding = \"adjacent_beyond\"\n\
         [end]\nno_legal_move = \"pass\"\n",
    ),
    (
        // Frisian on 8×8: orthogonal captures of two squares on the 8-wide
        // grid (its line-attack lookups), and a limit of one king move in a row.
        "frisian-8x8",
        "extends = \"frisian\"\n[board]\nwidth = 8\nheight = 8\n\
         [setup]\nwhite = [\"a1-h3\"]\nblack = [\"a6-h8\"]\n[kings]\nmax_consecutive_moves = 1\n",
    ),
    (
        // Frisian on 12×12 (the u128 word, halved layout), pieces leaving at
        // once, short kings (flying ones have too many paths for the reference).
        "frisian-12x12-immediate",
        "extends = \"frisian\"\n[board]\nwidth = 12\nheight = 12\n\
         [setup]\nwhite = [\"a1-l4\"]\nblack = [\"a9-l12\"]\n[capture]\nremoval = \"immediate\"\n\
         [kings]\ncapture_range = \"short\"\nlanding = \"adjacent_beyond\"\nlanding_must_continue = false\n",
    ),
];
