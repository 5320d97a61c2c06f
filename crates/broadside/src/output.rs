//! Files written so that no run loses work: every file broadside writes goes through here.
//!
//! - [`write_whole`] writes a file whole or not at all: into a new temporary file beside it
//!   (never an existing one), flushed to disk, then renamed over the old file, so that a full
//!   disk or a crash leaves the old file as it was. It refuses to replace anything but a regular
//!   file (a device such as `/dev/full`, a pipe, a directory).
//! - [`check_writable`] says before a long run whether its output can be written (the folder
//!   exists, a file can be made in it, the path is no special file), so that a run does not
//!   play every game and then fail to save them.
//! - [`Lines`] appends whole lines to a file as a run makes them (a simulation's games), each
//!   flushed; after a failed write the file is cut back to its last whole line.
//! - [`free_name`] finds a name that no file has yet (`game.txt`, `game-2.txt`, ...), for a
//!   record that must not replace an earlier one.
//!
//! Every error names the file.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A file that could not be written, and why.
#[derive(Debug, thiserror::Error)]
#[error("{what} {path}: {reason}")]
pub struct OutputError {
    /// What was being done ("writing", "creating", ...).
    pub what: &'static str,
    /// The file.
    pub path: PathBuf,
    /// The system's reason.
    pub reason: io::Error,
}

impl OutputError {
    fn new(what: &'static str, path: &Path, reason: io::Error) -> OutputError {
        OutputError {
            what,
            path: path.to_path_buf(),
            reason,
        }
    }
}

/// Whether `path` names something other than a regular file: a device, a pipe, a socket or
/// a folder (which broadside never replaces).
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// An error for a path that is not a regular file.
fn special(path: &Path) -> OutputError {
    OutputError::new(
        "refusing to replace",
        path,
        io::Error::other("it is not a regular file (a device, a pipe or a folder)"),
    )
}

/// The folder `path` is in (`.` for a bare file name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file beside `path` that did not exist before, open for writing.
fn temporary(path: &Path) -> Result<(PathBuf, File), OutputError> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    for _ in 0..100 {
        let tmp = folder(path).join(format!(
            ".{name}.{}-{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(OutputError::new("writing", path, e)),
        }
    }
    Err(OutputError::new(
        "writing",
        path,
        io::Error::other("no free name for a temporary file beside it"),
    ))
}

/// Writes what `fill` writes to `path`, whole or not at all; see the module documentation.
pub fn write_whole_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), OutputError> {
    if is_special(path) {
        return Err(special(path));
    }
    let (tmp, file) = temporary(path)?;
    let written = (|| {
        let mut w = io::BufWriter::new(file);
        fill(&mut w)?;
        let file = w.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()
    })();
    let renamed = written.and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = renamed {
        let _ = std::fs::remove_file(&tmp);
        return Err(OutputError::new("writing", path, e));
    }
    Ok(())
}

/// Writes `content` to `path`, whole or not at all; see the module documentation.
pub fn write_whole(path: &Path, content: impl AsRef<[u8]>) -> Result<(), OutputError> {
    write_whole_with(path, |w| w.write_all(content.as_ref()))
}

/// Whether a file can be written at `path`: its folder exists and takes a new file, and the
/// path is no special file. Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), OutputError> {
    if is_special(path) {
        return Err(special(path));
    }
    let (tmp, file) = temporary(path)?;
    drop(file);
    let _ = std::fs::remove_file(tmp);
    Ok(())
}

/// `path` if no file has that name, else the first of `stem-2.ext`, `stem-3.ext`, ... that
/// none has.
pub fn free_name(path: &Path) -> PathBuf {
    if !path.exists() {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|i| path.with_file_name(format!("{stem}-{i}{ext}")))
        .find(|p| !p.exists())
        .expect("some number is free")
}

/// A file of lines written as a run makes them; see the module documentation.
pub struct Lines {
    path: PathBuf,
    file: File,
    /// Bytes of whole lines written.
    len: u64,
    /// Lines written.
    lines: u64,
}

