//! Reading PGN movetext: tag pairs, move numbers, comments (`{...}`, `;`),
//! NAGs (`$1`), variations (`(...)`) and the result. In Hostage
//! chess a parenthesis that opens an exchange, `(B-N)N*c7` or `(R)*g3`
//! (RULES H10), is part of the move, not a variation.

/// One game read from PGN: its tag pairs and main-line moves as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in order (`[FEN "..."]` gives `("FEN", "...")`).
    pub tags: Vec<(String, String)>,
    /// The main-line moves (SAN or UCI text, marks kept).
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if present.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN defines it).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What is wrong with PGN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// A comment, tag or variation is not closed.
    #[error("unterminated {0} in PGN")]
    Unterminated(&'static str),
    /// A closing parenthesis without an opening one.
    #[error("unmatched ')' in PGN at byte {0}")]
    Unmatched(usize),
    /// A tag pair that does not read as `[Name "value"]`.
    #[error("malformed tag pair '{0}'")]
    Tag(String),
    /// Nothing but blanks and comments: no tag, move or result.
    #[error("no game in the PGN (no tag pair, move or result)")]
    NoGame,
}

/// Whether `rest` (starting at `(`) opens a Hostage exchange: `(X)` or
/// `(X-Y)` followed directly by an optional letter, `*` or `@`, a square.
fn is_exchange(rest: &[u8]) -> bool {
    let held = |c: u8| b"QRBNP".contains(&c);
    let mut i = 1;
    if !rest.get(i).is_some_and(|&c| held(c)) {
        return false;
    }
    i += 1;
    if rest.get(i) == Some(&b'-') {
        if !rest.get(i + 1).is_some_and(|&c| held(c)) {
            return false;
        }
        i += 2;
    }
    if rest.get(i) != Some(&b')') {
        return false;
    }
    i += 1;
    if rest.get(i).is_some_and(|&c| held(c)) {
        i += 1;
    }
    matches!(rest.get(i), Some(b'*' | b'@'))
        && rest.get(i + 1).is_some_and(|c| (b'a'..=b'h').contains(c))
        && rest.get(i + 2).is_some_and(|c| (b'1'..=b'8').contains(c))
}

/// One piece of PGN text: what [`Tokens`] yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnToken {
    /// A tag pair, `[Name "value"]`.
    Tag(String, String),
    /// A move as written (move numbers and NAGs left out, marks kept).
    Move(String),
    /// `(`: a variation opens; it replaces the move just read.
    Open,
    /// `)`: the variation closes.
    Close,
    /// A result token (`1-0`, `0-1`, `1/2-1/2`, `*`): the game ends.
    Result(String),
}

