//! The manifest of a table directory: every table file of a rule set with
//! its size and checksum, so a copied or rebuilt set can be checked
//! (`ransom tb manifest --check`). Generation is deterministic, so a
//! rebuild gives the same checksums.

use super::{Material, TbError, open_table};
use crate::store::{fnv1a64, write_atomically};
use crate::variants::Variant;
use std::path::{Path, PathBuf};

/// One table file in a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// The file name (`antichess-KRvK.rtb`).
    pub name: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// FNV-1a 64 of its contents.
    pub checksum: u64,
}

/// The manifest file of a rule set: `DIR/VARIANT.manifest`.
pub fn manifest_path(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(format!("{}.manifest", variant.name()))
}

fn io_error(path: &Path, e: std::io::Error) -> TbError {
    TbError::BadTable {
        path: path.display().to_string(),
        problem: e.to_string(),
    }
}

/// The names of the table files of `variant` in `dir` (distance files
/// `VARIANT-KEY.rtb` and win/draw/loss files `VARIANT-KEY.rwdl`), sorted.
pub fn table_files(dir: &Path, variant: Variant) -> Result<Vec<String>, TbError> {
    let prefix = format!("{}-", variant.name());
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let name = entry.map_err(|e| io_error(dir, e))?.file_name();
        let name = name.to_string_lossy().into_owned();
        if name.starts_with(&prefix) && (name.ends_with(".rtb") || name.ends_with(".rwdl")) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The material key a table file name of `variant` spells
/// (`antichess-KRvK.rtb`, `antichess-KRvK.rwdl`), or `None` for a name of
/// another form.
pub fn material_of_file(name: &str, variant: Variant) -> Option<Result<Material, TbError>> {
    let stem = name.strip_prefix(variant.name())?.strip_prefix('-')?;
    let key = stem
        .strip_suffix(".rtb")
        .or_else(|| stem.strip_suffix(".rwdl"))?;
    Some(Material::parse(key))
}

/// The table files of `variant` in `dir` that do not open as the table
/// their name says, each with its problem (a start-up check: a probe of
/// such a table answers "not covered").
pub fn unreadable_tables(dir: &Path, variant: Variant) -> Vec<String> {
    let Ok(names) = table_files(dir, variant) else {
        return Vec::new();
    };
    names
        .iter()
        .filter_map(|name| {
            let path = dir.join(name);
            match material_of_file(name, variant)? {
                Err(e) => Some(format!("{}: not a table name ({e})", path.display())),
                Ok(m) => open_table(&path, Some(variant), Some(&m))
                    .err()
                    .map(|e| e.to_string()),
            }
        })
        .collect()
}

/// The table files of `variant` in `dir` with their sizes and checksums, by name.
pub fn scan(dir: &Path, variant: Variant) -> Result<Vec<ManifestEntry>, TbError> {
    let mut entries = Vec::new();
    for name in table_files(dir, variant)? {
        let path = dir.join(&name);
        let bytes = std::fs::read(&path).map_err(|e| io_error(&path, e))?;
        entries.push(ManifestEntry {
            name,
            bytes: bytes.len() as u64,
            checksum: fnv1a64(&bytes),
        });
    }
    Ok(entries)
}

/// Writes the manifest of `variant`'s tables in `dir` (atomically); refused
/// while a table file there does not open as the table its name says.
pub fn write_manifest(dir: &Path, variant: Variant) -> Result<PathBuf, TbError> {
    let path = manifest_path(dir, variant);
    // A checksum vouches for a file; a file that does not open as the
    // table its name says must not get one.
    let unreadable = unreadable_tables(dir, variant);
    if !unreadable.is_empty() {
        return Err(TbError::BadTable {
            path: path.display().to_string(),
            problem: format!(
                "not written: {} table file(s) do not open (delete or rebuild them): {}",
                unreadable.len(),
                unreadable.join("; ")
            ),
        });
    }
    let entries = scan(dir, variant)?;
    let total: u64 = entries.iter().map(|e| e.bytes).sum();
    // A table is one or two files (`.rwdl`, `.rtb`).
    let tables: hashbrown::HashSet<&str> = entries
        .iter()
        .map(|e| {
            e.name
                .rsplit_once('.')
                .map_or(e.name.as_str(), |(stem, _)| stem)
        })
        .collect();
    let mut text = format!(
        "# ransom tablebase manifest for {}: {} files ({} tables), {} bytes\n# file\tbytes\tfnv1a64\n",
        variant.name(),
        entries.len(),
        tables.len(),
        total
    );
    for e in &entries {
        text.push_str(&format!("{}\t{}\t{:016x}\n", e.name, e.bytes, e.checksum));
    }
    write_atomically(&path, text.as_bytes())?;
    Ok(path)
}

/// What [`update_manifest`] found.
#[derive(Debug, Default)]
pub struct ManifestUpdate {
    /// The manifest file.
    pub path: PathBuf,
    /// Whether it was written (there was none).
    pub written: bool,
    /// Tables of the folder that the manifest does not list.
    pub unlisted: Vec<String>,
    /// Tables whose file differs from what the manifest lists.
    pub differing: Vec<String>,
}

/// After a build: writes the manifest of a folder that has none; a
/// manifest that exists is the folder's reference (the repository commits
/// one) and is only compared with the tables, never changed: `tb manifest`
/// rewrites it on purpose.
pub fn update_manifest(dir: &Path, variant: Variant) -> Result<ManifestUpdate, TbError> {
    let path = manifest_path(dir, variant);
    if !path.exists() {
        let path = write_manifest(dir, variant)?;
        return Ok(ManifestUpdate {
            path,
            written: true,
            ..ManifestUpdate::default()
        });
    }
    let entries = read_manifest(&path)?;
    let mut update = ManifestUpdate {
        path,
        ..ManifestUpdate::default()
    };
    for found in scan(dir, variant)? {
        match entries.iter().find(|e| e.name == found.name) {
            Some(listed) if *listed != found => update.differing.push(found.name),
            Some(_) => {}
            None => update.unlisted.push(found.name),
        }
    }
    Ok(update)
}

/// Reads a manifest file.
pub fn read_manifest(path: &Path) -> Result<Vec<ManifestEntry>, TbError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_error(path, e))?;
    let bad = |line: usize, problem: &str| TbError::BadTable {
        path: path.display().to_string(),
        problem: format!("line {line}: {problem}"),
    };
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, bytes, checksum] = fields[..] else {
            return Err(bad(i + 1, "expected three tab-separated fields"));
        };
        entries.push(ManifestEntry {
            name: name.to_string(),
            bytes: bytes.parse().map_err(|_| bad(i + 1, "bad size"))?,
            checksum: u64::from_str_radix(checksum, 16).map_err(|_| bad(i + 1, "bad checksum"))?,
        });
    }
    Ok(entries)
}

/// Compares the tables in `dir` with the manifest: one line per table that
/// is missing, extra, or differs. Empty when they agree.
pub fn check_manifest(dir: &Path, variant: Variant) -> Result<Vec<String>, TbError> {
    let listed = read_manifest(&manifest_path(dir, variant))?;
    let found = scan(dir, variant)?;
    let mut problems = Vec::new();
    for want in &listed {
        match found.iter().find(|f| f.name == want.name) {
            None => problems.push(format!("{}: missing", want.name)),
            Some(f) if f != want => problems.push(format!(
                "{}: {} bytes, checksum {:016x}; the manifest says {} bytes, {:016x}",
                f.name, f.bytes, f.checksum, want.bytes, want.checksum
            )),
            Some(_) => {}
        }
    }
    for f in &found {
        if !listed.iter().any(|w| w.name == f.name) {
            problems.push(format!("{}: not in the manifest", f.name));
        }
    }
    Ok(problems)
}