impl Lines {
    /// A new, empty file at `path` (an old one there is replaced, a special file refused).
    pub fn create(path: &Path) -> Result<Lines, OutputError> {
        if is_special(path) {
            return Err(special(path));
        }
        let file = File::create(path).map_err(|e| OutputError::new("creating", path, e))?;
        Ok(Lines {
            path: path.to_path_buf(),
            file,
            len: 0,
            lines: 0,
        })
    }

    /// The file at `path` opened to go on where a run that was cut short stopped: its whole
    /// lines are kept (and returned), a last line cut mid-way is removed, and further lines go
    /// after them.
    pub fn resume(path: &Path) -> Result<(Lines, Vec<String>), OutputError> {
        use std::io::{Read, Seek, SeekFrom};
        if is_special(path) {
            return Err(special(path));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| OutputError::new("opening", path, e))?;
        let mut content = Vec::new();
        file.read_to_end(&mut content)
            .map_err(|e| OutputError::new("reading", path, e))?;
        let keep = content
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        file.set_len(keep as u64)
            .and_then(|()| file.seek(SeekFrom::End(0)).map(|_| ()))
            .map_err(|e| OutputError::new("cutting back", path, e))?;
        let text = String::from_utf8_lossy(&content[..keep]);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        Ok((
            Lines {
                path: path.to_path_buf(),
                file,
                len: keep as u64,
                lines: lines.len() as u64,
            },
            lines,
        ))
    }

    /// Appends `line` and a newline, flushed; on an error the file is cut back to the lines
    /// written before.
    pub fn push(&mut self, line: &str) -> Result<(), OutputError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match self.file.write_all(&bytes).and_then(|()| self.file.flush()) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                self.lines += 1;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                Err(OutputError::new("writing", &self.path, e))
            }
        }
    }

    /// Lines written so far.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name` in a new folder of the test's own.
    fn scratch(test: &str, name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("broadside-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_failed_write_keeps_the_old_file_and_leaves_nothing_beside_it() {
        let path = scratch("whole", "record.txt");
        write_whole(&path, "old\n").unwrap();
        let failed = write_whole_with(&path, |w| {
            w.write_all(b"half a new rec")?;
            Err(io::Error::other("the disk is full"))
        });
        let e = failed.unwrap_err();
        assert!(e.to_string().contains("record.txt") && e.to_string().contains("disk is full"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("record.txt")]);
        write_whole(&path, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        // A sibling with the old temporary name is not touched.
        let sibling = path.with_extension("partial");
        std::fs::write(&sibling, "mine").unwrap();
        write_whole(&path, "newer\n").unwrap();
        assert_eq!(std::fs::read_to_string(&sibling).unwrap(), "mine");
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn special_files_and_missing_folders_are_refused() {
        let dir = scratch("special", "x").parent().unwrap().to_path_buf();
        assert!(write_whole(&dir, "x").is_err());
        assert!(check_writable(&dir).is_err());
        assert!(check_writable(&dir.join("no/such/folder/f.txt")).is_err());
        assert!(check_writable(&dir.join("fine.txt")).is_ok());
        assert!(!dir.join("fine.txt").exists());
        let _ = std::fs::remove_dir_all(&dir);
        #[cfg(unix)]
        {
            let e = write_whole(Path::new("/dev/null"), "x").unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn free_names_count_up() {
        let path = scratch("free", "game.txt");
        let _ = std::fs::remove_file(&path);
        assert_eq!(free_name(&path), path);
        std::fs::write(&path, "1").unwrap();
        assert_eq!(free_name(&path), path.with_file_name("game-2.txt"));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[test]
    fn lines_are_whole() {
        let path = scratch("lines", "games.jsonl");
        let mut lines = Lines::create(&path).unwrap();
        lines.push("{\"a\": 1}").unwrap();
        lines.push("{\"b\": 2}").unwrap();
        assert_eq!(lines.lines(), 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"a\": 1}\n{\"b\": 2}\n"
        );
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
        #[cfg(target_os = "linux")]
        {
            let mut full = Lines {
                path: "/dev/full".into(),
                file: OpenOptions::new().write(true).open("/dev/full").unwrap(),
                len: 0,
                lines: 0,
            };
            let e = full.push("x").unwrap_err();
            assert!(e.to_string().contains("/dev/full"), "{e}");
        }
    }
}
