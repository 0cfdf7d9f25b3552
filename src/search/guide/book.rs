//! A book of suggested moves (`prove --book FILE`): the lines a person
//! expects to work, as PGN with variations or as EPD with `bm` operations.
//! The prover tries them first where they apply (see the module above);
//! a move the book suggests is never trusted, only searched earlier.

use crate::moves::Move;
use crate::notation::pgn::{PgnError, PgnToken, Tokens};
use crate::notation::{MoveParseError, fen, parse_turn};
use crate::position::Position;
use hashbrown::HashMap;
use std::path::Path;

/// Suggested moves by position (zobrist hash).
#[derive(Clone, Debug, Default)]
pub struct Book {
    moves: HashMap<u64, Vec<Move>>,
}

/// What is wrong with a book file.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The file could not be read.
    #[error("cannot read the book {path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        error: std::io::Error,
    },
    /// The PGN does not read.
    #[error("{path}: {error}")]
    Pgn {
        /// The file.
        path: String,
        /// The cause.
        error: PgnError,
    },
    /// A FEN (a PGN `FEN` tag or an EPD line) does not read.
    #[error("{path}, {place}: bad position: {problem}")]
    Position {
        /// The file.
        path: String,
        /// Where: the game and move, or the line.
        place: String,
        /// The cause.
        problem: String,
    },
    /// A move is not legal (or not a move) where it stands.
    #[error("{path}, {place}: {error}")]
    Move {
        /// The file.
        path: String,
        /// Where: the game and move, or the line.
        place: String,
        /// The cause.
        error: MoveParseError,
    },
    /// The file holds no suggested move.
    #[error("{path}: no move in the book (PGN games or EPD lines with bm)")]
    Empty {
        /// The file.
        path: String,
    },
}

impl Book {
    /// The moves suggested at the position with hash `key`, if any.
    pub fn moves(&self, key: u64) -> Option<&[Move]> {
        self.moves.get(&key).map(Vec::as_slice)
    }

    /// How many positions have suggestions.
    pub fn positions(&self) -> usize {
        self.moves.len()
    }

    /// How many suggestions in all.
    pub fn suggestions(&self) -> usize {
        self.moves.values().map(Vec::len).sum()
    }

    /// Adds `m` as a suggestion at `pos` (once).
    pub fn suggest<P: Position>(&mut self, pos: &P, m: Move) {
        let list = self.moves.entry(pos.zobrist()).or_default();
        if !list.contains(&m) {
            list.push(m);
        }
    }

    /// Reads a book file of variant `P`: EPD if its name ends in `.epd`,
    /// PGN otherwise.
    pub fn read<P: Position>(path: &Path) -> Result<Book, BookError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| BookError::Io {
            path: name.clone(),
            error,
        })?;
        let book = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("epd"))
        {
            Self::from_epd::<P>(&text, &name)?
        } else {
            Self::from_pgn::<P>(&text, &name)?
        };
        if book.moves.is_empty() {
            return Err(BookError::Empty { path: name });
        }
        Ok(book)
    }

    /// Reads PGN text (every game, every variation; `name` names it in
    /// errors). A game starts from its `FEN` tag or the variant's start.
    pub fn from_pgn<P: Position>(text: &str, name: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        let mut reader = PgnBookReader::<P>::new(name);
        for token in Tokens::new(text) {
            let token = token.map_err(|error| BookError::Pgn {
                path: name.to_string(),
                error,
            })?;
            reader.take(token, &mut book)?;
        }
        Ok(book)
    }

    /// Reads EPD text: one position a line (four FEN fields, then
    /// operations), whose `bm` operation lists the suggested moves in SAN
    /// or UCI. Lines without `bm`, blank lines and `#` comments are skipped.
    pub fn from_epd<P: Position>(text: &str, name: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let place = format!("line {}", number + 1);
            let fields: Vec<&str> = line.splitn(5, ' ').collect();
            if fields.len() < 4 {
                return Err(BookError::Position {
                    path: name.to_string(),
                    place,
                    problem: "an EPD line needs four FEN fields".into(),
                });
            }
            let fen_text = format!("{} 0 1", fields[..4].join(" "));
            let pos: P = fen::parse_position(&fen_text).map_err(|e| BookError::Position {
                path: name.to_string(),
                place: place.clone(),
                problem: e.to_string(),
            })?;
            let operations = fields.get(4).copied().unwrap_or("");
            for operation in operations.split(';') {
                let mut words = operation.split_whitespace();
                if words.next() != Some("bm") {
                    continue;
                }
                for text in words {
                    let turn = parse_turn(&pos, text).map_err(|error| BookError::Move {
                        path: name.to_string(),
                        place: place.clone(),
                        error,
                    })?;
                    suggest_turn(&mut book, &pos, &turn);
                }
            }
        }
        Ok(book)
    }
}

