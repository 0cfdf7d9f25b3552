//! Time for one move from a game clock (UCI `wtime/btime/winc/binc/
//! movestogo`), kept so that no flag falls: the search stops starting new
//! iterations at a soft limit and aborts at a hard one that never exceeds
//! a fraction of the time left after the GUI's overhead.

use std::time::Duration;

/// The clock as a `go` command gives it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the side to move's clock.
    pub remaining: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves to the next time control (`None`: sudden death).
    pub moves_to_go: Option<u32>,
}

/// How long the search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// No new iteration starts after this.
    pub soft: Duration,
    /// The search stops here, mid-iteration if need be.
    pub hard: Duration,
}

/// How many moves a sudden-death game is assumed still to last.
const ASSUMED_MOVES_LEFT: u32 = 30;
/// The hard limit is at most this share of the time left (in percent).
const HARD_SHARE_PERCENT: u32 = 40;
/// The soft limit is this many times smaller than the hard one at most.
const HARD_OVER_SOFT: u32 = 4;
/// Time always kept in reserve on top of the move overhead.
const RESERVE: Duration = Duration::from_millis(20);
/// The least time a move gets (a move must be given, however short).
const FLOOR: Duration = Duration::from_millis(1);

impl Clock {
    /// The limits for this move, keeping `overhead` (the GUI's and the
    /// pipe's delay, UCI option `Move Overhead`) unused.
    pub fn limits(&self, overhead: Duration) -> TimeLimits {
        let usable = self.remaining.saturating_sub(overhead + RESERVE);
        let moves_left = self
            .moves_to_go
            .unwrap_or(ASSUMED_MOVES_LEFT)
            .clamp(1, ASSUMED_MOVES_LEFT);
        // With a few moves left to the control, leave room for them.
        let share = usable / (moves_left + 1) + self.increment * 3 / 4;
        let hard_cap = usable * HARD_SHARE_PERCENT / 100;
        let hard = (share * HARD_OVER_SOFT / 2).min(hard_cap).max(FLOOR);
        let soft = share.min(hard).max(FLOOR);
        TimeLimits { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_more_than_a_share_of_what_is_left() {
        for remaining in [0, 5, 30, 100, 1_000, 3_000, 60_000, 3_600_000] {
            for increment in [0, 100, 2_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        remaining: ms(remaining),
                        increment: ms(increment),
                        moves_to_go,
                    };
                    let limits = clock.limits(ms(10));
                    assert!(limits.soft <= limits.hard, "{clock:?} {limits:?}");
                    let usable = ms(remaining).saturating_sub(ms(30));
                    assert!(
                        limits.hard <= (usable * 2 / 5).max(FLOOR),
                        "{clock:?} {limits:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn three_seconds_sudden_death_gives_about_a_tenth_of_a_second() {
        let limits = Clock {
            remaining: ms(3_000),
            ..Clock::default()
        }
        .limits(ms(10));
        assert!(
            limits.soft >= ms(80) && limits.soft <= ms(120),
            "{limits:?}"
        );
    }
}
