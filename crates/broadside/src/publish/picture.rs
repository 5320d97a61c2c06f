//! One problem drawn as puzzle books print it: the grid, the counts beside the rows and under
//! the columns, the given cells as ship pieces (a circle for a one-cell ship, rounded ends, a
//! square for a middle), water as a wave, rocks, the fleet below as ship pictures, and a
//! caption above; with a person's progress or the solution where asked, and the shots of a
//! game state.

use super::{Picture, escape, num};
use crate::clue::Clue;
use crate::fleet::Fleet;
use crate::geom::Dims;
use crate::layout::Layout;
use crate::observe::ShotResult;
use crate::problem::ProblemSpec;
use crate::progress::Know;
use crate::shape::{Segment, Shape};

/// What to draw of a problem besides its clues.
#[derive(Clone, Debug)]
pub struct PictureOptions {
    /// The side of a cell, in millimetres.
    pub cell: f64,
    /// A line above the grid (the puzzle's name and grade, say).
    pub caption: Option<String>,
    /// The solution's ships, drawn in grey over the empty cells.
    pub solution: Option<Layout>,
    /// Draw the problem's progress (a person's marks), in grey.
    pub progress: bool,
    /// Draw the fleet below the grid.
    pub fleet: bool,
}

impl Default for PictureOptions {
    fn default() -> Self {
        PictureOptions {
            cell: 8.0,
            caption: None,
            solution: None,
            progress: false,
            fleet: true,
        }
    }
}

/// Ink: what is given, in black; what was found (a solution, a person's marks), in grey.
const GIVEN: &str = "#000";
const FOUND: &str = "#8a8a8a";

/// Which neighbours of a ship piece belong to the same ship: the sides it joins.
#[derive(Clone, Copy, Default)]
struct Joins {
    up: bool,
    down: bool,
    left: bool,
    right: bool,
}

/// The piece of a ship in the square at (`x`, `y`) of side `s`: `kind` a segment, or `None`
/// for a cell whose kind is not known (a plain square); `joins` the sides where it meets the
/// next cell of its ship (drawn to the edge there).
fn piece(x: f64, y: f64, s: f64, kind: Option<Segment>, joins: Joins, fill: &str) -> String {
    let p = s * 0.13;
    let r = s / 2.0 - p;
    let (cx, cy) = (x + s / 2.0, y + s / 2.0);
    let l = if joins.left { x } else { x + p };
    let rt = if joins.right { x + s } else { x + s - p };
    let t = if joins.up { y } else { y + p };
    let b = if joins.down { y + s } else { y + s - p };
    let (x1, y1, xs, ys) = (num(x + s), num(y + s), num(x + p), num(y + p));
    let (xe, ye) = (num(x + s - p), num(y + s - p));
    let (r_, cx_, cy_) = (num(r), num(cx), num(cy));
    match kind {
        Some(Segment::Single) => {
            format!("<circle cx=\"{cx_}\" cy=\"{cy_}\" r=\"{r_}\" fill=\"{fill}\"/>")
        }
        Some(Segment::Left) => format!(
            "<path d=\"M{x1} {ys}H{cx_}A{r_} {r_} 0 0 0 {cx_} {ye}H{x1}Z\" fill=\"{fill}\"/>"
        ),
        Some(Segment::Right) => format!(
            "<path d=\"M{} {ys}H{cx_}A{r_} {r_} 0 0 1 {cx_} {ye}H{}Z\" fill=\"{fill}\"/>",
            num(x),
            num(x)
        ),
        Some(Segment::Top) => format!(
            "<path d=\"M{xs} {y1}V{cy_}A{r_} {r_} 0 0 1 {xe} {cy_}V{y1}Z\" fill=\"{fill}\"/>"
        ),
        Some(Segment::Bottom) => format!(
            "<path d=\"M{xs} {}V{cy_}A{r_} {r_} 0 0 0 {xe} {cy_}V{}Z\" fill=\"{fill}\"/>",
            num(y),
            num(y)
        ),
        Some(Segment::Middle) => format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
            num(l),
            num(t),
            num(rt - l),
            num(b - t)
        ),
        None => format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\"/>",
            num(l),
            num(t),
            num(rt - l),
            num(b - t),
            num(s * 0.08)
        ),
    }
}

/// A cell filled with `fill`: water in a Digital Battleships picture, where a wave would run
/// into the cell's digit.
fn shade(x: f64, y: f64, s: f64, fill: &str) -> String {
    format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"/>",
        num(x),
        num(y),
        num(s),
        num(s)
    )
}

