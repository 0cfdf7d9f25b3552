//! The mate solver: df-pn with the remaining mate length in the key, the
//! shortest-mate iteration, solutions with depth-to-mate labels and their
//! independent verifier.

pub(crate) mod checks;
mod puzzle;
mod search;
mod shallow;
mod solution;
mod solve;
mod split;
mod suite;
mod suite_run;
mod table;
mod tree;
mod verify;

pub use puzzle::{
    Puzzle, PuzzleCheck, PuzzleReadError, check_puzzle, puzzle_file_variant, read_puzzles,
};
pub use search::{Bound, MateSearch};
pub use solution::{MateSolution, extract};
pub use solve::{
    MateOptions, MateReport, MateStatus, SPLIT_MIN_BOUND, solve_mate, solve_mate_streaming,
    solve_mate_with,
};
pub use suite::{MateCase, SuiteError, read_suite};
pub use suite_run::{
    CaseResult, CaseVerdict, SuiteFilter, SuiteRunError, SuiteSummary, case_header,
    mate_report_text, solve_case, suite_cases, verdict_text,
};
pub use tree::{SolutionTree, TreeNode, build_tree, line_san, longest_line};
pub use verify::{MateVerifyError, VerifiedMate, verify_mate};