/// The tokens of PGN text, every game and variation included; comments,
/// NAGs, move numbers and escape lines skipped. Errors for an unclosed
/// comment, tag or variation and for a `)` that closes nothing.
pub struct Tokens<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
    failed: bool,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text` (a UTF-8 byte-order mark at the start skipped).
    pub fn new(text: &'a str) -> Self {
        Tokens {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            at: 0,
            depth: 0,
            failed: false,
        }
    }

    fn next_token(&mut self) -> Result<Option<PgnToken>, PgnError> {
        let text = self.text;
        let bytes = text.as_bytes();
        while self.at < bytes.len() {
            let i = self.at;
            let c = bytes[i];
            match c {
                _ if c.is_ascii_whitespace() => self.at += 1,
                b'{' => {
                    let end = text[i..]
                        .find('}')
                        .ok_or(PgnError::Unterminated("comment"))?;
                    self.at += end + 1;
                }
                b';' => self.at += text[i..].find('\n').unwrap_or(text.len() - i),
                b'%' if i == 0 || bytes[i - 1] == b'\n' => {
                    self.at += text[i..].find('\n').unwrap_or(text.len() - i);
                }
                b'[' => {
                    let (name, value, len) = read_tag(&text[i..])?;
                    self.at += len;
                    return Ok(Some(PgnToken::Tag(name, value)));
                }
                b'(' if !is_exchange(&bytes[i..]) => {
                    self.at += 1;
                    self.depth += 1;
                    return Ok(Some(PgnToken::Open));
                }
                b')' => {
                    if self.depth == 0 {
                        return Err(PgnError::Unmatched(i));
                    }
                    self.at += 1;
                    self.depth -= 1;
                    return Ok(Some(PgnToken::Close));
                }
                _ => {
                    let start = i;
                    let mut j = i;
                    while j < bytes.len() && !bytes[j].is_ascii_whitespace() && bytes[j] != b'{' {
                        let opens = bytes[j] == b'(' && j > start && !inside_san(bytes, j);
                        let closes = bytes[j] == b')'
                            && !is_exchange_close(bytes, j)
                            && !(j >= 2 && bytes[j - 2] == b'(' && inside_san(bytes, j - 2));
                        if bytes[j] == b';' || opens || closes {
                            break;
                        }
                        j += 1;
                    }
                    self.at = j;
                    let token = &text[start..j];
                    if token.starts_with('$') {
                        continue;
                    }
                    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                        return Ok(Some(PgnToken::Result(token.to_string())));
                    }
                    let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
                    let token = token.trim_start_matches('.');
                    if !token.is_empty() {
                        return Ok(Some(PgnToken::Move(token.to_string())));
                    }
                }
            }
        }
        if self.depth > 0 {
            return Err(PgnError::Unterminated("variation"));
        }
        Ok(None)
    }
}

impl Iterator for Tokens<'_> {
    type Item = Result<PgnToken, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.next_token().transpose();
        if matches!(next, Some(Err(_))) {
            self.failed = true;
        }
        next
    }
}

/// Reads the first game of `text`: its tags and main line (variations
/// skipped); text without a game is an error. A UTF-8 byte-order mark at
/// the start (as some editors write) is skipped.
pub fn parse(text: &str) -> Result<PgnGame, PgnError> {
    let mut game = PgnGame::default();
    let mut depth = 0usize;
    for token in Tokens::new(text) {
        match token? {
            PgnToken::Tag(name, value) => game.tags.push((name, value)),
            PgnToken::Open => depth += 1,
            PgnToken::Close => depth -= 1,
            PgnToken::Move(m) if depth == 0 => game.moves.push(m),
            PgnToken::Move(_) => {}
            PgnToken::Result(r) if depth == 0 => {
                game.result = Some(r);
                break;
            }
            PgnToken::Result(_) => {}
        }
    }
    if game == PgnGame::default() {
        return Err(PgnError::NoGame);
    }
    Ok(game)
}

/// Reads `[Name "value"]` at the start of `text`: the name, the value
/// (with `\"` and `\\` unescaped) and the length read.
fn read_tag(text: &str) -> Result<(String, String, usize), PgnError> {
    let line = text.lines().next().unwrap_or(text);
    let bad = || PgnError::Tag(line.to_string());
    let open = text.find('"').ok_or_else(bad)?;
    let name = text[1..open].trim();
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err(bad());
    }
    let mut value = String::new();
    let mut chars = text[open + 1..].char_indices();
    while let Some((j, c)) = chars.next() {
        match c {
            '\\' => value.extend(chars.next().map(|(_, c)| c)),
            '"' => {
                let rest = &text[open + 1 + j + 1..];
                let close = rest.find(']').ok_or(PgnError::Unterminated("tag"))?;
                if !rest[..close].trim().is_empty() {
                    return Err(bad());
                }
                return Ok((name.to_string(), value, open + 1 + j + 1 + close + 1));
            }
            '\n' => return Err(bad()),
            c => value.push(c),
        }
    }
    Err(PgnError::Unterminated("tag"))
}

/// Whether the `(` at `i` is a disambiguation inside a move (`N(b)d7`):
/// one file or rank character, then `)`.
fn inside_san(bytes: &[u8], i: usize) -> bool {
    bytes.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric()) && bytes.get(i + 2) == Some(&b')')
}

/// Whether the `)` at `i` closes an exchange prefix `(X)` or `(X-Y)`.
fn is_exchange_close(bytes: &[u8], i: usize) -> bool {
    [2, 4]
        .into_iter()
        .any(|back| i >= back && bytes[i - back] == b'(' && is_exchange(&bytes[i - back..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<PgnToken> {
        Tokens::new(text).collect::<Result<_, _>>().unwrap()
    }

    #[test]
    fn variations_nest_and_games_follow_each_other() {
        use PgnToken::*;
        let m = |s: &str| Move(s.to_string());
        assert_eq!(
            tokens("[FEN \"x\"]\n1. e4 {c} (1. d4 $1 (1. c4) d5) e5 1-0 1. b4 *"),
            [
                Tag("FEN".into(), "x".into()),
                m("e4"),
                Open,
                m("d4"),
                Open,
                m("c4"),
                Close,
                m("d5"),
                Close,
                m("e5"),
                Result("1-0".into()),
                m("b4"),
                Result("*".into()),
            ]
        );
        // A Hostage exchange and a disambiguation stay inside their moves,
        // in a variation too (RULES H10).
        assert_eq!(
            tokens("1. e4 ((B-N)N*c7 N(b)d7) *"),
            [
                m("e4"),
                Open,
                m("(B-N)N*c7"),
                m("N(b)d7"),
                Close,
                Result("*".into())
            ]
        );
        let unclosed: Vec<_> = Tokens::new("1. e4 (1. d4").collect();
        assert!(matches!(
            unclosed.last(),
            Some(Err(PgnError::Unterminated("variation")))
        ));
        let stray: Vec<_> = Tokens::new("1. e4 ) e5").collect();
        assert!(matches!(stray.last(), Some(Err(PgnError::Unmatched(6)))));
    }
}
