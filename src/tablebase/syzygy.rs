//! Syzygy Losing-chess ("giveaway") tables as a second source of values,
//! read with the shakmaty-syzygy crate (only with the `syzygy` feature: that
//! crate is GPL-3.0, so a binary built with it is GPL-3.0).
//!
//! The giveaway tables follow the antichess rules of this project
//! ([`International`]: a stalemated side wins, a king is an ordinary man),
//! not suicide's. Their values include the 50-move rule; this project's
//! rules have none, so a cursed win counts as a win and a blessed loss as a
//! loss ([`SyzygyWdl::category`]). A position is probed as if its move
//! counter had just been reset (shakmaty-syzygy's `probe_wdl_after_zeroing`),
//! which is exact for the categories.

use super::SyzygyError;
use super::Wdl;
use crate::notation::fen;
use crate::position::Position;
use crate::variants::{International, Losing};
use shakmaty::variant::Antichess;
use shakmaty::{CastlingMode, FromSetup};
use std::path::{Path, PathBuf};

/// A Syzygy value: the category under the 50-move rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyzygyWdl {
    /// The side to move loses even with the 50-move rule.
    Loss,
    /// The side to move loses, but the 50-move rule would save it.
    BlessedLoss,
    /// Nobody can force a win.
    Draw,
    /// The side to move wins, but not within the 50-move rule.
    CursedWin,
    /// The side to move wins within the 50-move rule.
    Win,
}

impl SyzygyWdl {
    /// The category under this project's rules (no 50-move rule).
    pub fn category(self) -> Wdl {
        match self {
            SyzygyWdl::Loss | SyzygyWdl::BlessedLoss => Wdl::Loss,
            SyzygyWdl::Draw => Wdl::Draw,
            SyzygyWdl::CursedWin | SyzygyWdl::Win => Wdl::Win,
        }
    }

    /// The Syzygy name (`win`, `cursed-win`, `draw`, `blessed-loss`, `loss`).
    pub fn name(self) -> &'static str {
        match self {
            SyzygyWdl::Loss => "loss",
            SyzygyWdl::BlessedLoss => "blessed-loss",
            SyzygyWdl::Draw => "draw",
            SyzygyWdl::CursedWin => "cursed-win",
            SyzygyWdl::Win => "win",
        }
    }
}

/// The giveaway tables (`*.gtbw`, `*.gtbz`) of one folder.
pub struct SyzygyTables {
    tables: shakmaty_syzygy::Tablebase<Antichess>,
    dir: PathBuf,
    files: usize,
    max_men: u32,
}

impl SyzygyTables {
    /// The tables in `dir`; an error names the folder when it cannot be
    /// read or holds no giveaway table.
    pub fn open(dir: &Path) -> Result<SyzygyTables, SyzygyError> {
        let mut tables = shakmaty_syzygy::Tablebase::<Antichess>::new();
        let files = tables
            .add_directory(dir)
            .map_err(|e| SyzygyError::Unreadable {
                dir: dir.display().to_string(),
                problem: e.to_string(),
            })?;
        if files == 0 {
            return Err(SyzygyError::NoTables {
                dir: dir.display().to_string(),
            });
        }
        Ok(SyzygyTables {
            tables,
            dir: dir.to_path_buf(),
            files,
            max_men: most_men(dir),
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many table files were found.
    pub fn files(&self) -> usize {
        self.files
    }

    /// The most men of any table in the folder (positions with more are
    /// not looked up).
    pub fn max_men(&self) -> u32 {
        self.max_men
    }

    /// The Syzygy value of `pos` for the side to move.
    pub fn probe_wdl(&self, pos: &Losing<International>) -> Result<SyzygyWdl, SyzygyError> {
        let theirs = to_shakmaty(pos)?;
        let wdl = self
            .tables
            .probe_wdl_after_zeroing(&theirs)
            .map_err(|e| probe_error(pos, e))?;
        Ok(match wdl {
            shakmaty_syzygy::Wdl::Loss => SyzygyWdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => SyzygyWdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => SyzygyWdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => SyzygyWdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => SyzygyWdl::Win,
        })
    }

    /// The Syzygy distance to zeroing (plies, signed as Syzygy signs it:
    /// positive when the side to move wins; 0 for a draw), and whether it
    /// may be rounded (Syzygy stores some distances to within one ply).
    pub fn probe_dtz(&self, pos: &Losing<International>) -> Result<(i32, bool), SyzygyError> {
        let theirs = to_shakmaty(pos)?;
        let dtz = self
            .tables
            .probe_dtz(&theirs)
            .map_err(|e| probe_error(pos, e))?;
        Ok(match dtz {
            shakmaty_syzygy::MaybeRounded::Precise(d) => (d.0, false),
            shakmaty_syzygy::MaybeRounded::Rounded(d) => (d.0, true),
        })
    }
}

/// A failed probe of `pos`.
fn probe_error(pos: &Losing<International>, error: impl std::fmt::Display) -> SyzygyError {
    SyzygyError::Probe {
        fen: fen::write(pos),
        problem: error.to_string(),
    }
}

/// The most men named by a win/draw/loss file of `dir` (`KRvKN.gtbw`: 4).
fn most_men(dir: &Path) -> u32 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let stem = name.strip_suffix(".gtbw")?;
            Some(
                stem.chars()
                    .filter(|c| c.is_ascii_alphabetic() && *c != 'v')
                    .count() as u32,
            )
        })
        .max()
        .unwrap_or(0)
}

/// `pos` as shakmaty's antichess position, built square by square (a
/// FEN round trip cost several times more per probe), with the move
/// counter reset: this project's rules have no 50-move rule.
fn to_shakmaty(pos: &Losing<International>) -> Result<Antichess, SyzygyError> {
    use crate::board::{Color, Role};
    let board = pos.board();
    let mut theirs = shakmaty::Board::empty();
    for sq in board.occupied() {
        let Some(piece) = board.piece_at(sq) else {
            continue;
        };
        let color = match piece.color {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        };
        let role = match piece.role {
            Role::Pawn => shakmaty::Role::Pawn,
            Role::Knight => shakmaty::Role::Knight,
            Role::Bishop => shakmaty::Role::Bishop,
            Role::Rook => shakmaty::Role::Rook,
            Role::Queen => shakmaty::Role::Queen,
            Role::King => shakmaty::Role::King,
        };
        theirs.set_piece_at(
            shakmaty::Square::new(sq.index() as u32),
            shakmaty::Piece { color, role },
        );
    }
    let ours = pos.to_setup();
    let mut setup = shakmaty::Setup::empty();
    setup.board = theirs;
    setup.turn = match ours.turn {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.castling_rights = shakmaty::Bitboard(ours.castling.0);
    setup.ep_square = ours
        .ep_square
        .map(|sq| shakmaty::Square::new(sq.index() as u32));
    Antichess::from_setup(setup, CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_too_much_material)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .map_err(|e| SyzygyError::Position {
            fen: fen::write(pos),
            problem: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_50_move_rule_is_dropped_from_syzygy_values() {
        assert_eq!(SyzygyWdl::CursedWin.category(), Wdl::Win);
        assert_eq!(SyzygyWdl::Win.category(), Wdl::Win);
        assert_eq!(SyzygyWdl::BlessedLoss.category(), Wdl::Loss);
        assert_eq!(SyzygyWdl::Loss.category(), Wdl::Loss);
        assert_eq!(SyzygyWdl::Draw.category(), Wdl::Draw);
    }
}
