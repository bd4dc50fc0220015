//! The widgets' seeded generator: the same seed draws the same input in every browser, so the
//! cpu-msm and gpu-msm widgets (and a reader comparing two machines) run on the same points.

use fastmsm_msm::{Scalar, scalar};

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, not for secrets.
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform below `r`, by rejection from r's bit length (fewer than two draws on average).
    pub(crate) fn scalar_below(&mut self, r: &Scalar) -> Scalar {
        let bits = scalar::bit_len(r);
        loop {
            let mut k = [0u64; 4];
            for (i, w) in k.iter_mut().enumerate() {
                let lo = 64 * i as u32;
                *w = if bits <= lo {
                    0
                } else if bits - lo >= 64 {
                    self.next_u64()
                } else {
                    self.next_u64() & ((1u64 << (bits - lo)) - 1)
                };
            }
            if scalar::less_than(&k, r) {
                return k;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_outputs_match_the_reference_generator() {
        // SplitMix64 from seed 0, as the authors' reference code prints it.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn scalars_stay_below_a_small_modulus() {
        let mut g = SplitMix64::new(7);
        let r: Scalar = [1000, 0, 0, 0];
        let draws: Vec<Scalar> = (0..2000).map(|_| g.scalar_below(&r)).collect();
        assert!(draws.iter().all(|k| scalar::less_than(k, &r)));
        assert!(
            draws.iter().any(|k| k[0] > 900),
            "the top of the range is reached"
        );
    }
}