/// Suggests every sub-move of `turn` at the position it is played in.
fn suggest_turn<P: Position>(book: &mut Book, pos: &P, turn: &[Move]) -> P {
    let mut at = pos.clone();
    for &m in turn {
        book.suggest(&at, m);
        at.play_unchecked(m);
    }
    at
}

/// Walks PGN tokens: the position now and the one before the last move,
/// with a stack of them for the open variations.
struct PgnBookReader<'n, P> {
    name: &'n str,
    game: usize,
    now: P,
    before: Option<P>,
    open: Vec<(P, Option<P>)>,
    moves_read: usize,
}

impl<'n, P: Position> PgnBookReader<'n, P> {
    fn new(name: &'n str) -> Self {
        PgnBookReader {
            name,
            game: 1,
            now: P::start(),
            before: None,
            open: Vec::new(),
            moves_read: 0,
        }
    }

    fn place(&self) -> String {
        format!("game {}, move {}", self.game, self.moves_read + 1)
    }

    fn take(&mut self, token: PgnToken, book: &mut Book) -> Result<(), BookError> {
        match token {
            PgnToken::Tag(tag, value) if tag == "FEN" => {
                self.now = fen::parse_position(&value).map_err(|e| BookError::Position {
                    path: self.name.to_string(),
                    place: format!("game {}", self.game),
                    problem: e.to_string(),
                })?;
                self.before = None;
            }
            PgnToken::Tag(..) => {}
            PgnToken::Move(text) => {
                let turn = parse_turn(&self.now, &text).map_err(|error| BookError::Move {
                    path: self.name.to_string(),
                    place: self.place(),
                    error,
                })?;
                let after = suggest_turn(book, &self.now, &turn);
                self.before = Some(std::mem::replace(&mut self.now, after));
                self.moves_read += 1;
            }
            PgnToken::Open => {
                let Some(before) = self.before.clone() else {
                    return Err(BookError::Move {
                        path: self.name.to_string(),
                        place: self.place(),
                        error: MoveParseError::Syntax("a variation before any move".into()),
                    });
                };
                self.open.push((self.now.clone(), self.before.take()));
                self.now = before;
            }
            PgnToken::Close => {
                if let Some((now, before)) = self.open.pop() {
                    self.now = now;
                    self.before = before;
                }
            }
            PgnToken::Result(_) => {
                self.game += 1;
                self.now = P::start();
                self.before = None;
                self.open.clear();
                self.moves_read = 0;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;
    use crate::variants::Antichess;

    fn after(moves: &[&str]) -> Antichess {
        let mut pos = Antichess::start();
        for m in moves {
            let mv = parse_move(&pos, m).unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    #[test]
    fn pgn_variations_suggest_moves_at_their_own_positions() {
        let book = Book::from_pgn::<Antichess>("1. e3 c5 (1... b6 2. Ba6) 2. Bb5 *", "t").unwrap();
        let mv = |pos: &Antichess, m| parse_move(pos, m).unwrap();
        let start = Antichess::start();
        assert_eq!(book.moves(start.zobrist()), Some(&[mv(&start, "e3")][..]));
        let e3 = after(&["e3"]);
        let replies = book.moves(e3.zobrist()).unwrap();
        assert_eq!(replies, &[mv(&e3, "c5"), mv(&e3, "b6")]);
        let b6 = after(&["e3", "b6"]);
        assert_eq!(book.moves(b6.zobrist()), Some(&[mv(&b6, "Ba6")][..]));
        let c5 = after(&["e3", "c5"]);
        assert_eq!(book.moves(c5.zobrist()), Some(&[mv(&c5, "Bb5")][..]));
        assert_eq!((book.positions(), book.suggestions()), (4, 5));
    }

    #[test]
    fn epd_bm_and_errors_name_their_place() {
        let book = Book::from_epd::<Antichess>(
            "# a comment\nrnbqkbnr/pp1ppppp/8/2p5/8/4P3/PPPP1PPP/RNBQKBNR w - - bm Bb5; id \"x\";\n",
            "t.epd",
        )
        .unwrap();
        assert_eq!(book.suggestions(), 1);
        let bad = Book::from_epd::<Antichess>("8/8/8/8/8/8/8/8 w - - bm e4;", "t.epd");
        assert!(bad.unwrap_err().to_string().contains("line 1"));
        let illegal = Book::from_pgn::<Antichess>("1. e4 e5 2. Ke3 *", "t.pgn").unwrap_err();
        assert!(illegal.to_string().contains("game 1, move 3"), "{illegal}");
    }
}
