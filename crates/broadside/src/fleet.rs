//! Fleets: how many ships of each shape.
//!
//! A [`Fleet`] is a multiset of shapes. Ships whose shapes are equal up to rotation and
//! reflection are interchangeable, so the fleet merges them into one [`ShipType`] with a count;
//! a layout is then a set of placements and is counted once. Names ("battleship") are kept
//! for display only.
//!
//! The fleet syntax ([`Fleet::parse`]) accepts, separated by spaces or commas:
//! - a bare length, one straight ship: `5 4 3 3 2`;
//! - `COUNTxLENGTH`: `1x4 2x3 3x2 4x1`;
//! - a name and a length, optionally `xCOUNT`: `battleship 4, cruiser 3 x2`;
//! - the name of a declared polyomino shape, optionally `xCOUNT`: `L x2`.
//!
//! ```
//! use broadside::Fleet;
//! let f = Fleet::parse("5 4 3 3 2", &[]).unwrap();
//! assert_eq!(f.ship_count(), 5);
//! assert_eq!(f.types().len(), 4);
//! assert_eq!(f, Fleet::parse("1x5 1x4 2x3 1x2", &[]).unwrap());
//! ```

use crate::shape::Shape;

/// One kind of ship in a fleet: a shape and how many of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShipType {
    /// The shape in canonical orientation.
    pub shape: Shape,
    /// How many ships of this shape the fleet has.
    pub count: usize,
    /// A display name (`"3"` for a straight ship of length 3 unless named).
    pub name: String,
}

/// A multiset of ship shapes; see the module documentation.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Fleet {
    types: Vec<ShipType>,
}

/// Why a fleet description does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at {token:?})")]
pub struct FleetError {
    /// What was wrong.
    pub message: String,
    /// The token where it went wrong.
    pub token: String,
}

fn err(message: &str, token: &str) -> FleetError {
    FleetError {
        message: message.to_string(),
        token: token.to_string(),
    }
}

/// The largest count or length the fleet syntax accepts.
const MAX_NUMBER: usize = 4096;

fn number(t: &str) -> Option<usize> {
    t.parse::<usize>().ok().filter(|&n| n <= MAX_NUMBER)
}

impl Fleet {
    /// A fleet from `(shape, count, name)` entries; entries of equal shape are merged, and the
    /// types are ordered largest shape first (ties by canonical form), which is the order the
    /// engines place them in. Entries with count 0 are dropped.
    pub fn new(entries: impl IntoIterator<Item = (Shape, usize, String)>) -> Fleet {
        let mut types: Vec<ShipType> = Vec::new();
        for (shape, count, name) in entries {
            if count == 0 {
                continue;
            }
            let shape = shape.canonical();
            match types.iter_mut().find(|t| t.shape == shape) {
                Some(t) => t.count += count,
                None => types.push(ShipType { shape, count, name }),
            }
        }
        types.sort_by(|a, b| {
            b.shape
                .size()
                .cmp(&a.shape.size())
                .then_with(|| a.shape.cmp(&b.shape))
        });
        Fleet { types }
    }

    /// A fleet of straight ships from their lengths, e.g. `[5, 4, 3, 3, 2]`.
    pub fn straight(lengths: &[usize]) -> Fleet {
        Fleet::new(
            lengths
                .iter()
                .map(|&l| (Shape::straight(l), 1, l.to_string())),
        )
    }

