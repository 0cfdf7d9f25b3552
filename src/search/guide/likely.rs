//! Likely values for the outer tree, after the checkers proof manager
//! (Schaeffer et al. 2007): a fresh node of the outer tree is scored by a
//! short engine search; where the score is past a threshold, the node
//! counts as a likely win (or loss) for the attacker when the tree chooses
//! where to work next, and each time a result refutes such a judgement the
//! threshold rises. Selection only: no value is ever set from a score.

/// The default nodes of the engine search that scores a fresh outer node.
pub const DEFAULT_LIKELY_NODES: u64 = 1_000;

/// Likely values in the outer tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Likely {
    /// The score (centipawns, the attacker's view) past which a node counts
    /// as a likely win, and below whose negation as a likely loss, at the
    /// start of a run.
    pub threshold: i32,
    /// Nodes of the engine search that scores each fresh outer node.
    pub nodes: u64,
}

/// What a score says of a node at the current threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LikelyClass {
    /// The attacker likely wins.
    Win,
    /// Neither.
    Open,
    /// The attacker likely does not win.
    Loss,
}

impl LikelyClass {
    /// The class of `score` (the attacker's view) at `threshold`.
    pub fn of(score: i32, threshold: i32) -> LikelyClass {
        if score >= threshold {
            LikelyClass::Win
        } else if score <= -threshold {
            LikelyClass::Loss
        } else {
            LikelyClass::Open
        }
    }

    /// The weight of a child of this class on the side its parent
    /// minimises, `defer` being the weight of a deferred move: where the
    /// attacker moves, likely wins first, likely losses last; where the
    /// defender moves, the likely refutations first (the proof needs every
    /// reply, and the doubtful ones decide it), the likely wins last.
    pub fn weight(self, attacker_moves: bool, defer: u32) -> u32 {
        let defer = defer.max(1);
        let (first, last) = if attacker_moves {
            (LikelyClass::Win, LikelyClass::Loss)
        } else {
            (LikelyClass::Loss, LikelyClass::Win)
        };
        if self == first {
            1
        } else if self == last {
            defer.saturating_mul(defer)
        } else {
            defer
        }
    }

    /// Whether `proved` (the attacker won, or was shown not to) refutes
    /// this judgement.
    pub fn refuted_by(self, proved: bool) -> bool {
        matches!(
            (self, proved),
            (LikelyClass::Win, false) | (LikelyClass::Loss, true)
        )
    }
}

impl Likely {
    /// The threshold after a refuted judgement: a quarter higher (at least
    /// one centipawn more).
    pub fn raised(threshold: i32) -> i32 {
        threshold.saturating_add((threshold / 4).max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_weights_and_the_rising_threshold() {
        assert_eq!(LikelyClass::of(120, 100), LikelyClass::Win);
        assert_eq!(LikelyClass::of(-100, 100), LikelyClass::Loss);
        assert_eq!(LikelyClass::of(99, 100), LikelyClass::Open);
        assert_eq!(LikelyClass::Win.weight(true, 8), 1);
        assert_eq!(LikelyClass::Open.weight(true, 8), 8);
        assert_eq!(LikelyClass::Loss.weight(true, 8), 64);
        assert_eq!(LikelyClass::Loss.weight(false, 8), 1);
        assert_eq!(LikelyClass::Win.weight(false, 8), 64);
        assert!(LikelyClass::Win.refuted_by(false));
        assert!(LikelyClass::Loss.refuted_by(true));
        assert!(!LikelyClass::Open.refuted_by(true));
        assert_eq!(Likely::raised(100), 125);
        assert_eq!(Likely::raised(1), 2);
    }
}
