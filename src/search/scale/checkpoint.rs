//! The outer tree on disk, so that a stopped search resumes where it was.
//!
//! ```text
//! magic "RANSOMCK", version u16 (2; 1 is still read, without the watch)
//! variant (u16 length + UTF-8), root FEN (u16 length + UTF-8), attacker u8 (0 white, 1 black)
//! nodes searched u64, leaf searches u64, seconds searched f64
//! node count u32, then every node in pre-order:
//!     move code u16 (0 for the root), pn u32, dn u32, flags u8, child count u16
//!     (flags: 1 expanded, 2 disproved by a heuristic no-win rule only)
//! the sums watch (`--sums switch`): the root's lowest pn u32, the nodes
//!     searched when it was reached u64, the nodes searched at the switch
//!     u64 (all ones: no switch yet)
//! CRC-32C u32 of everything before
//! ```
//!
//! A node's children follow it, each with the code of its move from the
//! parent; on reading, every code must be a legal move of the parent (the
//! positions are replayed from the root, so a checkpoint can never smuggle
//! in a position). Checkpoints are written atomically (temporary file,
//! sync, rename) after the store's log has been synced, so a checkpoint
//! never depends on results a crash could lose.

use super::sums_switch::SumsSwitch;
use super::tree::{NONE, Node, NodeId, OuterTree};
use crate::board::Color;
use crate::moves;
use crate::notation::fen;
use crate::position::Position;
use crate::search::Pn;
pub use crate::solved::tree_file::{
    Summary, Totals, file_name, parse_file_name, summary, summary_of,
};
use crate::solved::tree_file::{corrupt, read_header, seal, write_header};
use crate::store::cursor::Cursor;
use crate::store::{StoreError, write_atomically};
use std::path::Path;

/// Writes `tree` and `totals` to `path` atomically.
pub fn save<P: Position>(
    path: &Path,
    tree: &OuterTree<P>,
    totals: &Totals,
) -> Result<(), StoreError> {
    let mut out = Vec::with_capacity(64 + tree.nodes.len() * 16);
    write_header(
        &mut out,
        P::VARIANT.name(),
        &fen::write(&tree.nodes[0].pos),
        tree.attacker,
        totals,
        tree.nodes.len() as u32,
    );
    let mut stack: Vec<NodeId> = vec![0];
    while let Some(id) = stack.pop() {
        let node = &tree.nodes[id as usize];
        let code = node.mv.map_or(0, |m| moves::encode(m) as u16);
        out.extend_from_slice(&code.to_le_bytes());
        out.extend_from_slice(&node.pn.get().to_le_bytes());
        out.extend_from_slice(&node.dn.get().to_le_bytes());
        out.push(u8::from(node.expanded) | (u8::from(node.pruned) << 1));
        out.extend_from_slice(&(node.children.len() as u16).to_le_bytes());
        stack.extend(node.children.iter().rev());
    }
    let (lowest, since, switched_at) = tree.sums_switch.progress();
    out.extend_from_slice(&lowest.get().to_le_bytes());
    out.extend_from_slice(&since.to_le_bytes());
    out.extend_from_slice(&switched_at.unwrap_or(u64::MAX).to_le_bytes());
    seal(&mut out);
    write_atomically(path, &out)
}

/// Where an unfinished search stands: its most-proving line (see
/// [`OuterTree::most_proving_line`]) in SAN, and the position at its end.
#[derive(Clone, Debug, PartialEq)]
pub struct Frontier {
    /// The moves from the searched position, in SAN.
    pub line: Vec<String>,
    /// The position at the end of the line.
    pub fen: String,
    /// Its proof and disproof numbers.
    pub numbers: (u32, u32),
}

/// The most-proving line of the checkpoint at `path` (a search of `root`
/// by `attacker`).
pub fn frontier<P: Position>(
    path: &Path,
    root: &P,
    attacker: Color,
) -> Result<Frontier, StoreError> {
    let (tree, _) = load(path, root, attacker)?.ok_or_else(|| StoreError::Io {
        path: path.display().to_string(),
        error: std::io::Error::new(std::io::ErrorKind::NotFound, "no checkpoint"),
    })?;
    let ids = tree.most_proving_line();
    let line = ids
        .windows(2)
        .filter_map(|pair| {
            let parent = &tree.nodes[pair[0] as usize];
            let mv = tree.nodes[pair[1] as usize].mv?;
            Some(crate::notation::san::write(&parent.pos, mv))
        })
        .collect();
    let end = &tree.nodes[*ids.last().unwrap_or(&0) as usize];
    Ok(Frontier {
        line,
        fen: fen::write(&end.pos),
        numbers: (end.pn.get(), end.dn.get()),
    })
}