/// A wave: water, as the books mark it.
fn wave(x: f64, y: f64, s: f64, stroke: &str) -> String {
    let a = s * 0.1;
    format!(
        "<path d=\"M{} {}q{} {} {} 0t{} 0t{} 0\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
        num(x + s * 0.2),
        num(y + s / 2.0),
        num(a),
        num(-a),
        num(2.0 * a),
        num(2.0 * a),
        num(2.0 * a),
        num(s * 0.06)
    )
}

/// A ship drawn on its own (a fleet picture): its cells in `shape`, each `s` wide, from
/// (`x`, `y`). A straight ship is one rounded bar with thin gaps between its cells, as the
/// books draw the fleet; a polyomino its cells as squares.
fn ship_picture(shape: &Shape, x: f64, y: f64, s: f64, fill: &str) -> String {
    if let Some(len) = shape.straight_len() {
        let (h, _) = shape.extent();
        let across = h == 1;
        let (w, ht) = if across {
            (len as f64 * s, s)
        } else {
            (s, len as f64 * s)
        };
        let p = s * 0.1;
        let mut out = format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\"/>",
            num(x + p),
            num(y + p),
            num(w - 2.0 * p),
            num(ht - 2.0 * p),
            num(s / 2.0 - p)
        );
        for k in 1..len {
            let (ax, ay) = if across {
                (x + k as f64 * s, y)
            } else {
                (x, y + k as f64 * s)
            };
            let (bx, by) = if across { (ax, ay + s) } else { (ax + s, ay) };
            out.push_str(&format!(
                "<path d=\"M{} {}L{} {}\" stroke=\"#fff\" stroke-width=\"{}\"/>",
                num(ax),
                num(ay),
                num(bx),
                num(by),
                num(s * 0.08)
            ));
        }
        return out;
    }
    let cells: Vec<(usize, usize)> = shape.cells().to_vec();
    let has = |r: isize, c: isize| r >= 0 && c >= 0 && cells.contains(&(r as usize, c as usize));
    let mut out = String::new();
    for &(r, c) in &cells {
        let (ri, ci) = (r as isize, c as isize);
        let joins = Joins {
            up: has(ri - 1, ci),
            down: has(ri + 1, ci),
            left: has(ri, ci - 1),
            right: has(ri, ci + 1),
        };
        out.push_str(&piece(
            x + c as f64 * s,
            y + r as f64 * s,
            s,
            None,
            joins,
            fill,
        ));
    }
    out
}

/// The fleet's ships as pictures, longest first, in rows no wider than `width` from (`x`,
/// `y`); the height they take.
fn fleet_pictures(fleet: &Fleet, x: f64, y: f64, width: f64, s: f64, out: &mut String) -> f64 {
    let mut ships: Vec<&Shape> = fleet
        .types()
        .iter()
        .flat_map(|t| std::iter::repeat_n(&t.shape, t.count))
        .collect();
    ships.sort_by_key(|sh| std::cmp::Reverse(sh.cells().len()));
    let gap = s * 0.9;
    let (mut cx, mut cy, mut row_h) = (x, y, 0.0f64);
    for shape in ships {
        let (h, w) = shape.extent();
        let (pw, ph) = (w as f64 * s, h as f64 * s);
        if cx > x && cx + pw > x + width {
            cx = x;
            cy += row_h + gap * 0.6;
            row_h = 0.0;
        }
        out.push_str(&ship_picture(shape, cx, cy, s, GIVEN));
        cx += pw + gap;
        row_h = row_h.max(ph);
    }
    cy + row_h - y
}

/// The kind of the ship piece at `cell` among the ship cells `ship`, from its neighbours:
/// `None` where a neighbour is not yet known (`open`) and the kind depends on it.
fn shaped(
    d: Dims,
    cell: usize,
    ship: &dyn Fn(usize) -> bool,
    open: &dyn Fn(usize) -> bool,
) -> (Option<Segment>, Joins) {
    let (r, c) = d.row_col(cell);
    let at = |dr: isize, dc: isize| d.checked(r as isize + dr, c as isize + dc);
    let is = |n: Option<usize>| n.is_some_and(ship);
    let unknown = |n: Option<usize>| n.is_some_and(open);
    let joins = Joins {
        up: is(at(-1, 0)),
        down: is(at(1, 0)),
        left: is(at(0, -1)),
        right: is(at(0, 1)),
    };
    let sides = [at(-1, 0), at(1, 0), at(0, -1), at(0, 1)];
    let kind = Segment::from_neighbours(joins.up, joins.down, joins.left, joins.right);
    // An end or a single is only known once the sides away from the ship are closed.
    let known = match kind {
        Some(Segment::Middle) => true,
        _ => sides
            .iter()
            .zip([joins.up, joins.down, joins.left, joins.right])
            .all(|(&n, joined)| joined || !unknown(n)),
    };
    (if known { kind } else { None }, joins)
}

