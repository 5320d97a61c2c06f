//! Statistics, in one place: the mean, spread, median and 95% interval of a sample
//! ([`Moments`]), the difference of two paired samples ([`Paired`]: two shooters on the same
//! boards), the Wilson interval of a proportion ([`wilson`]), and the gamma functions behind a
//! chi-square p-value ([`gamma_q`]). Simulations, matches, the accuracy evaluation, the sampler
//! judge and `broadside summarize` all use these.
//!
//! Intervals of means use the normal approximation, `mean ± 1.96 sd / sqrt(n)` with the sample
//! standard deviation (`n - 1` in the denominator).
//!
//! ```
//! use broadside::stats::{Moments, Paired};
//! let m = Moments::of(&[40.0, 44.0, 48.0]);
//! assert_eq!((m.mean, m.sd, m.median), (44.0, 4.0, 44.0));
//! let d = Paired::of(&[40.0, 44.0, 48.0], &[41.0, 44.0, 46.0]);
//! assert_eq!((d.fewer, d.more, d.equal), (1, 1, 1));
//! ```

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// The mean, spread and 95% interval of a sample of numbers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Moments {
    /// How many values.
    pub n: u64,
    /// Their mean (0 for none).
    pub mean: f64,
    /// Their sample standard deviation (0 for fewer than two).
    pub sd: f64,
    /// Their median (0 for none).
    pub median: f64,
    /// The 95% interval of the mean (normal approximation).
    pub ci95: [f64; 2],
    /// The least value (0 for none).
    pub min: f64,
    /// The greatest value (0 for none).
    pub max: f64,
}

impl Moments {
    /// The moments of `values`, in any order.
    pub fn of(values: &[f64]) -> Moments {
        let n = values.len();
        if n == 0 {
            return Moments {
                n: 0,
                mean: 0.0,
                sd: 0.0,
                median: 0.0,
                ci95: [0.0, 0.0],
                min: 0.0,
                max: 0.0,
            };
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let (mean, sd) = mean_sd(&sorted);
        let half = Z95 * sd / (n as f64).sqrt();
        let mid = n / 2;
        Moments {
            n: n as u64,
            mean,
            sd,
            median: if n % 2 == 1 {
                sorted[mid]
            } else {
                (sorted[mid - 1] + sorted[mid]) / 2.0
            },
            ci95: [mean - half, mean + half],
            min: sorted[0],
            max: sorted[n - 1],
        }
    }
}

/// The mean and sample standard deviation of `values` (the sd is 0 for fewer than two).
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let mean = values.iter().sum::<f64>() / n;
    let sd = if values.len() > 1 {
        (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    (mean, sd)
}

/// Two samples compared value by value (`b[i]` against `a[i]`, e.g. two shooters' shots on
/// the same hidden layouts): the mean of `b - a` with its 95% interval, and how often `b` was
/// smaller, larger or equal. An interval that excludes 0 is a difference significant at the
/// 5% level.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Paired {
    /// Pairs compared.
    pub n: u64,
    /// The mean of `b - a`.
    pub mean: f64,
    /// The sample standard deviation of `b - a`.
    pub sd: f64,
    /// The 95% interval of the mean difference (normal approximation).
    pub ci95: [f64; 2],
    /// Pairs where `b` is smaller.
    pub fewer: u64,
    /// Pairs where `b` is larger.
    pub more: u64,
    /// Pairs where they are equal.
    pub equal: u64,
}

impl Paired {
    /// The paired comparison of `b` against `a`.
    ///
    /// # Panics
    ///
    /// When the samples differ in length.
    pub fn of(a: &[f64], b: &[f64]) -> Paired {
        assert_eq!(a.len(), b.len(), "paired samples have one value each");
        let d: Vec<f64> = a.iter().zip(b).map(|(a, b)| b - a).collect();
        let (mean, sd) = mean_sd(&d);
        let half = if d.is_empty() {
            0.0
        } else {
            Z95 * sd / (d.len() as f64).sqrt()
        };
        let count = |f: fn(&f64) -> bool| d.iter().filter(|x| f(x)).count() as u64;
        Paired {
            n: d.len() as u64,
            mean,
            sd,
            ci95: [mean - half, mean + half],
            fewer: count(|x| *x < 0.0),
            more: count(|x| *x > 0.0),
            equal: count(|x| *x == 0.0),
        }
    }
}

/// The Wilson 95% interval of a proportion `k / n` (`(0, 1)` when `n` is 0).
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The natural log of the gamma function (Lanczos, g = 7), for x > 0.
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised upper incomplete gamma function `Q(a, x)`: the chi-square p-value is
/// `Q(df / 2, chi2 / 2)`. Series below `a + 1`, continued fraction above.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let ln_front = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1_000_000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        (1.0 - sum * ln_front.exp()).clamp(0.0, 1.0)
    } else {
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1_000_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (ln_front.exp() * h).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chi_square_p_values_match_tables() {
        // Known quantiles: chi2(1) 3.841 -> 0.05; chi2(10) 23.209 -> 0.01; chi2(100) 124.342 -> 0.05.
        assert!((gamma_q(0.5, 3.841 / 2.0) - 0.05).abs() < 1e-3);
        assert!((gamma_q(5.0, 23.209 / 2.0) - 0.01).abs() < 1e-4);
        assert!((gamma_q(50.0, 124.342 / 2.0) - 0.05).abs() < 1e-3);
        // Large df: the statistic at its mean has p near 0.5.
        let q = gamma_q(50_000.0, 50_000.0);
        assert!((q - 0.5).abs() < 0.01, "{q}");
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn moments_and_paired_differences() {
        let m = Moments::of(&[3.0, 1.0, 2.0, 10.0]);
        assert_eq!(
            (m.n, m.mean, m.median, m.min, m.max),
            (4, 4.0, 2.5, 1.0, 10.0)
        );
        assert!((m.sd - (50.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert!((m.ci95[1] - m.mean - 1.96 * m.sd / 2.0).abs() < 1e-12);
        assert_eq!(Moments::of(&[]).n, 0);
        assert_eq!(Moments::of(&[5.0]).sd, 0.0);
        let d = Paired::of(&[10.0, 10.0, 10.0, 10.0], &[9.0, 11.0, 10.0, 8.0]);
        assert_eq!((d.n, d.mean, d.fewer, d.more, d.equal), (4, -0.5, 2, 1, 1));
    }

    #[test]
    fn wilson_intervals_hold_the_share() {
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(50, 100);
        assert!(lo < 0.5 && hi > 0.5 && (hi - lo - 0.1924).abs() < 1e-3);
        let (lo, hi) = wilson(0, 100);
        assert!(lo == 0.0 && hi > 0.0 && hi < 0.05);
    }
}
