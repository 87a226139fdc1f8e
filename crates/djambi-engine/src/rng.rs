//! A small seeded random generator (SplitMix64, Steele, Lea & Flood 2014): the engine's only
//! source of chance. Written here rather than taken from a crate so that a seed replays a game
//! exactly, on every platform and whatever crate versions the lock file holds.

/// A SplitMix64 generator: 64 bits of state, statistically good enough for tie-breaks and noise.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose whole future is fixed by `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x2545_f491_4f6c_dd1d)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A uniform integer in `0..n` (`n` ≥ 1; 0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        // Lemire's multiply-shift: unbiased enough for n far below 2^32.
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `percent` / 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A uniform integer in `-amplitude..=amplitude`.
    pub fn noise(&mut self, amplitude: i32) -> i32 {
        if amplitude <= 0 {
            return 0;
        }
        self.below(2 * amplitude as usize + 1) as i32 - amplitude
    }
}

/// The SplitMix64 output function: a bijective mix of 64 bits. The engine derives per-search
/// and per-game seeds with it; the lab's arena seeds its seats the same way.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
            assert!(a.below(13) < 13);
            assert!((-5..=5).contains(&b.noise(5)));
            a.below(13);
            b.noise(5);
        }
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
        assert_eq!(Rng::new(3).below(0), 0);
    }
}
