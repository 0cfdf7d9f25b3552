//! The analysis engine: iterative-deepening principal variation search with
//! a transposition table, quiescence, move ordering and mate scores, over
//! the shared generator, for every variant. It is for positions that no
//! solver or table settles; it proves nothing (the callers ask the
//! tablebases, stored proofs and the mate solver first, and their answers
//! override its heuristic scores). docs/engine.md describes the search,
//! the evaluation and the measurements.

pub mod clock;
pub mod eval;
pub mod fit;
mod losing_eval;
mod men;
mod ordering;
pub mod score;
mod search;
mod selectivity;
pub mod table;

pub use clock::{Clock, TimeLimits};
pub use score::{Score, TABLE_WIN};
pub use search::{Engine, Info, Limits, Line, LosingQuiescence, Report, SearchOptions};
pub use selectivity::Selectivity;
