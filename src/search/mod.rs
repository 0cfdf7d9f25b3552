//! Search: proof-number search (df-pn), the `prove` driver, proofs, the
//! independent verifier and PGN export.

pub mod assemble;
mod budget;
pub(crate) mod dfpn;
pub mod engine;
pub mod guide;
pub mod leaf_oracle;
pub mod mate;
pub(crate) mod numbers;
pub mod oracle;
pub mod pgn;
mod pn;
pub mod proof;
mod prover;
pub mod scale;
#[cfg(feature = "syzygy")]
mod syzygy_oracle;
pub mod verify;

pub use budget::{Budget, Progress, StopSignal};
pub use dfpn::{DfPn, ProofRecords, SearchResult, Settled};
pub use pn::Pn;
pub use proof::{Proof, ProofMeta};
pub use prover::{ProveReport, Verdict, prove, prove_with_oracle};
pub use verify::{VerifiedProof, VerifyError};
