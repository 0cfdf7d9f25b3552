//! The options that steer `ransom prove` (initial numbers, ties, a book):
//! read into the library's [`Guide`].

use ransom::search::guide::{
    DEFAULT_BOOK_DEFER, DEFAULT_ENGINE_NODES, DEFAULT_LIKELY_NODES, DEFAULT_SWITCH_AFTER,
    EVAL_SCALE, EVAL_SPREAD, Guide, Likely, NoWin, Numbers, Sums, Ties,
};
use std::path::PathBuf;

/// How fresh positions get their numbers (`--numbers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NumbersArg {
    /// 1 and the number of legal moves (mobility).
    Mobility,
    /// Mobility scaled by the engine's evaluation (EF-PN).
    Eval,
}

/// Which of equal children is searched first (`--ties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TiesArg {
    /// The first generated.
    First,
    /// The one with the larger other number.
    LargerOther,
}

/// How the numbers of the children a node needs all of add up (`--sums`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SumsArg {
    /// Weak proof numbers: the largest plus one per other open child.
    Weak,
    /// Plain sums.
    Plain,
    /// Plain sums, but children whose subtrees meet count once
    /// (source-node detection, in the leaf searches).
    Snda,
    /// Weak numbers until --sums-switch-after nodes pass without a new
    /// lowest root proof number, then plain sums.
    Switch,
}

/// Heuristic no-win rules (`--no-win`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum NoWinArg {
    /// None.
    Off,
    /// Bishops of one colour against a bishop of the other.
    Bishops,
}

/// Options that change where the prover looks first, never what it
/// concludes (docs/prover.md, "Guided proving").
#[derive(Clone, Debug, clap::Args)]
pub struct GuideArgs {
    /// Initial numbers of fresh positions.
    #[arg(long, value_enum, default_value = "mobility")]
    numbers: NumbersArg,
    /// With --numbers eval: the evaluation (centipawns) three quarters up
    /// the step from the smallest factor to the largest.
    #[arg(long, default_value_t = EVAL_SCALE, value_parser = clap::value_parser!(i32).range(1..))]
    eval_scale: i32,
    /// With --numbers eval: each factor lies between 1 and 1 + 2 × this.
    #[arg(long, default_value_t = EVAL_SPREAD, value_parser = clap::value_parser!(u32).range(0..=1000))]
    eval_spread: u32,
    /// Deep numbers: a fresh position d plies below the searched root has
    /// its numbers multiplied by D - d while that is more than 1, so the
    /// search goes deeper before it goes wider (0: off).
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    deep: u32,
    /// Which of several children with the same number is searched first.
    #[arg(long, value_enum, default_value = "first")]
    ties: TiesArg,
    /// Suggested moves, tried first where they apply: PGN with variations
    /// (every game), or EPD with `bm` (a file ending in .epd).
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// Where the book suggests moves, the other moves count their number
    /// this many times (they are searched once the book's moves look this
    /// much harder).
    #[arg(long, default_value_t = DEFAULT_BOOK_DEFER, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    book_defer: u32,
    /// Where the attacker moves in the outer tree, search the engine's
    /// best K moves first and defer the others (as --book-defer says;
    /// 0: off).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    engine_order: u32,
    /// Nodes of the engine search that chooses those moves.
    #[arg(long, default_value_t = DEFAULT_ENGINE_NODES, value_parser = super::arguments::parse_at_least_one::<u64>)]
    engine_order_nodes: u64,
    /// Score each fresh node of the outer tree by a short engine search:
    /// past this many centipawns it counts as a likely win (below its
    /// negation, a likely loss) when choosing where to work, and the
    /// threshold rises each time a result refutes such a judgement
    /// (0: off; selection only, never a result).
    #[arg(long, value_name = "CP", default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..=20_000))]
    likely_threshold: i32,
    /// Nodes of the engine search that scores each fresh outer node.
    #[arg(long, default_value_t = DEFAULT_LIKELY_NODES, value_parser = super::arguments::parse_at_least_one::<u64>)]
    likely_nodes: u64,
    /// How the numbers of the children a node needs all of add up.
    #[arg(long, value_enum, default_value = "weak")]
    sums: SumsArg,
    /// With --sums switch: nodes searched since the root's proof number
    /// last reached a new low that make the switch to plain sums.
    #[arg(long, value_name = "NODES", default_value_t = DEFAULT_SWITCH_AFTER, value_parser = super::arguments::parse_at_least_one::<u64>)]
    sums_switch_after: u64,
    /// A heuristic no-win rule that stops the attacker's search where it
    /// judges the attacker lost (pruning only: such a line is never
    /// stored, never reported as settled; a resumed run without the rule
    /// opens it again).
    #[arg(long, value_enum, default_value = "off")]
    no_win: NoWinArg,
}

impl GuideArgs {
    /// The guide without its book (the library reads it per variant).
    pub fn guide(&self) -> Guide {
        Guide {
            numbers: match self.numbers {
                NumbersArg::Mobility => Numbers::Mobility,
                NumbersArg::Eval => Numbers::Evaluation {
                    scale: self.eval_scale,
                    spread: self.eval_spread,
                },
            },
            ties: match self.ties {
                TiesArg::First => Ties::First,
                TiesArg::LargerOther => Ties::LargerOther,
            },
            book: None,
            book_defer: self.book_defer,
            engine_moves: self.engine_order,
            engine_nodes: self.engine_order_nodes,
            likely: (self.likely_threshold > 0).then_some(Likely {
                threshold: self.likely_threshold,
                nodes: self.likely_nodes,
            }),
            sums: match self.sums {
                SumsArg::Weak => Sums::Weak,
                SumsArg::Plain => Sums::Plain,
                SumsArg::Snda => Sums::SourceNodes,
                SumsArg::Switch => Sums::Switch {
                    after: self.sums_switch_after,
                },
            },
            no_win: match self.no_win {
                NoWinArg::Off => NoWin::Off,
                NoWinArg::Bishops => NoWin::Bishops,
            },
            deep: self.deep,
        }
    }

    /// The book file, if one was given.
    pub fn book_path(&self) -> Option<&PathBuf> {
        self.book.as_ref()
    }
}
