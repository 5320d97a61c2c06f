//! Puzzles drawn for print: a problem as an SVG picture ([`picture`]) and a puzzle book's
//! pages ([`book_pages`]), in millimetres, black on white. The command line turns them into
//! SVG files and, with an embedded font, PDF files (`broadside render`, `broadside book`;
//! `docs/PUBLISHING.md`).
//!
//! ```
//! use broadside::publish::{PictureOptions, picture};
//! let spec = broadside::format::text::parse(
//!     "size: 4x3\nfleet: 2 1\ngrid:\n  1 1 0 1\n2 < . . .\n0 . . . .\n1 . . . .\n",
//! )
//! .unwrap();
//! let svg = picture(&spec, &PictureOptions::default()).svg();
//! assert!(svg.starts_with("<svg") && svg.contains("</svg>"));
//! ```

mod book;
mod picture;

pub use book::{BookOptions, BookPuzzle, book_pages};
pub use picture::{PictureOptions, picture};

/// The font the pictures name: the command line embeds it in PDF files (SVG viewers fall back
/// to their sans-serif).
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// A drawing in millimetres: its size and its SVG elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Width, in millimetres.
    pub width: f64,
    /// Height, in millimetres.
    pub height: f64,
    /// The SVG elements, in millimetre units from the top left.
    pub body: String,
}

impl Picture {
    /// A standalone SVG document of the picture, sized in millimetres, on white.
    pub fn svg(&self) -> String {
        let (w, h) = (num(self.width), num(self.height));
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}, sans-serif\">\n\
             <rect width=\"{w}\" height=\"{h}\" fill=\"#fff\"/>\n{}\n</svg>\n",
            self.body
        )
    }

    /// The picture's elements placed at (`x`, `y`) and scaled by `scale`, to draw within
    /// another picture.
    pub fn placed(&self, x: f64, y: f64, scale: f64) -> String {
        format!(
            "<g transform=\"translate({} {}) scale({})\">{}</g>",
            num(x),
            num(y),
            num(scale),
            self.body
        )
    }
}

/// A number as SVG writes it: at most three decimals, no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Text made safe inside an SVG element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_text_are_written_for_svg() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(0.12345), "0.123");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
