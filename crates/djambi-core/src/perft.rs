//! Perft: counting turn sequences, the standard check of a move generator.

use crate::position::Position;
use crate::turn::Turn;

/// The number of distinct sequences of exactly `depth` turns from `pos` (a pass is a turn; a
/// sequence cut short by the end of the game does not count; `perft(pos, 0)` is 1).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Turn>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    perft_inner(pos, depth, &mut buffers)
}

fn perft_inner(pos: &Position, depth: u32, buffers: &mut [Vec<Turn>]) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
            pos.legal_turns_into(buf);
            let mut total = 0;
            for turn in buf.iter() {
                let mut next = *pos;
                next.play_unchecked(turn);
                total += perft_inner(&next, depth - 1, rest);
            }
            total
        }
    }
}