/// `spec` drawn as `opts` says: a puzzle, or a game state as given (its shots: a dot for a
/// miss, with a sonar reading's distance; a ship piece crossed in white for a hit; the cells
/// of a ship revealed sunk). Counts not given are left blank, as the books print them.
pub fn picture(spec: &ProblemSpec, opts: &PictureOptions) -> Picture {
    let d = spec.dims;
    let s = opts.cell;
    let margin = s * 0.4;
    let caption_h = if opts.caption.is_some() { s * 1.1 } else { 0.0 };
    let (x0, y0) = (margin, margin + caption_h);
    let (gw, gh) = (d.width as f64 * s, d.height as f64 * s);
    // Digital Battleships' sums may take three digits.
    let counts_w = match (spec.rows.is_empty(), spec.is_digital()) {
        (true, _) => 0.0,
        (false, false) => s,
        (false, true) => s * 1.4,
    };
    let counts_h = if spec.cols.is_empty() { 0.0 } else { s * 1.0 };
    let font = s * 0.62;
    let mut body = String::new();
    if let Some(c) = &opts.caption {
        body.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            num(x0),
            num(margin + caption_h * 0.7),
            num(font * 0.95),
            escape(c)
        ));
    }
    // What each cell shows: a clue, else a shot, else a mark (progress), else the solution.
    let mut ship = vec![false; d.cells()];
    let mut decided = vec![false; d.cells()];
    let mut ink = vec![GIVEN; d.cells()];
    for c in 0..d.cells() {
        if let Some(clue) = spec.clue(c) {
            ship[c] = clue.is_ship();
            decided[c] = true;
        } else if opts.progress && spec.mark(c) != Know::Unknown {
            ship[c] = spec.mark(c) == Know::Ship;
            decided[c] = true;
            ink[c] = FOUND;
        }
    }
    let mut hits = Vec::new();
    let mut misses = Vec::new();
    for shot in &spec.observations.shots {
        match &shot.result {
            ShotResult::Miss => {
                misses.push((shot.cell, None));
                decided[shot.cell] = true;
            }
            ShotResult::Sonar { distance } => {
                misses.push((shot.cell, Some(*distance)));
                decided[shot.cell] = true;
            }
            ShotResult::Hit => {
                hits.push(shot.cell);
                (ship[shot.cell], decided[shot.cell]) = (true, true);
            }
            ShotResult::Sunk { cells, .. } => {
                hits.push(shot.cell);
                (ship[shot.cell], decided[shot.cell]) = (true, true);
                for &c in cells {
                    ship[c] = true;
                    decided[c] = true;
                }
            }
        }
    }
    let mut solution_ship = vec![false; d.cells()];
    if let Some(layout) = &opts.solution {
        for c in layout.cells() {
            solution_ship[c] = true;
        }
    }
    // Light grey for cells the solution fills in (the givens stay black).
    let solved = opts.solution.is_some();
    for c in 0..d.cells() {
        if solved && !decided[c] {
            ship[c] = solution_ship[c];
            decided[c] = true;
            ink[c] = FOUND;
        }
    }
    let cell_xy = |c: usize| {
        let (r, col) = d.row_col(c);
        (x0 + col as f64 * s, y0 + r as f64 * s)
    };
    let straight = spec.fleet.is_straight();
    for c in 0..d.cells() {
        let (x, y) = cell_xy(c);
        match spec.clue(c) {
            Some(Clue::Blocked) => {
                body.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#555\"/>",
                    num(x),
                    num(y),
                    num(s),
                    num(s)
                ));
                continue;
            }
            Some(Clue::Water) if spec.is_digital() => {
                body.push_str(&shade(x, y, s, "#d0d0d0"));
                continue;
            }
            Some(Clue::Water) => {
                body.push_str(&wave(x, y, s, GIVEN));
                continue;
            }
            Some(Clue::Segment(seg)) => {
                let joins = Joins {
                    up: seg == Segment::Bottom,
                    down: seg == Segment::Top,
                    left: seg == Segment::Right,
                    right: seg == Segment::Left,
                };
                let (_, around) = shaped(d, c, &|n| ship[n], &|n| !decided[n]);
                let joins = if seg == Segment::Middle {
                    // A middle runs through: to the edges on the axis its neighbours show.
                    let across = around.left || around.right;
                    let along = around.up || around.down;
                    Joins {
                        left: across,
                        right: across,
                        up: along && !across,
                        down: along && !across,
                    }
                } else {
                    joins
                };
                body.push_str(&piece(x, y, s, Some(seg), joins, GIVEN));
                continue;
            }
            _ => {}
        }
        if !decided[c] || !ship[c] {
            if decided[c] && !ship[c] && ink[c] == FOUND && opts.progress {
                body.push_str(&match spec.is_digital() {
                    true => shade(x, y, s, "#ececec"),
                    false => wave(x, y, s, FOUND),
                });
            }
            continue;
        }
        let (kind, joins) = shaped(d, c, &|n| ship[n], &|n| !decided[n]);
        let kind = if straight { kind } else { None };
        body.push_str(&piece(x, y, s, kind, joins, ink[c]));
    }
    // Digital Battleships: each cell's digit, white on a ship piece.
    for (c, digit) in spec.digits.iter().enumerate() {
        let (x, y) = cell_xy(c);
        let fill = if decided[c] && ship[c] { "#fff" } else { GIVEN };
        body.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{fill}\">{digit}</text>",
            num(x + s / 2.0),
            num(y + s * 0.5 + font * 0.3),
            num(font * 0.85)
        ));
    }
    for &(c, distance) in &misses {
        let (x, y) = cell_xy(c);
        body.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{GIVEN}\"/>",
            num(x + s / 2.0),
            num(y + s / 2.0),
            num(s * 0.09)
        ));
        if let Some(k) = distance {
            body.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"end\">{k}</text>",
                num(x + s * 0.92),
                num(y + s * 0.36),
                num(font * 0.5)
            ));
        }
    }
    for &c in &hits {
        let (x, y) = cell_xy(c);
        let (a, b) = (s * 0.28, s * 0.72);
        body.push_str(&format!(
            "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#fff\" stroke-width=\"{}\" stroke-linecap=\"round\"/>",
            num(x + a),
            num(y + a),
            num(x + b),
            num(y + b),
            num(x + b),
            num(y + a),
            num(x + a),
            num(y + b),
            num(s * 0.09)
        ));
    }
    // The grid: thin lines inside, a heavier frame.
    let thin = s * 0.025;
    let mut lines = String::new();
    for c in 1..d.width {
        let x = num(x0 + c as f64 * s);
        lines.push_str(&format!("M{x} {}V{}", num(y0), num(y0 + gh)));
    }
    for r in 1..d.height {
        let y = num(y0 + r as f64 * s);
        lines.push_str(&format!("M{} {y}H{}", num(x0), num(x0 + gw)));
    }
    body.push_str(&format!(
        "<path d=\"{lines}\" fill=\"none\" stroke=\"#000\" stroke-width=\"{}\"/>",
        num(thin * 1.6)
    ));
    body.push_str(&format!(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#000\" stroke-width=\"{}\"/>",
        num(x0),
        num(y0),
        num(gw),
        num(gh),
        num(thin * 5.0)
    ));
    // The counts: beside the rows (right) and under the columns.
    let count = |n: Option<usize>| n.map_or(String::new(), |n| n.to_string());
    for r in 0..d.height {
        let t = count(spec.row_count(r));
        if !t.is_empty() {
            body.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\">{t}</text>",
                num(x0 + gw + counts_w * 0.55),
                num(y0 + r as f64 * s + s * 0.5 + font * 0.36),
                num(font)
            ));
        }
    }
    for c in 0..d.width {
        let t = count(spec.col_count(c));
        if !t.is_empty() {
            body.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\">{t}</text>",
                num(x0 + c as f64 * s + s * 0.5),
                num(y0 + gh + counts_h * 0.45 + font * 0.36),
                num(font)
            ));
        }
    }
    let mut height = y0 + gh + counts_h.max(s * 0.3);
    if opts.fleet {
        let fs = s * 0.5;
        height += s * 0.3;
        height += fleet_pictures(&spec.fleet, x0, height, gw, fs, &mut body);
    }
    Picture {
        width: x0 + gw + counts_w + margin,
        height: height + margin,
        body,
    }
}
