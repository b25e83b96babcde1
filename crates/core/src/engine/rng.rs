//! The table's one random generator, unbiased bounded draws and the Fisher–Yates shuffle.
//!
//! Everything random at a table goes through [`TableRng`]: a ChaCha8 stream seeded with 256 bits. Draws use
//! fixed-width integers only (never `usize`), so a seed gives the same cards on 64-bit native and on wasm32.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// 256 bits that fix every card a table will deal.
pub type Seed = [u8; 32];

/// The operating system could not provide entropy for a fresh table.
#[derive(Debug, Error)]
#[error("the operating system could not provide 256 bits of entropy to seed the table: {0}")]
pub struct EntropyError(String);

/// A fresh seed from 256 bits of operating-system entropy (never the clock).
pub fn os_seed() -> Result<Seed, EntropyError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed).map_err(|e| EntropyError(e.to_string()))?;
    Ok(seed)
}

/// A fresh number to seed a table from (the number `--seed N` would pin), from the operating system's entropy.
pub fn os_seed_number() -> Result<u64, EntropyError> {
    let seed = os_seed()?;
    let mut first = [0u8; 8];
    first.copy_from_slice(&seed[..8]);
    Ok(u64::from_le_bytes(first))
}

/// Expands a short number (a `--seed 7` on the command line) into a full seed, the same way on every platform.
pub fn seed_from_number(number: u64) -> Seed {
    // SplitMix64, as rand_core's `seed_from_u64` does, written out so the mapping can never change under us.
    let mut state = number;
    let mut seed = [0u8; 32];
    for chunk in seed.chunks_exact_mut(8) {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    seed
}

/// The seeded generator of one table. Serializable, so a saved table resumes mid-stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRng(ChaCha8Rng);

impl TableRng {
    /// A generator that will produce the same stream for the same seed on every platform.
    pub fn from_seed(seed: Seed) -> TableRng {
        TableRng(ChaCha8Rng::from_seed(seed))
    }

    /// A uniform integer in `0..bound`. `bound` must be at least 1.
    #[inline(always)]
    pub fn below(&mut self, bound: u32) -> u32 {
        let rng = &mut self.0;
        below_u32(bound, || rng.next_u32())
    }

    /// A seed for another generator, from this one's stream.
    pub fn next_seed(&mut self) -> Seed {
        let mut seed = [0u8; 32];
        for chunk in seed.chunks_exact_mut(4) {
            chunk.copy_from_slice(&self.0.next_u32().to_le_bytes());
        }
        seed
    }

    /// Takes a uniformly chosen item out of `items` (see [`take_random`]).
    #[inline(always)]
    pub fn take<T>(&mut self, items: &mut Vec<T>) -> Option<T> {
        take_random(items, |bound| self.below(bound))
    }
}

/// Lemire's multiply-and-reject method for a uniform integer in `0..bound`, for one word width.
///
/// Written once as a macro so the exhaustive test can run the very same code on `u8`, where every input word
/// can be enumerated, while the table uses `u32`.
macro_rules! bounded_draw {
    ($name:ident, $word:ty, $wide:ty) => {
        /// A uniform value in `0..bound` from a source of uniform words, without modulo bias.
        #[inline]
        pub fn $name(bound: $word, mut next: impl FnMut() -> $word) -> $word {
            assert!(bound > 0, "a draw needs at least one outcome");
            let bits = <$word>::BITS;
            let mut product = <$wide>::from(next()) * <$wide>::from(bound);
            let mut low = product as $word;
            if low < bound {
                // Words whose low half falls under this threshold would over-represent some outcomes.
                let threshold = bound.wrapping_neg() % bound;
                while low < threshold {
                    product = <$wide>::from(next()) * <$wide>::from(bound);
                    low = product as $word;
                }
            }
            (product >> bits) as $word
        }
    };
}

bounded_draw!(below_u32, u32, u64);
bounded_draw!(below_u8, u8, u16);

/// One step of the Fisher–Yates shuffle: takes a uniformly chosen item, moving the last item into its place.
///
/// Taking every item this way yields each permutation with equal probability when `pick(n)` is uniform in `0..n`,
/// exactly as shuffling first and then dealing from the top would; the shoe deals this way so that only the cards
/// actually dealt cost a random draw.
#[inline(always)]
pub fn take_random<T>(items: &mut Vec<T>, pick: impl FnOnce(u32) -> u32) -> Option<T> {
    let len = u32::try_from(items.len()).expect("a shoe holds far fewer than 2^32 cards");
    match len {
        0 => None,
        1 => items.pop(),
        _ => Some(items.swap_remove(pick(len) as usize)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounded_draw_is_exactly_uniform_for_every_u8_bound() {
        // Feed every possible word once per outcome slot and count what comes out: rejection must leave each
        // outcome with exactly the same number of accepted words.
        for bound in 1..=u8::MAX {
            let mut counts = vec![0u32; usize::from(bound)];
            for word in 0..=u8::MAX {
                let mut first = true;
                let mut rejected = false;
                let value = below_u8(bound, || {
                    if first {
                        first = false;
                        word
                    } else {
                        // A rejected first word is not counted; 255 is always accepted, which ends the loop.
                        rejected = true;
                        u8::MAX
                    }
                });
                if !rejected {
                    counts[usize::from(value)] += 1;
                }
            }
            let expected = 256 / u32::from(bound);
            assert!(
                counts.iter().all(|&c| c == expected),
                "bound {bound}: {counts:?}"
            );
        }
    }

    #[test]
    fn seeds_from_numbers_are_stable() {
        // Pinned to SplitMix64 computed independently (Python): changing the mapping breaks every `--seed` replay.
        let seed = seed_from_number(7);
        assert_eq!(
            &seed[..8],
            &[0xd7, 0x0d, 0x32, 0x59, 0xe4, 0xe1, 0xcb, 0x63][..]
        );
        assert_ne!(seed_from_number(7), seed_from_number(8));
    }

    #[test]
    fn same_seed_same_stream() {
        let mut a = TableRng::from_seed(seed_from_number(1));
        let mut b = TableRng::from_seed(seed_from_number(1));
        for _ in 0..100 {
            assert_eq!(a.below(52), b.below(52));
        }
    }

    #[test]
    fn os_seeds_differ() {
        assert_ne!(os_seed().expect("entropy"), os_seed().expect("entropy"));
    }
}
