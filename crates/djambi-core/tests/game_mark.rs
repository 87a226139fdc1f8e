//! Marking a game and rewinding to the mark: the events played since are undone exactly (the
//! server applies a command in place and rewinds if its commit fails).

use djambi_core::{Game, Position};

fn play(game: &mut Game, turns: &[&str]) {
    for t in turns {
        game.play_text(t).unwrap();
    }
}

#[test]
fn rewinding_undoes_what_came_after_the_mark() {
    let mut game = Game::new(Position::new());
    play(&mut game, &["b7-b5"]);
    let mark = game.mark();
    let before = game.clone();
    play(&mut game, &["h7-h5", "h3-h4", "b3-b4"]);
    game.resign(djambi_core::Army::Green).unwrap();
    assert!(game.rewind(mark));
    assert_eq!(game.position(), before.position());
    assert_eq!(game.events(), before.events());
    assert_eq!(game.ranking(), before.ranking());
    // It plays on as if nothing happened.
    play(&mut game, &["h7-h5"]);
    // A mark of a later point cannot be used on an earlier game.
    let later = game.mark();
    let mut earlier = before.clone();
    assert!(!earlier.rewind(later));
    assert_eq!(earlier.events(), before.events());
}
