//! Fitting a linear evaluation's weights to game results (Texel's method):
//! the expected score of a position is `1 / (1 + 10^(-e / 400))` where `e`
//! is the weighted sum of its terms for the side to move, and the weights
//! minimise the mean squared difference between that and the score the
//! game ended with, by full-batch gradient descent with Adam steps.

use rayon::prelude::*;

/// One position: its terms for the side to move and the score the side to
/// move made in the game (1 a win, 0.5 a draw, 0 a loss).
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled<const N: usize> {
    /// The evaluation's terms.
    pub terms: [f64; N],
    /// The side to move's score at the end of the game.
    pub score: f64,
}

/// The expected score for an evaluation of `e` centipawns.
pub fn expected_score(e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-e / 400.0))
}

/// The weighted sum of `terms`.
fn evaluation<const N: usize>(terms: &[f64; N], weights: &[f64; N]) -> f64 {
    terms.iter().zip(weights).map(|(t, w)| t * w).sum()
}

/// The mean squared difference between the expected and the actual scores.
pub fn mean_error<const N: usize>(samples: &[Labelled<N>], weights: &[f64; N]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_iter()
        .map(|s| (s.score - expected_score(evaluation(&s.terms, weights))).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The gradient of [`mean_error`] at `weights`.
fn gradient<const N: usize>(samples: &[Labelled<N>], weights: &[f64; N]) -> [f64; N] {
    let slope = std::f64::consts::LN_10 / 400.0;
    let sum = samples
        .par_iter()
        .fold(
            || [0.0; N],
            |mut g, s| {
                let p = expected_score(evaluation(&s.terms, weights));
                let factor = -2.0 * (s.score - p) * p * (1.0 - p) * slope;
                for (gi, &t) in g.iter_mut().zip(&s.terms) {
                    *gi += factor * t;
                }
                g
            },
        )
        .reduce(
            || [0.0; N],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    let n = samples.len().max(1) as f64;
    sum.map(|g| g / n)
}

/// How a fit runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Adam steps.
    pub steps: usize,
    /// The step size, in centipawns.
    pub rate: f64,
    /// The penalty on large weights added to the error: `l2` times the
    /// sum of the squared weights in pawns (hundreds of centipawns). The
    /// positions of one game share its result, so a file holds fewer
    /// independent facts than lines and an unpenalised fit learns noise.
    pub l2: f64,
}

/// Weights that minimise [`mean_error`] over `samples` plus the penalty of
/// [`FitOptions::l2`], from `start`; `on_step` hears the step number and
/// the weights every 100 steps.
pub fn fit<const N: usize>(
    samples: &[Labelled<N>],
    start: [f64; N],
    options: FitOptions,
    mut on_step: impl FnMut(usize, &[f64; N]),
) -> [f64; N] {
    let FitOptions { steps, rate, l2 } = options;
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-12);
    let mut weights = start;
    let mut m = [0.0; N];
    let mut v = [0.0; N];
    for step in 1..=steps {
        let mut g = gradient(samples, &weights);
        for (gi, w) in g.iter_mut().zip(&weights) {
            *gi += 2.0 * l2 * w / 10_000.0;
        }
        let correction1 = 1.0 - beta1.powi(step as i32);
        let correction2 = 1.0 - beta2.powi(step as i32);
        for i in 0..N {
            m[i] = beta1 * m[i] + (1.0 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * g[i] * g[i];
            let m_hat = m[i] / correction1;
            let v_hat = v[i] / correction2;
            weights[i] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
        if step % 100 == 0 {
            on_step(step, &weights);
        }
    }
    weights
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores drawn from known weights are fitted back to them.
    #[test]
    fn the_fit_recovers_the_weights_that_made_the_scores() {
        let truth = [40.0, -120.0, 15.0];
        let mut samples = Vec::new();
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / f64::from(1u32 << 31)
        };
        for _ in 0..20_000 {
            let terms = [
                1.0,
                (next() * 7.0).floor() - 3.0,
                (next() * 21.0).floor() - 10.0,
            ];
            let p = expected_score(evaluation(&terms, &truth));
            let score = if next() < p { 1.0 } else { 0.0 };
            samples.push(Labelled { terms, score });
        }
        let options = FitOptions {
            steps: 3000,
            rate: 2.0,
            l2: 0.0,
        };
        let fitted = fit(&samples, [0.0; 3], options, |_, _| {});
        for (f, t) in fitted.iter().zip(truth) {
            assert!(
                (f - t).abs() < 0.15 * t.abs(),
                "{fitted:?} against {truth:?}"
            );
        }
        assert!(mean_error(&samples, &fitted) <= mean_error(&samples, &[0.0; 3]));
        // A penalty pulls every weight towards zero.
        let penalised = fit(
            &samples,
            [0.0; 3],
            FitOptions {
                l2: 0.01,
                ..options
            },
            |_, _| {},
        );
        for (p, f) in penalised.iter().zip(fitted) {
            assert!(p.abs() < f.abs(), "{penalised:?} against {fitted:?}");
        }
    }
}
