//! NOTATION §2: every rejection the DPN parser must make, each with the field its error names,
//! and the accepted edge cases (finished games, hostage control).

use djambi_core::{Field, Position, Rules, START_DPN};

fn parse(s: &str) -> Result<Position, djambi_core::SetupError> {
    Position::from_dpn(s, Rules::default())
}

#[test]
fn every_listed_rejection_names_its_field() {
    let cases: &[(&str, Field)] = &[
        // Exactly 8 fields separated by single spaces.
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0", Field::Position),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1 1", Field::Position),
        ("Cr8/9/9/9/9/9/9/9/8Cb r  rb-- - 0 - 0 1", Field::Position),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1 ", Field::Position),
        ("Cr8/9/9/9/9/9/9/9/8Cb\tr rb-- - 0 - 0 1", Field::Position),
        // A rank of exactly 9 squares, no two digits in a row, known letters.
        ("Cr8/9/9/9/9/9/9/9/7Cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/9Cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/44Cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/8Qb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/8Cx r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/8cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1", Field::Board),
        // More than one chief of an army; a living piece other than a chief on the maze.
        ("CrCr7/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1", Field::Board),
        ("Cr8/9/9/9/4Mr4/9/9/9/8Cb r rb-- - 0 - 0 1", Field::Board),
        // Control: a living player not controlling its own army, a dead player controlling an
        // army, two hostages, a hostage without a living chief, no living player.
        ("Cr8/9/9/9/9/9/9/9/8Cb r rr-- - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r r--- - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rby- - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rbyy - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/Cg7Cb r rbhh - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-h - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/Cg7Cb r rbgh - 0 - 0 1", Field::Control),
        ("X8/9/9/9/9/9/9/9/9 - ---- - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb- - 0 - 0 1", Field::Control),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rbx- - 0 - 0 1", Field::Control),
        // To move: only one living player; a player who is not alive; not a player letter.
        ("Cr8/9/9/9/9/9/9/9/9 r r--- - 0 - 0 1", Field::ToMove),
        ("Cr8/9/9/9/9/9/9/9/8Cb y rb-- - 0 - 0 1", Field::ToMove),
        ("Cr8/9/9/9/9/9/9/9/Cg7Cb g rb-h - 0 - 0 1", Field::ToMove),
        ("Cr8/9/9/9/9/9/9/9/8Cb R rb-- - 0 - 0 1", Field::ToMove),
        ("Cr8/9/9/9/9/9/9/9/8Cb rb rb-- - 0 - 0 1", Field::ToMove),
        // Last regular: the hostage army; not a player letter.
        (
            "Cr8/9/9/9/9/9/9/9/Cg7Cb r rb-h g 0 - 0 1",
            Field::LastRegular,
        ),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- x 0 - 0 1", Field::LastRegular),
        // Bonus: above 0 without the ruler to move, the ruler to move with 0, 2 without
        // exactly 2 living players, not 0–2.
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 1 - 0 1", Field::Bonus),
        ("9/9/9/9/4Cr4/9/9/9/8Cb b rb-- r 1 - 0 1", Field::Bonus),
        ("9/9/9/9/4Cr4/9/9/9/8Cb r rb-- b 0 - 0 1", Field::Bonus),
        ("9/9/9/9/4Cr4/9/9/9/Cy7Cb r rby- b 2 - 0 1", Field::Bonus),
        ("9/9/9/9/4Cr4/9/9/9/8Cb r rb-- b 3 - 0 1", Field::Bonus),
        ("9/9/9/9/4Cr4/9/9/9/8Cb r rb-- b 01 - 0 1", Field::Bonus),
        ("Cr8/9/9/9/9/9/9/9/8Cb - rb-- - 1 - 0 1", Field::Bonus),
        // Passed: a player twice, a player not alive, out of base order, unknown letters.
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 bb 0 1", Field::Passed),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 y 0 1", Field::Passed),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 br 0 1", Field::Passed),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 rx 0 1", Field::Passed),
        ("Cr8/9/9/9/9/9/9/9/Cg7Cb r rb-h - 0 g 0 1", Field::Passed),
        // Quiet and turn: plain numbers, turn ≥ 1.
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - x 1", Field::Quiet),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 01 1", Field::Quiet),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - -1 1", Field::Quiet),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - +1 1", Field::Quiet),
        (
            "Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 1234567890 1",
            Field::Quiet,
        ),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 0", Field::Turn),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 x", Field::Turn),
        ("Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 01", Field::Turn),
        (
            "Cr8/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1234567890",
            Field::Turn,
        ),
    ];
    for (dpn, field) in cases {
        let err = parse(dpn).expect_err(dpn);
        assert_eq!(err.field, *field, "{dpn}: {err}");
        assert!(
            err.to_string().starts_with(&format!("{}: ", field.name())),
            "{dpn}: {err}"
        );
    }
}