    /// Parses the fleet syntax of the module documentation; `shapes` are the declared
    /// polyomino names.
    pub fn parse(text: &str, shapes: &[(String, Shape)]) -> Result<Fleet, FleetError> {
        let tokens: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.is_empty() {
            return Err(err("the fleet is empty", text));
        }
        let count_of =
            |t: &str| -> Option<usize> { t.strip_prefix(['x', 'X', '×']).and_then(number) };
        let mut entries = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i];
            i += 1;
            if let Some(len) = number(t) {
                if len == 0 {
                    return Err(err("a ship needs a length of at least 1", t));
                }
                entries.push((Shape::straight(len), 1, len.to_string()));
                continue;
            }
            if let Some((n, l)) = t.split_once(['x', 'X', '×'])
                && let (Some(n), Some(l)) = (number(n), number(l))
            {
                if l == 0 {
                    return Err(err("a ship needs a length of at least 1", t));
                }
                entries.push((Shape::straight(l), n, l.to_string()));
                continue;
            }
            // A name: a declared shape, or followed by a length. Something number-like that is
            // not a whole number (`-2`, `2.5`) is a mistyped length, not a name.
            if t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') {
                // COUNTxLENGTH whose count is no number this fleet can hold.
                if let Some((n, l)) = t.split_once(['x', 'X', '×'])
                    && number(l).is_some_and(|l| l > 0)
                    && n.chars().all(|c| c.is_ascii_digit())
                    && !n.is_empty()
                {
                    return Err(err("a ship count too large for any board", t));
                }
                return Err(err("a ship length must be a whole number of at least 1", t));
            }
            let shape = if let Some((_, s)) = shapes.iter().find(|(n, _)| n == t) {
                s.clone()
            } else {
                let len = tokens
                    .get(i)
                    .and_then(|l| number(l))
                    .filter(|&l| l > 0)
                    .ok_or_else(|| {
                        err(
                            "expected a length, COUNTxLENGTH, a declared shape, or a name followed by a length",
                            t,
                        )
                    })?;
                i += 1;
                Shape::straight(len)
            };
            let mut count = 1;
            if let Some(n) = tokens.get(i).and_then(|c| count_of(c)) {
                count = n;
                i += 1;
            }
            entries.push((shape, count, t.to_string()));
        }
        Ok(Fleet::new(entries))
    }

    /// The ship types, largest first.
    pub fn types(&self) -> &[ShipType] {
        &self.types
    }

    /// Total number of ships.
    pub fn ship_count(&self) -> usize {
        self.types.iter().map(|t| t.count).sum()
    }

    /// Total number of ship cells.
    pub fn cell_count(&self) -> usize {
        self.types.iter().map(|t| t.count * t.shape.size()).sum()
    }

    /// Whether every ship is straight.
    pub fn is_straight(&self) -> bool {
        self.types.iter().all(|t| t.shape.straight_len().is_some())
    }

    /// The number of ways to tell identical ships apart: the product of `count!` over types.
    /// Multiply a layout count by this to count with labelled ships.
    pub fn labelling_factor(&self) -> num_bigint::BigUint {
        let mut f = num_bigint::BigUint::from(1u8);
        for t in &self.types {
            for k in 1..=t.count {
                f *= k;
            }
        }
        f
    }

    /// The fleet in the syntax [`Fleet::parse`] reads: unnamed straight ships as lengths
    /// (largest first; `COUNTxLENGTH` for more than [`Fleet::SPELLED_OUT`] of one length),
    /// named ships and polyominoes by name with `xCOUNT`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for t in &self.types {
            let named = match t.shape.straight_len() {
                Some(l) if t.name == l.to_string() && t.count > Self::SPELLED_OUT => {
                    parts.push(format!("{}x{l}", t.count));
                    continue;
                }
                Some(l) if t.name == l.to_string() => {
                    parts.extend(std::iter::repeat_n(l.to_string(), t.count));
                    continue;
                }
                Some(l) => format!("{} {l}", t.name),
                None => t.name.clone(),
            };
            parts.push(if t.count == 1 {
                named
            } else {
                format!("{named} x{}", t.count)
            });
        }
        parts.join(" ")
    }

    /// The most ships of one length [`Fleet::describe`] writes one by one (`1 1 1 1`); more
    /// are written with their count (`18x1`), so a label stays short.
    pub const SPELLED_OUT: usize = 4;

    /// The polyomino (non-straight) types, by name, which a file must declare.
    pub fn polyominoes(&self) -> impl Iterator<Item = &ShipType> {
        self.types
            .iter()
            .filter(|t| t.shape.straight_len().is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many ships of one length are described with their count, and read back the same.
    #[test]
    fn many_ships_of_a_length_are_counted() {
        let f = Fleet::parse("60x1 3 3", &[]).unwrap();
        assert_eq!(f.describe(), "3 3 60x1");
        assert_eq!(Fleet::parse(&f.describe(), &[]).unwrap(), f);
        assert_eq!(
            Fleet::parse("1x4 2x3 3x2 4x1", &[]).unwrap().describe(),
            "4 3 3 2 2 2 1 1 1 1"
        );
    }

    #[test]
    fn syntaxes_agree() {
        let a = Fleet::parse("4 3 3 2 2 2 1 1 1 1", &[]).unwrap();
        let b = Fleet::parse("1x4 2x3 3x2 4x1", &[]).unwrap();
        let c = Fleet::parse(
            "battleship 4, cruiser 3 x2, destroyer 2 x3, submarine 1 x4",
            &[],
        )
        .unwrap();
        assert_eq!(a.types().len(), 4);
        assert_eq!(a.cell_count(), 20);
        assert_eq!(
            a.types().iter().map(|t| t.count).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(
            b.types().iter().map(|t| t.count).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(
            c.types().iter().map(|t| t.count).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert_eq!(a.labelling_factor(), (2u32 * 6 * 24).into());
        // 40! is about 2^159.
        let f = Fleet::parse("40x1", &[]).unwrap().labelling_factor();
        assert_eq!(f.bits(), 160);
        assert_eq!(f % 41u8, 40u8.into(), "Wilson's theorem: 40! = -1 mod 41");
    }

    #[test]
    fn declared_shapes() {
        let l = Shape::parse_art("#./##").unwrap();
        let f = Fleet::parse("L x2 3", &[("L".into(), l)]).unwrap();
        assert_eq!(f.ship_count(), 3);
        assert_eq!(f.describe(), "3 L x2");
        assert!(Fleet::parse("Q", &[]).is_err());
        assert!(Fleet::parse("0", &[]).is_err());
        assert!(Fleet::parse("", &[]).is_err());
    }
}
