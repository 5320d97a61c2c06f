//! Drawing a heat map: a terminal table of percentages (coloured cold to hot where asked) and
//! an SVG picture.

use super::HeatMap;
use crate::geom::column_name;

impl<N: crate::engine::CountInt> HeatMap<N> {
    /// The map as text: one line per row of percentages (`--` for cells that are not open),
    /// coloured from cold to hot when `colour` is set.
    pub fn render_text(&self, colour: bool) -> String {
        let mut out = String::new();
        let height = self.per_cell.len() / self.width.max(1);
        out.push_str("    ");
        for c in 0..self.width {
            out.push_str(&format!("{:>4}", column_name(c)));
        }
        out.push('\n');
        for r in 0..height {
            out.push_str(&format!("{:>3} ", r + 1));
            for c in 0..self.width {
                let cell = r * self.width + c;
                let p = self.probability(cell);
                let text = if !self.open[cell] {
                    format!("{:>4}", self.marks[cell].unwrap_or('-'))
                } else {
                    format!("{:>4}", percent(p))
                };
                if colour && self.open[cell] {
                    let (rr, gg, bb) = heat_colour(p);
                    let fg = if is_light((rr, gg, bb)) { 30 } else { 97 };
                    out.push_str(&format!("\x1b[{fg};48;2;{rr};{gg};{bb}m{text}\x1b[0m"));
                } else {
                    out.push_str(&text);
                }
            }
            out.push('\n');
        }
        out
    }

    /// The map as an SVG picture: one square per cell coloured by probability, with the
    /// percentage written in it, coordinates round the edge, and `title` above.
    pub fn render_svg(&self, title: &str) -> String {
        let height = self.per_cell.len() / self.width.max(1);
        let (size, margin, top) = (44, 30, 50);
        let w = margin + self.width * size + 10;
        let h = top + margin + height * size + 10;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
             <text x=\"{}\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">{}</text>\n",
            w / 2,
            escape(title)
        );
        for c in 0..self.width {
            s.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>\n",
                margin + c * size + size / 2,
                top + margin - 8,
                column_name(c)
            ));
        }
        for r in 0..height {
            s.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"end\">{}</text>\n",
                margin - 6,
                top + margin + r * size + size / 2 + 4,
                r + 1
            ));
            for c in 0..self.width {
                let cell = r * self.width + c;
                let (x, y) = (margin + c * size, top + margin + r * size);
                let p = self.probability(cell);
                let (fill, ink, label) = if self.open[cell] {
                    let rgb = heat_colour(p);
                    let ink = if is_light(rgb) { "black" } else { "white" };
                    (
                        format!("rgb({},{},{})", rgb.0, rgb.1, rgb.2),
                        ink,
                        percent(p),
                    )
                } else {
                    match self.marks[cell] {
                        Some('~') => ("#e0e0e0".to_string(), "#606060", "miss".to_string()),
                        Some('#') => ("#505050".to_string(), "white", "rock".to_string()),
                        _ => ("#7a0c0c".to_string(), "white", "hit".to_string()),
                    }
                };
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"{fill}\" \
                     stroke=\"white\"/>\n<text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{ink}\" \
                     text-anchor=\"middle\">{label}</text>\n",
                    x + size / 2,
                    y + size / 2 + 4
                ));
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// A probability as a whole percentage, marking nonzero values below 1% as `<1`.
fn percent(p: f64) -> String {
    let v = (p * 100.0).round();
    if p > 0.0 && v == 0.0 {
        "<1".into()
    } else {
        format!("{v:.0}")
    }
}

/// A colour from dark blue (0) through teal and yellow to red (1).
pub fn heat_colour(p: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, (f64, f64, f64)); 5] = [
        (0.0, (24.0, 32.0, 72.0)),
        (0.25, (33.0, 113.0, 181.0)),
        (0.5, (65.0, 182.0, 160.0)),
        (0.75, (250.0, 220.0, 80.0)),
        (1.0, (215.0, 48.0, 39.0)),
    ];
    let p = p.clamp(0.0, 1.0);
    let i = STOPS
        .iter()
        .rposition(|s| s.0 <= p)
        .unwrap_or(0)
        .min(STOPS.len() - 2);
    let (p0, a) = STOPS[i];
    let (p1, b) = STOPS[i + 1];
    let t = ((p - p0) / (p1 - p0)).clamp(0.0, 1.0);
    let mix = |x: f64, y: f64| (x + (y - x) * t).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Whether dark text reads better than light text on this colour.
fn is_light((r, g, b): (u8, u8, u8)) -> bool {
    r as u32 * 3 + g as u32 * 6 + b as u32 > 1100
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_run_cold_to_hot() {
        assert_eq!(heat_colour(0.0), (24, 32, 72));
        assert_eq!(heat_colour(1.0), (215, 48, 39));
        assert_eq!(percent(0.001), "<1");
        assert_eq!(percent(0.0), "0");
    }
}
