//! Reading PGN movetext: tag pairs, move numbers, comments (`{...}`, `;`),
//! NAGs (`$1`), variations (`(...)`, skipped) and the result. In Hostage
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

/// Reads the first game of `text`; text without a game is an error. A
/// UTF-8 byte-order mark at the start (as some editors write) is skipped.
pub fn parse(text: &str) -> Result<PgnGame, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut game = PgnGame::default();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'{' => {
                let end = text[i..]
                    .find('}')
                    .ok_or(PgnError::Unterminated("comment"))?;
                i += end + 1;
            }
            b';' => i += text[i..].find('\n').unwrap_or(text.len() - i),
            b'%' if i == 0 || bytes[i - 1] == b'\n' => {
                i += text[i..].find('\n').unwrap_or(text.len() - i);
            }
            b'[' => {
                let (name, value, len) = read_tag(&text[i..])?;
                game.tags.push((name, value));
                i += len;
            }
            b'(' if !is_exchange(&bytes[i..]) => i = skip_variation(text, i)?,
            b')' => return Err(PgnError::Unmatched(i)),
            _ => {
                let start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'{' {
                    if bytes[i] == b';' || (bytes[i] == b'(' && i > start && !inside_san(bytes, i))
                    {
                        break;
                    }
                    i += 1;
                }
                let token = &text[start..i];
                if token.starts_with('$') {
                    continue;
                }
                if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = Some(token.to_string());
                    break;
                }
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
                let token = token.trim_start_matches('.');
                if !token.is_empty() {
                    game.moves.push(token.to_string());
                }
            }
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

/// Skips the variation opening at `start`, nested variations and comments
/// included; returns the index after its `)`.
fn skip_variation(text: &str, start: usize) -> Result<usize, PgnError> {
    let bytes = text.as_bytes();
    let mut depth = 1usize;
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                let end = text[i..]
                    .find('}')
                    .ok_or(PgnError::Unterminated("comment"))?;
                i += end;
            }
            b';' => i += text[i..].find('\n').unwrap_or(text.len() - i - 1),
            b'(' if !is_exchange(&bytes[i..]) && !inside_san(bytes, i) => depth += 1,
            b')' if !(i >= 2 && bytes[i - 2] == b'(' && inside_san(bytes, i - 2)) => {
                if is_exchange_close(bytes, i) {
                    // The `)` of an exchange inside the variation.
                } else {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i + 1);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(PgnError::Unterminated("variation"))
}

/// Whether the `)` at `i` closes an exchange prefix `(X)` or `(X-Y)`.
fn is_exchange_close(bytes: &[u8], i: usize) -> bool {
    [2, 4]
        .into_iter()
        .any(|back| i >= back && bytes[i - back] == b'(' && is_exchange(&bytes[i - back..]))
}
