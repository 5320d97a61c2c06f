//! Reading an input whole, within bounds: a regular file or a stream (standard input), never
//! a device or a pipe that never ends a line. A file of problems is text with lines of a few
//! thousand characters at most; `/dev/zero` given by mistake, or a stream of binary noise,
//! is refused once a line passes [`MAX_LINE`] bytes or the input passes [`MAX_INPUT`],
//! instead of being read until memory runs out.

use std::io::Read;
use std::path::Path;

use super::ParseError;
use crate::error::Error;

/// The longest line read, in bytes (a shots file of 100,000 games is one line of about 300 KB).
pub const MAX_LINE: usize = 64 << 20;

/// The most bytes read from one input.
pub const MAX_INPUT: u64 = 4 << 30;

/// The content of the file at `path`: a regular file (a directory, a device such as
/// `/dev/zero` or a FIFO is refused), read within the bounds.
pub fn read_file(path: &Path) -> Result<String, Error> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| Error::Request(format!("{name}: {e}")))?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a device, a pipe or a socket)"
        };
        return Err(Error::Request(format!(
            "{name}: {what}: give a file of problems"
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::Request(format!("{name}: {e}")))?;
    read_bounded(&name, file)
}

/// Everything `input` (named `name` in errors) holds, as text, within the bounds.
pub fn read_bounded(name: &str, input: impl Read) -> Result<String, Error> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut input = input.take(MAX_INPUT + 1);
    // Bytes since the last line break, and the line they are on.
    let (mut run, mut line) = (0usize, 1usize);
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::Request(format!("{name}: {e}"))),
        };
        for &b in &chunk[..n] {
            if b == b'\n' {
                run = 0;
                line += 1;
            } else {
                run += 1;
            }
        }
        if run > MAX_LINE {
            return Err(ParseError::new(
                line,
                1,
                format!(
                    "this line is over {} MiB long: not a file of problems",
                    MAX_LINE >> 20
                ),
            )
            .in_file(name)
            .into());
        }
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > MAX_INPUT {
            return Err(Error::Request(format!(
                "{name}: over {} GiB: not a file of problems",
                MAX_INPUT >> 30
            )));
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = String::from_utf8_lossy(&bytes[..at])
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count())
            + 1;
        ParseError::new(line, column, "not UTF-8 text")
            .in_file(name)
            .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_folders_are_refused_and_endless_lines_stopped() {
        #[cfg(unix)]
        {
            let e = read_file(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let e = read_file(Path::new(env!("CARGO_MANIFEST_DIR")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("a folder"), "{e}");
        let zeros = std::io::repeat(0).take(MAX_LINE as u64 + (1 << 17));
        let e = read_bounded("<stdin>", zeros).unwrap_err().to_string();
        assert!(
            e.starts_with("<stdin>: line 1, column 1: this line is over"),
            "{e}"
        );
        let e = read_bounded("x", &b"size: 3x3\n\xff"[..])
            .unwrap_err()
            .to_string();
        assert_eq!(e, "x: line 2, column 1: not UTF-8 text");
        assert_eq!(read_bounded("x", &b"a\nb"[..]).unwrap(), "a\nb");
    }
}