/// Reads the checkpoint at `path` for a search of `root` by `attacker`.
/// `Ok(None)` if there is none; an error if it is damaged or belongs to
/// another search.
pub fn load<P: Position>(
    path: &Path,
    root: &P,
    attacker: Color,
) -> Result<Option<(OuterTree<P>, Totals)>, StoreError> {
    let Some((body, header)) = read_header(path)? else {
        return Ok(None);
    };
    // Nothing the search proves depends on the move clocks (no rule set
    // here has a move-count rule), and the file is named by the position's
    // hash, which leaves them out.
    if header.variant != P::VARIANT.name()
        || fen::without_clocks(&header.root_fen) != fen::without_clocks(&fen::write(root))
    {
        return Err(corrupt(path, "it belongs to another position"));
    }
    if header.attacker != attacker {
        return Err(corrupt(path, "it belongs to the other side's search"));
    }
    let totals = header.totals;
    let count = header.node_count as usize;
    let mut r = Cursor {
        bytes: &body,
        pos: header.nodes_at,
    };
    let short = || corrupt(path, "truncated");
    let mut tree = OuterTree::new(root.clone(), attacker, (Pn::ONE, Pn::ONE));
    tree.nodes.clear();
    // (parent, children still to read) of the nodes whose children follow.
    let mut open: Vec<(NodeId, u16)> = Vec::new();
    for i in 0..count {
        let code = r.u16().ok_or_else(short)?;
        let pn = Pn::from_raw(r.u32().ok_or_else(short)?);
        let dn = Pn::from_raw(r.u32().ok_or_else(short)?);
        let flags = r.u8().ok_or_else(short)?;
        if flags > 3 {
            return Err(corrupt(path, "a node with unknown flags"));
        }
        let (expanded, pruned) = (flags & 1 != 0, flags & 2 != 0);
        let children = r.u16().ok_or_else(short)?;
        let (parent, pos, mv) = if i == 0 {
            (NONE, root.clone(), None)
        } else {
            let (parent, left) = open
                .last_mut()
                .ok_or_else(|| corrupt(path, "a node without a parent"))?;
            *left -= 1;
            let parent = *parent;
            let from = &tree.nodes[parent as usize].pos;
            let mv = moves::decode(&from.legal_moves(), u32::from(code))
                .ok_or_else(|| corrupt(path, "a move that is not legal in its position"))?;
            let mut pos = from.clone();
            pos.play_unchecked(mv);
            (parent, pos, Some(mv))
        };
        while open.last().is_some_and(|o| o.1 == 0) {
            open.pop();
        }
        let id = tree.nodes.len() as NodeId;
        if parent != NONE {
            tree.nodes[parent as usize].children.push(id);
        }
        tree.nodes.push(Node {
            preferred: Vec::new(),
            pruned,
            score: None,
            hash: pos.zobrist(),
            pos,
            parent,
            mv,
            children: Vec::new(),
            pn,
            dn,
            expanded,
            busy: 0,
        });
        if children > 0 {
            open.push((id, children));
        }
    }
    if header.version >= 2 {
        let lowest = Pn::from_raw(r.u32().ok_or_else(short)?);
        let since = r.u64().ok_or_else(short)?;
        let switched_at = Some(r.u64().ok_or_else(short)?).filter(|&n| n != u64::MAX);
        tree.sums_switch = SumsSwitch::with_progress((lowest, since, switched_at));
    }
    if !open.is_empty() || r.pos != body.len() || tree.nodes.is_empty() {
        return Err(corrupt(path, "the node count does not match the tree"));
    }
    Ok(Some((tree, totals)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Antichess;

    #[test]
    fn a_tree_round_trips_and_damage_is_refused() {
        let root = Antichess::start();
        let mut tree = OuterTree::new(root.clone(), Color::White, (Pn::ONE, Pn::new(20)));
        let leaf = tree.select().unwrap();
        let children = root
            .legal_moves()
            .iter()
            .map(|&mv| {
                let mut c = root.clone();
                c.play_unchecked(mv);
                (mv, c, Pn::new(3), Pn::new(2))
            })
            .collect();
        tree.apply(leaf, super::super::tree::LeafOutcome::Expanded(children));
        // One leaf disproved by a no-win rule only: the mark and the
        // infinite proof number survive the file.
        tree.nodes[7].pruned = true;
        (tree.nodes[7].pn, tree.nodes[7].dn) = (Pn::INFINITE, Pn::ZERO);
        let dir = std::env::temp_dir().join(format!("ransom-ckpt-{}", std::process::id()));
        let path = dir.join("t.ckpt");
        let totals = Totals {
            nodes: 77,
            leaf_searches: 1,
            seconds: 0.5,
        };
        save(&path, &tree, &totals).unwrap();
        let (back, t) = load(&path, &root, Color::White).unwrap().unwrap();
        assert_eq!(t, totals);
        assert_eq!(back.sums_switch, tree.sums_switch);
        assert_eq!(back.nodes.len(), 21);
        assert_eq!(back.root_numbers(), tree.root_numbers());
        assert_eq!(back.nodes[5].hash, tree.nodes[5].hash);
        let marked: Vec<usize> = (0..21).filter(|&i| back.nodes[i].pruned).collect();
        assert_eq!(marked.len(), 1);
        assert_eq!(back.nodes[marked[0]].hash, tree.nodes[7].hash);
        assert_eq!(back.nodes[marked[0]].pn, Pn::INFINITE);
        assert!(load(&path, &root, Color::Black).is_err());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = load(&path, &root, Color::White).unwrap_err().to_string();
        assert!(err.contains("checksum"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The sums watch survives the file (version 2), and a version-1 file,
    /// which has none, still loads with a fresh watch.
    #[test]
    fn the_sums_watch_round_trips_and_version_one_still_loads() {
        use crate::search::guide::Sums;
        let root = Antichess::start();
        let mut tree = OuterTree::new(root.clone(), Color::White, (Pn::ONE, Pn::new(20)));
        let sums = Sums::Switch { after: 50 };
        tree.sums_switch.arm(sums);
        tree.sums_switch.observe(Pn::new(7), 10);
        tree.sums_switch.observe(Pn::new(8), 70);
        assert!(tree.sums_switch.switched());
        let dir = std::env::temp_dir().join(format!("ransom-ckpt-watch-{}", std::process::id()));
        let path = dir.join("t.ckpt");
        save(&path, &tree, &Totals::default()).unwrap();
        let (mut back, _) = load(&path, &root, Color::White).unwrap().unwrap();
        back.sums_switch.arm(sums);
        assert_eq!(back.sums_switch, tree.sums_switch);
        assert!(back.sums_switch.note().unwrap().contains("at 7 or more"));

        // The same file as version 1 wrote it: no watch, version 1, resealed.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.truncate(bytes.len() - 4 - 20);
        bytes[8..10].copy_from_slice(&1u16.to_le_bytes());
        crate::solved::tree_file::seal(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        let (old, _) = load(&path, &root, Color::White).unwrap().unwrap();
        assert_eq!(old.nodes.len(), 1);
        assert_eq!(old.sums_switch, SumsSwitch::default());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_same_position_with_other_clocks_resumes_the_tree() {
        let root = Antichess::start();
        let tree = OuterTree::new(root.clone(), Color::White, (Pn::ONE, Pn::new(20)));
        let dir = std::env::temp_dir().join(format!("ransom-ckpt-clocks-{}", std::process::id()));
        let path = dir.join("t.ckpt");
        save(&path, &tree, &Totals::default()).unwrap();
        let later: Antichess =
            crate::notation::fen::parse_position(&fen::write(&root).replace(" 0 1", " 6 9"))
                .unwrap();
        assert_ne!(fen::write(&later), fen::write(&root));
        let (back, _) = load(&path, &later, Color::White).unwrap().unwrap();
        assert_eq!(fen::write(&back.nodes[0].pos), fen::write(&later));
        let other: Antichess = crate::notation::fen::parse_position(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1",
        )
        .unwrap();
        let err = load(&path, &other, Color::White).unwrap_err().to_string();
        assert!(err.contains("another position"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
