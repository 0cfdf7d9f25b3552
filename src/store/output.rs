//! Checks, made before a long job starts, that its results can be written
//! where they are asked for, so that nothing computed is lost to a path
//! that could never work.

use std::path::{Path, PathBuf};

/// The longest file name most file systems take.
const MAX_FILE_NAME: usize = 255;

/// A path a result cannot be written to.
#[derive(Debug, thiserror::Error)]
pub enum OutputPathError {
    /// No file name (`/`, `..`).
    #[error("{}: not a file name to write to", .0.display())]
    NoFileName(PathBuf),
    /// A file name longer than file systems take.
    #[error("{}: the file name is too long", .0.display())]
    TooLong(PathBuf),
    /// A directory where the file should be.
    #[error("{}: is a directory, not a file to write", .0.display())]
    IsDirectory(PathBuf),
    /// A file where a folder should be.
    #[error("{}", if shown == file { format!("{file} is a file, not a directory") } else { format!("{shown}: {file} is a file, not a directory") })]
    FileInTheWay {
        /// What is to be written.
        shown: String,
        /// The file in the way.
        file: String,
    },
}

/// Checks that a result can be written to `path`: a file name that is not
/// too long, not a directory, and inside a directory (folders that do not
/// exist yet are created when it is written).
pub fn check_output_path(path: &Path) -> Result<(), OutputPathError> {
    let Some(name) = path.file_name() else {
        return Err(OutputPathError::NoFileName(path.to_path_buf()));
    };
    if name.len() > MAX_FILE_NAME {
        return Err(OutputPathError::TooLong(path.to_path_buf()));
    }
    if path.is_dir() {
        return Err(OutputPathError::IsDirectory(path.to_path_buf()));
    }
    check_folders(&path.display().to_string(), path.parent())
}

/// Checks that files can be written into `dir`: it is a directory, or it
/// can be made one (the first of its ancestors that exists is a
/// directory).
pub fn check_output_dir(dir: &Path) -> Result<(), OutputPathError> {
    check_folders(&dir.display().to_string(), Some(dir))
}

/// The nearest of `folder` and its ancestors that exists must be a
/// directory; `shown` names what is to be written in the error.
fn check_folders(shown: &str, mut folder: Option<&Path>) -> Result<(), OutputPathError> {
    while let Some(dir) = folder {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if dir.exists() {
            if !dir.is_dir() {
                return Err(OutputPathError::FileInTheWay {
                    shown: shown.to_string(),
                    file: dir.display().to_string(),
                });
            }
            return Ok(());
        }
        folder = dir.parent();
    }
    Ok(())
}
