//! Match statistics (docs/search.md §10.2): Elo ↔ expected score, pentanomial pair
//! bins, the SPRT log-likelihood ratio, Elo estimates with a 95 % interval and the variance
//! reduction of colour-mirrored pairs.

use serde::Serialize;

/// The two-sided 95 % normal quantile.
pub const Z95: f64 = 1.959964;

/// The score of each pentanomial bin: a pair's total score (0, ½, 1, 1½, 2) halved.
pub const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Expected score at an Elo difference `elo`: `1 / (1 + 10^(−elo/400))`.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference whose expected score is `score` (`−400·log10(1/score − 1)`); infinite
/// at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The pentanomial bin of a mirrored pair from the first bot's score in each game (1, ½ or
/// 0): `round(2·(s_white + s_black))`, clamped to 0..=4.
pub fn pentanomial_bin(score_as_white: f64, score_as_black: f64) -> usize {
    let b = (2.0 * (score_as_white + score_as_black)).round();
    b.clamp(0.0, 4.0) as usize
}

/// SPRT hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtParams {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1 (greater than `elo0`).
    pub elo1: f64,
    /// False-positive rate (accept H1 when H0 holds), in (0, 1).
    pub alpha: f64,
    /// False-negative rate, in (0, 1).
    pub beta: f64,
}

impl Default for SprtParams {
    fn default() -> Self {
        SprtParams {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// Why SPRT parameters are refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtParamsError {
    /// Not four comma-separated values.
    #[error("--sprt {text:?}: expected elo0,elo1,alpha,beta (e.g. 0,20,0.05,0.05)")]
    Shape {
        /// The text given.
        text: String,
    },
    /// A value is not a finite number.
    #[error("--sprt {text:?}: {part:?} is not a number")]
    NotANumber {
        /// The text given.
        text: String,
        /// The value that is not a number.
        part: String,
    },
    /// `elo0 < elo1` does not hold.
    #[error("SPRT needs elo0 < elo1 (got {elo0} and {elo1})")]
    EloOrder {
        /// `elo0`.
        elo0: f64,
        /// `elo1`.
        elo1: f64,
    },
    /// Alpha or beta lies outside (0, 1).
    #[error("SPRT {name} must lie in (0, 1) (got {value})")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
}

impl SprtParams {
    /// Read `elo0,elo1,alpha,beta` (e.g. `0,20,0.05,0.05`); checks `elo0 < elo1` and that
    /// alpha and beta lie in (0, 1).
    pub fn parse(text: &str) -> Result<SprtParams, SprtParamsError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        if parts.len() != 4 {
            return Err(SprtParamsError::Shape { text: text.into() });
        }
        let mut v = [0.0; 4];
        for (slot, p) in v.iter_mut().zip(&parts) {
            *slot = p
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| SprtParamsError::NotANumber {
                    text: text.into(),
                    part: (*p).into(),
                })?;
        }
        let params = SprtParams {
            elo0: v[0],
            elo1: v[1],
            alpha: v[2],
            beta: v[3],
        };
        params.check().map(|_| params)
    }

    /// Whether the parameters are usable.
    pub fn check(&self) -> Result<(), SprtParamsError> {
        if self.elo0.is_nan() || self.elo1.is_nan() || self.elo0 >= self.elo1 {
            return Err(SprtParamsError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtParamsError::Probability { name, value });
            }
        }
        Ok(())
    }

    /// The lower bound `ln(β/(1−α))`: accept H0 at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound `ln((1−β)/α)`: accept H1 at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
}

/// What the SPRT says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtDecision {
    /// LLR reached the upper bound: the first bot is stronger by about `elo1`.
    AcceptH1,
    /// LLR reached the lower bound: no better than `elo0`.
    AcceptH0,
    /// Keep playing.
    Continue,
}

impl SprtDecision {
    /// `H1`, `H0` or `continue`.
    pub fn label(self) -> &'static str {
        match self {
            SprtDecision::AcceptH1 => "H1",
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::Continue => "continue",
        }
    }
}

/// Number of pairs in a pentanomial histogram.
pub fn pair_count(hist: &[u64; 5]) -> u64 {
    hist.iter().sum()
}

/// Mean and (population) variance of the pair scores of a histogram with weights `w`.
fn mean_variance(w: &[f64; 5]) -> (f64, f64) {
    let n: f64 = w.iter().sum();
    if n <= 0.0 {
        return (0.5, 0.0);
    }
    let m = w
        .iter()
        .zip(PENTANOMIAL_SCORES)
        .map(|(c, s)| c * s)
        .sum::<f64>()
        / n;
    let v = w
        .iter()
        .zip(PENTANOMIAL_SCORES)
        .map(|(c, s)| c * (s - m) * (s - m))
        .sum::<f64>()
        / n;
    (m, v)
}