#[test]
fn accepted_edge_cases_round_trip() {
    for dpn in [
        START_DPN,
        &START_DPN.replace("rbyg", "rbyh"),
        &START_DPN
            .replace("rbyg", "hbyg")
            .replace(" r hbyg", " b hbyg"),
        // Finished games: a winner, and a draw (to-move `-` with several players alive).
        "Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9",
        "Cr8/9/9/9/9/9/9/9/8Cb - rb-- r 0 - 12 9",
        // Red rules from the maze with two players: two bonus turns; vassals and orphans.
        "9/9/9/9/4Cr4/9/9/9/8Cb r rbr- b 2 - 0 7",
        "9/9/9/9/4Cr4/9/9/9/Cy7Cb r rby- b 1 by 3 7",
        // A corpse on the maze; the largest numbers.
        "Cr8/9/9/9/4X4/9/9/9/8Cb b rb-- r 0 - 999999999 999999999",
        // Armies holding any pieces.
        "CrMbMbMb5/9/9/9/9/9/9/9/8Cb r rb-- - 0 - 0 1",
    ] {
        let pos = parse(dpn).unwrap_or_else(|e| panic!("{dpn}: {e}"));
        assert_eq!(pos.to_dpn(), dpn);
    }
}

/// Fuzzing finding (`fuzz/corpus/dpn/finding-quiet-counter-overflow`): from a position with
/// the largest quiet count, a quiet turn wrote `quiet` as 1000000000, a DPN the parser (rightly,
/// at most 9 digits) refuses. The counters now stop at 999999999: every position a game reaches
/// writes DPN that reads back.
#[test]
fn fuzz_quiet_counter_overflow() {
    let mut pos = parse("Cr8/9/9/9/9/9/9/Mr8/8Cb r rb-- - 0 - 999999999 5").unwrap();
    pos.play(&pos.parse_turn("a2-a3").unwrap()).unwrap();
    assert_eq!(pos.quiet(), 999_999_999);
    assert_eq!(parse(&pos.to_dpn()), Ok(pos));
    // With the largest turn limit, the count still reaches it and the game is drawn (R12.4).
    let rules: Rules = "turn_limit=999999999".parse().unwrap();
    let mut pos =
        Position::from_dpn("Cr8/9/9/9/9/9/9/Mr8/8Cb r rb-- - 0 - 999999998 5", rules).unwrap();
    pos.play(&pos.parse_turn("a2-a3").unwrap()).unwrap();
    assert!(pos.is_game_over());
    assert_eq!(Position::from_dpn(&pos.to_dpn(), rules), Ok(pos));
}

/// Fuzzing finding (`fuzz/corpus/dpn/finding-turn-counter-overflow`): the same for the turn
/// number, from a position at turn 999999999; and a `Setup` (public fields) with a count DPN
/// cannot write is refused like the text would be.
#[test]
fn fuzz_turn_counter_overflow() {
    let mut pos = parse(&START_DPN.replace(" 0 1", " 0 999999999")).unwrap();
    for _ in 0..3 {
        pos.play(&pos.legal_turns()[0]).unwrap();
        assert_eq!(pos.turn(), 999_999_999);
        assert_eq!(parse(&pos.to_dpn()), Ok(pos));
    }
    let mut setup = Position::new().to_setup();
    setup.turn = 1_000_000_000;
    let err = Position::from_setup(setup, Rules::default()).unwrap_err();
    assert_eq!(err.field, Field::Turn);
    setup.turn = 1;
    setup.quiet = 1_000_000_000;
    let err = Position::from_setup(setup, Rules::default()).unwrap_err();
    assert_eq!(err.field, Field::Quiet);
}
