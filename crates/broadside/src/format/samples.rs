//! Sample files: layouts drawn by a sampler, to be judged against the exact answer.
//!
//! Two forms, mixed freely: JSON lines `{"layout": ["..<>.", ...]}` as `sample --json` writes
//! them, and grids of rows in the layout picture form ([`Layout::from_rows`]) separated by blank
//! lines, as `sample` prints them.

use serde::{Deserialize, Serialize};

use super::ParseError;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;

/// One line of the JSON-lines form: a layout as rows of its picture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The layout picture, one string per row.
    pub layout: Vec<String>,
}

/// Every layout in `text`, the content of the file `name`, for a `dims` board and `fleet`.
/// Errors name the file, the line and the column.
pub fn read(name: &str, text: &str, dims: Dims, fleet: &Fleet) -> Result<Vec<Layout>, ParseError> {
    let layout = |rows: &[String], line: usize| {
        Layout::from_rows(rows, dims, fleet).map_err(|e| ParseError::new(line, 1, e).in_file(name))
    };
    let mut out = Vec::new();
    let mut block: Vec<String> = Vec::new();
    let mut block_line = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('{') {
            let r: Record = serde_json::from_str(t)
                .map_err(|e| ParseError::new(i + 1, e.column().max(1), e).in_file(name))?;
            out.push(layout(&r.layout, i + 1)?);
        } else if t.is_empty() {
            if !block.is_empty() {
                out.push(layout(&block, block_line)?);
                block.clear();
            }
        } else {
            if block.is_empty() {
                block_line = i + 1;
            }
            block.push(t.to_string());
        }
    }
    if !block.is_empty() {
        out.push(layout(&block, block_line)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms_and_names_the_bad_line() {
        let d = Dims::new(3, 2);
        let fleet = Fleet::straight(&[2]);
        let text = "{\"layout\": [\"<>.\", \"...\"]}\n\n..^\n..v\n";
        let all = read("s.txt", text, d, &fleet).unwrap();
        assert_eq!(all.len(), 2);
        let record = Record {
            layout: all[1].to_rows(d, &fleet),
        };
        let line = serde_json::to_string(&record).unwrap();
        assert_eq!(
            read("s.txt", &line, d, &fleet).unwrap(),
            vec![all[1].clone()]
        );
        assert_eq!(all[1].ships[0].cells, vec![2, 5]);
        let e = read("s.txt", "<>.\n..x\n", d, &fleet).unwrap_err();
        assert_eq!((e.file.as_deref(), e.line), (Some("s.txt"), 1));
        let e = read("s.txt", "\n{\"layout\": 3}\n", d, &fleet).unwrap_err();
        assert_eq!(e.line, 2);
    }
}