/// The pentanomial log-likelihood ratio (§10.2): `N·(s1−s0)·(2m − s0 − s1)/(2v)` with
/// `s0`, `s1` the expected scores at `elo0`, `elo1`, the mean `m` and variance `v` of the pair
/// scores of the histogram smoothed by +0.5 per bin, and `N` the real pair count.
pub fn llr(hist: &[u64; 5], params: &SprtParams) -> f64 {
    let n = pair_count(hist) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let smoothed = hist.map(|c| c as f64 + 0.5);
    let (m, v) = mean_variance(&smoothed);
    if v <= 0.0 {
        return 0.0;
    }
    let s0 = expected_score(params.elo0);
    let s1 = expected_score(params.elo1);
    n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
}

/// The decision at `llr` under `params`.
pub fn decide(llr: f64, params: &SprtParams) -> SprtDecision {
    if llr >= params.upper_bound() {
        SprtDecision::AcceptH1
    } else if llr <= params.lower_bound() {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    }
}

/// The score (0..1) of the first bot over the pairs of a histogram (0.5 when empty).
pub fn score(hist: &[u64; 5]) -> f64 {
    mean_variance(&hist.map(|c| c as f64)).0
}

/// An Elo estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Elo of the observed score.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
}

impl EloEstimate {
    /// The half-width `(high − low)/2` (infinite when an end is).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The Elo of the histogram's score with a 95 % interval: score ± 1.959964·sd_pair/√N (the
/// pentanomial pair variance, unsmoothed), each end mapped to Elo. `None` with no pairs.
pub fn elo_estimate(hist: &[u64; 5]) -> Option<EloEstimate> {
    let n = pair_count(hist) as f64;
    if n == 0.0 {
        return None;
    }
    let (m, v) = mean_variance(&hist.map(|c| c as f64));
    let half = Z95 * (v / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(m),
        low: elo_from_score(m - half),
        high: elo_from_score(m + half),
    })
}

/// How much mirrored pairs reduce the noise (§10.2 PairVariance).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairVariance {
    /// Standard deviation of the pair scores (0, ¼, …, 1).
    pub sd_pair: f64,
    /// Standard deviation of the single-game scores (0, ½, 1).
    pub sd_game: f64,
    /// `sd_game / (sd_pair·√2)`: above 1, pairs need fewer games than unpaired games.
    pub reduction: f64,
    /// Games to resolve the score to ±2 pp at 95 % with pairs: `2·⌈(1.959964·sd_pair/0.02)²⌉`.
    pub games_2pp_paired: u64,
    /// … without pairs: `⌈(1.959964·sd_game/0.02)²⌉`.
    pub games_2pp_unpaired: u64,
    /// Games for ±3 pp with pairs.
    pub games_3pp_paired: u64,
    /// Games for ±3 pp without pairs.
    pub games_3pp_unpaired: u64,
}

/// Observations needed to resolve a mean to ±`delta` at 95 % given `sd`: `⌈(1.959964·sd/δ)²⌉`.
pub fn observations_for(sd: f64, delta: f64) -> u64 {
    ((Z95 * sd / delta).powi(2)).ceil() as u64
}

/// The pair-variance comparison from the pair histogram and the game counts `[losses, draws,
/// wins]` of the first bot (population standard deviations).
pub fn pair_variance(hist: &[u64; 5], games: [u64; 3]) -> PairVariance {
    let (_, v_pair) = mean_variance(&hist.map(|c| c as f64));
    let n: f64 = games.iter().sum::<u64>() as f64;
    let v_game = if n == 0.0 {
        0.0
    } else {
        let scores = [0.0, 0.5, 1.0];
        let m = games
            .iter()
            .zip(scores)
            .map(|(&c, s)| c as f64 * s)
            .sum::<f64>()
            / n;
        games
            .iter()
            .zip(scores)
            .map(|(&c, s)| c as f64 * (s - m) * (s - m))
            .sum::<f64>()
            / n
    };
    let (sd_pair, sd_game) = (v_pair.sqrt(), v_game.sqrt());
    let reduction = if sd_pair > 0.0 {
        sd_game / (sd_pair * std::f64::consts::SQRT_2)
    } else {
        f64::NAN
    };
    PairVariance {
        sd_pair,
        sd_game,
        reduction,
        games_2pp_paired: 2 * observations_for(sd_pair, 0.02),
        games_2pp_unpaired: observations_for(sd_game, 0.02),
        games_3pp_paired: 2 * observations_for(sd_pair, 0.03),
        games_3pp_unpaired: observations_for(sd_game, 0.03),
    }
}
