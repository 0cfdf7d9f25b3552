//! A proof as PGN with variations: the winner's move is the main line, every
//! defence appears (the first as the main line, the others as variations).
//! A position met again through a transposition is printed once; later
//! meetings get the comment `{transposes to an earlier line}`
//! ([`Transpositions::Once`]), or every meeting gets the whole subtree
//! again ([`Transpositions::InPlace`], for tree walkers that need every line
//! complete; [`full_pgn_moves`] says how large that gets first).

use crate::board::Color;
use crate::moves::Move;
use crate::notation::{fen, san};
use crate::position::{Position, PositionKey};
use hashbrown::{HashMap, HashSet};

/// How a position that the proof reaches again by another order of moves
/// is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transpositions {
    /// Its subtree once, at the first meeting; later meetings get the
    /// comment `{transposes to an earlier line}` (compact, but the later
    /// lines stop there).
    Once,
    /// Its whole subtree at every meeting, so every line runs to the end of
    /// the game (can be far larger: see [`full_pgn_moves`]).
    InPlace,
}

/// The PGN text of the proof that `winner` wins from `root`, with the
/// winner's moves given by `winning_move` (by zobrist hash).
pub fn proof_pgn<P: Position>(
    root: &P,
    winner: Color,
    winning_move: &dyn Fn(u64) -> Option<Move>,
    event: &str,
    transpositions: Transpositions,
) -> String {
    proof_pgn_annotated(root, winner, winning_move, event, transpositions, &|_| None)
}

/// [`proof_pgn`] with a comment after each move where `annotate` gives
/// one for the position it reaches (by zobrist hash).
pub fn proof_pgn_annotated<P: Position>(
    root: &P,
    winner: Color,
    winning_move: &dyn Fn(u64) -> Option<Move>,
    event: &str,
    transpositions: Transpositions,
    annotate: &dyn Fn(u64) -> Option<String>,
) -> String {
    let variant = match P::VARIANT.name() {
        "chess" => "Standard".to_string(),
        name => {
            let mut chars = name.chars();
            chars.next().map_or(String::new(), |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        }
    };
    let result = match winner {
        Color::White => "1-0",
        Color::Black => "0-1",
    };
    let mut out = format!(
        "[Event \"{event}\"]\n[Site \"ransom\"]\n[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{}\"]\n[Result \"{result}\"]\n\n",
        fen::write(root)
    );
    let mut writer = Writer {
        winner,
        winning_move,
        annotate,
        transpositions,
        printed: HashSet::new(),
        text: String::new(),
    };
    writer.node(root, true);
    out.push_str(writer.text.trim());
    out.push(' ');
    out.push_str(result);
    out.push('\n');
    out
}

/// How many moves the PGN of the proof holds when every transposed subtree
/// is written in place ([`Transpositions::InPlace`]), saturating at
/// `u64::MAX`, counted without writing it (each position once).
pub fn full_pgn_moves<P: Position>(
    root: &P,
    winner: Color,
    winning_move: &dyn Fn(u64) -> Option<Move>,
) -> u64 {
    fn count<P: Position>(
        pos: &P,
        winner: Color,
        winning_move: &dyn Fn(u64) -> Option<Move>,
        memo: &mut HashMap<PositionKey, u64>,
    ) -> u64 {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome_given(&legal).is_some() {
            return 0;
        }
        let key = pos.state().key();
        if let Some(&n) = memo.get(&key) {
            return n;
        }
        // On the current line: written as a transposition, counted as none
        // (a proof never repeats, but a damaged one must not loop here).
        memo.insert(key.clone(), 0);
        let choices: Vec<Move> = if pos.turn() == winner {
            winning_move(pos.zobrist()).into_iter().collect()
        } else {
            legal.to_vec()
        };
        let mut total = 0u64;
        for m in choices {
            let mut child = pos.clone();
            child.play_unchecked(m);
            total =
                total
                    .saturating_add(1)
                    .saturating_add(count(&child, winner, winning_move, memo));
        }
        memo.insert(key, total);
        total
    }
    count(root, winner, winning_move, &mut HashMap::new())
}

struct Writer<'a> {
    winner: Color,
    winning_move: &'a dyn Fn(u64) -> Option<Move>,
    annotate: &'a dyn Fn(u64) -> Option<String>,
    transpositions: Transpositions,
    /// Once: every position written so far; in place: the positions on the
    /// line being written (a repetition there ends the line, as a guard).
    printed: HashSet<PositionKey>,
    text: String,
}

impl Writer<'_> {
    fn node<P: Position>(&mut self, pos: &P, force_number: bool) {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome_given(&legal).is_some() {
            return;
        }
        let key = pos.state().key();
        if self.printed.contains(&key) {
            self.text.push_str(" {transposes to an earlier line}");
            return;
        }
        let choices: Vec<Move> = if pos.turn() == self.winner {
            (self.winning_move)(pos.zobrist()).into_iter().collect()
        } else {
            legal.to_vec()
        };
        self.printed.insert(key.clone());
        self.moves(pos, &legal, &choices, force_number);
        if self.transpositions == Transpositions::InPlace {
            self.printed.remove(&key);
        }
    }

    /// Writes `choices` from `pos`: the first as the main line, the others
    /// as variations, each followed by its subtree.
    fn moves<P: Position>(
        &mut self,
        pos: &P,
        legal: &crate::moves::MoveList,
        choices: &[Move],
        force_number: bool,
    ) {
        let Some((&first, rest)) = choices.split_first() else {
            return;
        };
        self.mv(pos, legal, first, force_number);
        for &alt in rest {
            self.text.push_str(" (");
            self.mv(pos, legal, alt, true);
            let mut child = pos.clone();
            child.play_unchecked(alt);
            let passed = self.pass(pos.turn(), &child);
            self.node(&child, passed);
            self.text.push(')');
        }
        let mut child = pos.clone();
        child.play_unchecked(first);
        let passed = self.pass(pos.turn(), &child);
        self.node(&child, !rest.is_empty() || passed);
    }

    /// Writes the null move `--` when the move that reached `child` made
    /// the other side pass (RULES A8 `kamikaze2`); returns whether it did.
    fn pass<P: Position>(&mut self, mover: Color, child: &P) -> bool {
        if child.turn() != mover || child.is_mid_turn() {
            return false;
        }
        let number = child.state().fullmoves;
        match mover {
            // White moves again: Black passed, in the previous move number.
            Color::White => self
                .text
                .push_str(&format!(" {}... --", number.saturating_sub(1))),
            Color::Black => self.text.push_str(&format!(" {number}. --")),
        }
        true
    }

    fn mv<P: Position>(
        &mut self,
        pos: &P,
        legal: &crate::moves::MoveList,
        m: Move,
        force_number: bool,
    ) {
        let number = pos.state().fullmoves;
        // After a comment, Black's move gets its number again.
        let force_number = force_number || self.text.ends_with('}');
        if !self.text.is_empty() && !self.text.ends_with('(') {
            self.text.push(' ');
        }
        match pos.turn() {
            Color::White => self.text.push_str(&format!("{number}. ")),
            Color::Black if force_number => self.text.push_str(&format!("{number}... ")),
            Color::Black => {}
        }
        self.text.push_str(&san::write_in::<P>(legal, m));
        self.text.extend(san::check_mark(pos, m));
        let mut child = pos.clone();
        child.play_unchecked(m);
        if let Some(comment) = (self.annotate)(child.zobrist()) {
            self.text
                .push_str(&format!(" {{{}}}", comment.replace('}', ")")));
        }
    }
}
