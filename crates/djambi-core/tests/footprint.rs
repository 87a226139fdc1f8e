//! Static costs of a position: its size (issue 2 asks for at most 128 bytes, as bots copy
//! positions millions of times), and that playing a turn allocates nothing.

use djambi_core::{Position, Rules, Turn};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

/// One test only: the allocation counter is process-wide, so no other test may run beside it.
#[test]
fn position_is_small_and_playing_allocates_nothing() {
    let size = std::mem::size_of::<Position>();
    println!("size_of::<Position>() = {size} bytes");
    assert!(size <= 128, "Position is {size} bytes");
    let middle = Position::from_dpn(
        "CrXMr1Nb1MbRbCb/Rr5MbDbAb/MrMrDr4Mb1/Nr1Mr6/3My3Mb1/3Ng5/MgMg2Mg1NyArMy/AgDgMg1Rg1Dy1Ry/Cg5MyAyCy y rbyg b 0 - 1 19",
        Rules::default(),
    )
    .unwrap();
    let turns = middle.legal_turns();
    assert!(turns.len() > 300);
    let mut played = 0;
    let region = Region::new(GLOBAL);
    for t in &turns {
        let mut p = middle;
        p.play(t).unwrap();
        played += usize::from(p.is_legal(&Turn::Pass));
    }
    let stats = region.change();
    assert_eq!(stats.allocations, 0, "play allocated: {stats:?}");
    assert_eq!(played, 0, "no position after these turns has only a pass");
}
