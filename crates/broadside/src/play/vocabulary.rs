//! The vocabulary of shooters and placers: one table holding, for each, its name, its
//! parameters (names, values, defaults and meanings), its source in the literature, a line on
//! what it does and a class of cost, and beside them the presets that name what users ask for
//! (`strongest`, `fast`, `exact`). Parsing and its errors, the command line's help and
//! `broadside shooters`, the docs' tables and the Python and web page choices are all made
//! from it.
//!
//! A word is a name, a preset, or a name and its parameters after a colon: by name,
//! `pilot:layouts=3200,candidates=8`, or by position, the older form still read,
//! `pilot:3200.8`, `density:50.1.2`, `sampled:1000:weighted`. A word written back names every
//! parameter not at its default, so each old form reads as an alias of one written form:
//!
//! ```
//! use broadside::play::ShooterKind;
//! let old: ShooterKind = "pilot:3200.8".parse().unwrap();
//! let named: ShooterKind = "pilot:layouts=3200,candidates=8".parse().unwrap();
//! assert_eq!(old, named);
//! assert_eq!(old.to_string(), "pilot:layouts=3200,candidates=8");
//! assert_eq!("strongest".parse::<ShooterKind>().unwrap(), named);
//! assert_eq!("density:50.1".parse::<ShooterKind>().unwrap().to_string(), "density:hunt=1");
//! ```

use serde::Serialize;

use super::shooter::{DENSITY_WEIGHT, PILOT_CANDIDATES};
use crate::choice::UnknownChoice;

/// How costly a shooter or placer is on the standard game, as a class; the figures are in
/// docs/PERFORMANCE.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cost {
    /// Microseconds a game: rules over the shots alone.
    Microseconds,
    /// Milliseconds a game: exact counts, kept in a book across the games of a run.
    Milliseconds,
    /// A tenth of a second to seconds a game at the usual settings, growing with the
    /// parameters: layouts drawn, solved or played out at each shot.
    Seconds,
}

impl Cost {
    /// The class as the listing writes it.
    pub fn phrase(self) -> &'static str {
        match self {
            Cost::Microseconds => "µs a game",
            Cost::Milliseconds => "ms a game",
            Cost::Seconds => "up to s a game",
        }
    }
}

/// The values a parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Values {
    /// A whole number from `least` to `most`.
    Whole {
        /// The least value.
        least: u64,
        /// The greatest value.
        most: u64,
    },
    /// One of these words (held as its index).
    Words(&'static [&'static str]),
    /// Any text: the rest of the word, colons and all (a path, a shooter's word).
    Text,
}

/// What a parameter is when the word does not give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fallback {
    /// It must be given.
    Required,
    /// This value (a word's index for [`Values::Words`]).
    Value(u64),
    /// Nothing: the behaviour the parameter's meaning says it has when absent.
    Unset,
}

/// One parameter of a shooter or placer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Param {
    /// Its name in the named form (`layouts`).
    pub name: &'static str,
    /// The values it takes.
    pub values: Values,
    /// What it is when not given.
    pub fallback: Fallback,
    /// What it means, as a phrase.
    pub meaning: &'static str,
}

/// One shooter or placer of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its name (`pilot`).
    pub name: &'static str,
    /// Its parameters, in the order of the positional form.
    pub params: &'static [Param],
    /// The papers it comes from, by authors and the name they give it ("" when broadside's
    /// own).
    pub source: &'static str,
    /// What it does, in a line.
    pub summary: &'static str,
    /// Its class of cost.
    pub cost: Cost,
}

/// A name for a word users ask for by what it is rather than how it works.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Preset {
    /// The preset's name (`strongest`).
    pub name: &'static str,
    /// The word it stands for.
    pub word: &'static str,
    /// Why it is the one, in a line.
    pub summary: &'static str,
}

/// A table of shooters or of placers and its presets.
#[derive(Debug, Serialize)]
pub struct Vocabulary {
    /// What its words choose ("shooter", "placer"), for messages.
    pub what: &'static str,
    /// The entries, in the order of the listing.
    pub entries: &'static [Entry],
    /// The presets.
    pub presets: &'static [Preset],
}

/// One parameter's value in a parsed word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// Not given, and no default.
    Unset,
    /// A whole number, or a word's index.
    Whole(u64),
    /// Text.
    Text(String),
}

/// A word read against a [`Vocabulary`]: its entry and a value for each parameter (defaults
/// filled in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The entry it names.
    pub entry: &'static Entry,
    /// One value per parameter of the entry, in order.
    pub values: Vec<Value>,
}

impl Word {
    fn index(&self, name: &str) -> usize {
        self.entry
            .params
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("{} has no parameter {name}", self.entry.name))
    }

    /// The whole number (or word index) given for `name`, `None` where it is unset.
    pub fn whole(&self, name: &str) -> Option<u64> {
        match &self.values[self.index(name)] {
            Value::Whole(n) => Some(*n),
            _ => None,
        }
    }

    /// The text given for `name` ("" where it is unset).
    pub fn text(&self, name: &str) -> &str {
        match &self.values[self.index(name)] {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

impl Vocabulary {
    /// The entry named `name`.
    pub fn entry(&self, name: &str) -> Option<&'static Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Reads `text`: a preset, a name, or a name with its parameters by name or by position.
    pub fn parse(&'static self, text: &str) -> Result<Word, UnknownChoice> {
        let word = text.trim();
        if let Some(p) = self.presets.iter().find(|p| p.name == word) {
            return self.parse(p.word);
        }
        let (name, rest) = match word.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (word, None),
        };
        let Some(entry) = self.entry(name) else {
            let mut names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
            names.extend(self.presets.iter().map(|p| p.name));
            return Err(UnknownChoice::among(self.what, text, &names));
        };
        let bad = |why: String| UnknownChoice::parameters(self.what, text, &why);
        let mut values: Vec<Value> = entry
            .params
            .iter()
            .map(|p| match p.fallback {
                Fallback::Value(v) => Value::Whole(v),
                _ => Value::Unset,
            })
            .collect();
        let mut given = vec![false; entry.params.len()];
        match rest {
            None => {}
            Some(_) if entry.params.is_empty() => {
                return Err(bad(format!("{} alone (it takes no parameter)", entry.name)));
            }
            Some(rest) if entry.params.len() == 1 && entry.params[0].values == Values::Text => {
                let p = &entry.params[0];
                let t = rest.strip_prefix(p.name).and_then(|r| r.strip_prefix('='));
                let t = t.unwrap_or(rest);
                if t.is_empty() {
                    return Err(bad(entry.form()));
                }
                values[0] = Value::Text(t.to_string());
                given[0] = true;
            }
            Some(rest) if rest.contains('=') => {
                for pair in rest.split(',') {
                    let (k, v) = pair.split_once('=').ok_or_else(|| bad(entry.form()))?;
                    let k = k.trim();
                    let i = entry
                        .params
                        .iter()
                        .position(|p| p.name == k)
                        .ok_or_else(|| {
                            bad(format!(
                                "a parameter {} takes, not {k:?}: {}",
                                entry.name,
                                entry.form()
                            ))
                        })?;
                    if std::mem::replace(&mut given[i], true) {
                        return Err(bad(format!("{k} given once: {}", entry.form())));
                    }
                    values[i] = entry.params[i].read(v.trim()).map_err(&bad)?;
                }
            }
            Some(rest) => {
                let pieces: Vec<&str> = rest.split(['.', ':']).collect();
                if pieces.len() > entry.params.len() {
                    return Err(bad(entry.form()));
                }
                for (i, piece) in pieces.into_iter().enumerate() {
                    values[i] = entry.params[i].read(piece).map_err(&bad)?;
                    given[i] = true;
                }
            }
        }
        for (p, g) in entry.params.iter().zip(&given) {
            if p.fallback == Fallback::Required && !g {
                return Err(bad(format!("a value for {}: {}", p.name, entry.form())));
            }
        }
        Ok(Word { entry, values })
    }

    /// Writes the word for `name` with `values` (one per parameter, in order), naming each
    /// parameter not at its default.
    pub fn write(
        &self,
        f: &mut std::fmt::Formatter<'_>,
        name: &str,
        values: &[Value],
    ) -> std::fmt::Result {
        let entry = self
            .entry(name)
            .unwrap_or_else(|| panic!("{name} is not a {}", self.what));
        f.write_str(name)?;
        let mut sep = ':';
        for (p, v) in entry.params.iter().zip(values) {
            let shown = match (v, p.fallback) {
                (Value::Unset, _) => continue,
                (Value::Whole(n), Fallback::Value(d)) if *n == d => continue,
                (Value::Whole(n), _) => match p.values {
                    Values::Words(words) => words[*n as usize].to_string(),
                    _ => n.to_string(),
                },
                (Value::Text(t), _) => t.clone(),
            };
            if p.values == Values::Text {
                write!(f, "{sep}{shown}")?;
            } else {
                write!(f, "{sep}{}={shown}", p.name)?;
            }
            sep = ',';
        }
        Ok(())
    }

    /// The listing of `broadside shooters` (and of placers): each entry with its parameters,
    /// source and cost, then the presets.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for e in self.entries {
            out += &format!("{:<14} {}  [{}]", e.name, e.summary, e.cost.phrase());
            if !e.source.is_empty() {
                out += &format!(" ({})", e.source);
            }
            out.push('\n');
            for p in e.params {
                out += &format!(
                    "{:<14} {:<12} {}: {}\n",
                    "",
                    p.name,
                    p.describe(),
                    p.meaning
                );
            }
        }
        if !self.presets.is_empty() {
            out += "\npresets:\n";
            for p in self.presets {
                out += &format!("{:<14} {}: {}\n", p.name, p.word, p.summary);
            }
        }
        out
    }

    /// The docs' table of the entries (Markdown), and of the presets.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "| {} | parameters (by name, or in this order by position) | source | what it does | cost |\n| --- | --- | --- | --- | --- |\n",
            self.what
        );
        for e in self.entries {
            let params: Vec<String> = e
                .params
                .iter()
                .map(|p| format!("`{}` {}: {}", p.name, p.describe(), p.meaning))
                .collect();
            out += &format!(
                "| `{}` | {} | {} | {} | {} |\n",
                e.name,
                if params.is_empty() {
                    "none".to_string()
                } else {
                    params.join("; ")
                },
                e.source,
                e.summary,
                e.cost.phrase()
            );
        }
        if !self.presets.is_empty() {
            out += "\n| preset | the word it stands for | why |\n| --- | --- | --- |\n";
            for p in self.presets {
                out += &format!("| `{}` | `{}` | {} |\n", p.name, p.word, p.summary);
            }
        }
        out
    }

    /// The names and presets as the command line's help gives them, in a line.
    pub fn help(&self) -> String {
        let names: Vec<String> = self
            .entries
            .iter()
            .map(|e| {
                if e.params.is_empty() {
                    e.name.to_string()
                } else {
                    format!("{}:…", e.name)
                }
            })
            .collect();
        let presets: Vec<&str> = self.presets.iter().map(|p| p.name).collect();
        let mut s = names.join(", ");
        if !presets.is_empty() {
            s += &format!("; presets {}", presets.join(", "));
        }
        s
    }
}

impl Entry {
    /// The entry's named form with what each parameter takes, for error messages:
    /// `mp:open=VALUE with open (1 or more, required)`.
    pub fn form(&self) -> String {
        let pairs: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{}=VALUE", p.name))
            .collect();
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{} {}", p.name, p.describe()))
            .collect();
        format!(
            "{}:{} with {}",
            self.name,
            pairs.join(","),
            params.join("; ")
        )
    }
}

impl Param {
    /// What the parameter takes and what it is when not given, as a phrase.
    pub fn describe(&self) -> String {
        let takes = match self.values {
            Values::Whole { least, most } if most == u64::MAX => format!("{least} or more"),
            Values::Whole { least, most } => format!("{least} to {most}"),
            Values::Words(words) => match words.split_last() {
                Some((last, [])) => last.to_string(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            },
            Values::Text => "text".to_string(),
        };
        let unless = match (self.fallback, self.values) {
            (Fallback::Required, _) => ", required".to_string(),
            (Fallback::Value(v), Values::Words(words)) => {
                format!(", {} unless given", words[v as usize])
            }
            (Fallback::Value(v), _) => format!(", {v} unless given"),
            (Fallback::Unset, _) => ", none unless given".to_string(),
        };
        format!("({takes}{unless})")
    }

    /// Reads one value of this parameter; the error says what it takes.
    fn read(&self, text: &str) -> Result<Value, String> {
        let wrong = || format!("{} {}: {}", self.name, self.describe(), self.meaning);
        match self.values {
            Values::Whole { least, most } => text
                .parse::<u64>()
                .ok()
                .filter(|n| (least..=most).contains(n))
                .map(Value::Whole)
                .ok_or_else(wrong),
            Values::Words(words) => words
                .iter()
                .position(|w| *w == text)
                .map(|i| Value::Whole(i as u64))
                .ok_or_else(wrong),
            Values::Text if text.is_empty() => Err(wrong()),
            Values::Text => Ok(Value::Text(text.to_string())),
        }
    }
}

/// The most layouts a shooter lists and solves, or plays out, a shot (each is kept in
/// memory).
pub const MAX_LAYOUTS: u64 = 1_000_000;

const fn whole(least: u64, most: u64) -> Values {
    Values::Whole { least, most }
}

const ANY: Values = whole(1, u64::MAX);

const fn param(
    name: &'static str,
    values: Values,
    fallback: Fallback,
    meaning: &'static str,
) -> Param {
    Param {
        name,
        values,
        fallback,
        meaning,
    }
}

const fn entry(
    name: &'static str,
    params: &'static [Param],
    source: &'static str,
    summary: &'static str,
    cost: Cost,
) -> Entry {
    Entry {
        name,
        params,
        source,
        summary,
        cost,
    }
}

use Cost::{Microseconds, Milliseconds, Seconds};
use Fallback::{Required, Unset};

/// The shooters (see the `shooter` module for each one's workings).
pub static SHOOTERS: Vocabulary = Vocabulary {
    what: "shooter",
    entries: &[
        entry(
            "random",
            &[],
            "Kancko Random; Sakuta & Iida R",
            "any cell not fired at",
            Microseconds,
        ),
        entry(
            "hunt-target",
            &[],
            "Kancko Human-like; Sakuta & Iida RNB",
            "hunts at random; after a hit fires at its neighbours, and along the line once two hits line up",
            Microseconds,
        ),
        entry(
            "parity",
            &[],
            "Kancko Even",
            "hunt-target hunting on one checkerboard colour (chosen per game)",
            Microseconds,
        ),
        entry(
            "checkerboard",
            &[],
            "Sakuta & Iida CB",
            "hunt-target hunting on one colour in the four passes of Sakuta & Iida's figure 4, after a random offset",
            Microseconds,
        ),
        entry(
            "knight",
            &[],
            "Sakuta & Iida KCB",
            "hunt-target hunting in the four knight-move passes of Sakuta & Iida's figure 5, then anywhere",
            Microseconds,
        ),
        entry(
            "density",
            &[
                param(
                    "weight",
                    whole(1, u32::MAX as u64),
                    Fallback::Value(DENSITY_WEIGHT as u64),
                    "what an open hit multiplies the weight of a position covering it by",
                ),
                param(
                    "hunt",
                    whole(0, 3),
                    Fallback::Value(0),
                    "while hunting, each position of a ship type counts 1 / length^hunt: short ships, found last, weigh more",
                ),
                param(
                    "lattice",
                    whole(2, 9),
                    Unset,
                    "while the shortest ship afloat has this many cells, the hunt keeps to the cells whose row plus column is a multiple of it",
                ),
            ],
            "the Habr article; the public mayflower engine's density(b=50)",
            "each afloat ship slid over every position the shots allow, one ship at a time, a position covering k open hits adding weight^k to its cells; the heaviest cell, ties to the first in reading order",
            Microseconds,
        ),
        entry(
            "habr",
            &[],
            "the Habr article",
            "the Habr article's matrix as it finishes: after a hit only positions through the wounded cells count; ties at random",
            Microseconds,
        ),
        entry(
            "greedy",
            &[],
            "Kancko Heat-map",
            "a cell of highest exact probability of a ship, ties at random",
            Milliseconds,
        ),
        entry(
            "mp",
            &[param(
                "open",
                ANY,
                Required,
                "the most open cells at which greedy takes over, once at most four ships are afloat",
            )],
            "Sakuta & Iida MP_x",
            "checkerboard, then greedy",
            Milliseconds,
        ),
        entry(
            "sampled",
            &[
                param("boards", ANY, Required, "boards drawn at each shot"),
                param(
                    "sampler",
                    Values::Words(SAMPLERS),
                    Fallback::Value(0),
                    "the sampler that draws them: exactly uniform (by exact counts or by rejection), ship by ship, or Naslausky & Figueiredo's weighted 1 + 5D + 4S",
                ),
            ],
            "Naslausky & Figueiredo",
            "greedy on a heat map estimated from boards drawn at each shot",
            Seconds,
        ),
        entry(
            "lookahead",
            &[
                param(
                    "plies",
                    whole(1, 4),
                    Required,
                    "shots looked ahead (1 is greedy)",
                ),
                param(
                    "moves",
                    ANY,
                    Fallback::Value(8),
                    "the likeliest cells weighed at each later shot",
                ),
                param(
                    "open",
                    ANY,
                    Unset,
                    "checkerboard until at most four ships are afloat and at most this many cells are open",
                ),
            ],
            "Sakuta & Iida LA",
            "the cell from which the most layouts are hit within the next shots, the shots before each assumed to miss",
            Seconds,
        ),
        entry(
            "endgame",
            &[param(
                "layouts",
                whole(1, MAX_LAYOUTS),
                Required,
                "the most layouts consistent with the shots at which optimal play takes over",
            )],
            "",
            "greedy, then the optimal policy on the layouts left (expectimax over belief states)",
            Seconds,
        ),
        entry(
            "rollout",
            &[param(
                "layouts",
                whole(1, MAX_LAYOUTS),
                Required,
                "the most layouts consistent with the shots at which the rollout takes over",
            )],
            "",
            "greedy, then the rollout of greedy on the layouts left, exact: never worse than greedy in expectation",
            Seconds,
        ),
        entry(
            "pilot",
            &[
                param(
                    "layouts",
                    whole(1, MAX_LAYOUTS),
                    Fallback::Value(800),
                    "layouts drawn exactly uniformly, at most, for each shot's rollouts",
                ),
                param(
                    "candidates",
                    whole(1, 32),
                    Fallback::Value(PILOT_CANDIDATES as u64),
                    "cells weighed against density:hunt=1's own: its next heaviest",
                ),
                param(
                    "afloat",
                    ANY,
                    Unset,
                    "the rollouts wait until at most this many ships are afloat (the fleet less the sinkings reported)",
                ),
            ],
            "",
            "density:hunt=1, improved by paired rollouts of itself once a ship is wounded or sunk: a cell other than its own only where its games are clearly shorter",
            Seconds,
        ),
        entry(
            "mcts",
            &[param("playouts", ANY, Required, "playouts at each shot")],
            "Kancko MCTS",
            "UCT over layouts drawn uniformly among the consistent ones, each playout finished with parity",
            Seconds,
        ),
    ],
    presets: &[
        Preset {
            name: "strongest",
            word: "pilot:layouts=3200,candidates=8",
            summary: "the fewest shots on the standard game of any shooter broadside has (docs/RESULTS.md)",
        },
        Preset {
            name: "fast",
            word: "density:hunt=1,lattice=2",
            summary: "the fewest shots on the standard game among the shooters of microseconds a game",
        },
        Preset {
            name: "exact",
            word: "greedy",
            summary: "always a cell of highest exact probability",
        },
    ],
};

/// The placers (see the `placer` module).
pub static PLACERS: Vocabulary = Vocabulary {
    what: "placer",
    entries: &[
        entry(
            "uniform",
            &[],
            "",
            "exactly uniform over every legal layout (the exact sampler); the default",
            Microseconds,
        ),
        entry(
            "sequential",
            &[SEPARATED],
            "Sakuta & Iida R, RSP; every paper's placer",
            "ship by ship, uniform among the positions that still fit: not uniform over layouts",
            Microseconds,
        ),
        entry(
            "ed1",
            &[SEPARATED],
            "Sakuta & Iida ED1, ED1SP",
            "ship by ship, every ship on the outermost line of the board",
            Microseconds,
        ),
        entry(
            "ed2",
            &[SEPARATED],
            "Sakuta & Iida ED2, ED2SP",
            "ship by ship, every ship within the outermost two lines",
            Microseconds,
        ),
        entry(
            "pk",
            &[
                param(
                    "short",
                    ANY,
                    Fallback::Value(2),
                    "the rectangle's short side",
                ),
                param(
                    "long",
                    ANY,
                    Fallback::Value(10),
                    "the rectangle's long side",
                ),
                param(
                    "separated",
                    Values::Words(&["no", "yes"]),
                    Fallback::Value(0),
                    "the last ship keeps clear of the rectangle",
                ),
            ],
            "Sakuta & Iida PK, PKSP",
            "every ship but one of the smallest packed in a rectangle at a random spot, either way round, the last outside it",
            Microseconds,
        ),
        entry(
            "adversarial",
            &[param(
                "shooter",
                Values::Text,
                Required,
                "the shooter played against",
            )],
            "",
            "of 16 uniform layouts, the one the shooter took the most shots on",
            Seconds,
        ),
        entry(
            "file",
            &[param(
                "path",
                Values::Text,
                Required,
                "a layout file: JSON lines or pictures",
            )],
            "",
            "the layouts of a file, game by game, again from the first when they run out",
            Microseconds,
        ),
    ],
    presets: &[],
};

/// The samplers a `sampled` shooter draws with, as [`crate::sample::SamplerKind`] names them.
pub const SAMPLERS: &[&str] = &["uniform", "rejection", "sequential", "weighted"];

/// The index of `kind` in [`SAMPLERS`].
pub fn sampler_index(kind: crate::sample::SamplerKind) -> u64 {
    let name = kind.to_string();
    SAMPLERS
        .iter()
        .position(|s| *s == name)
        .expect("every sampler is listed") as u64
}

const SEPARATED: Param = param(
    "separated",
    Values::Words(&["no", "yes"]),
    Fallback::Value(0),
    "ships never touch, even where the rules allow it",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_and_positional_forms_read_alike_and_write_named() {
        let a = SHOOTERS.parse("lookahead:2.8.70").unwrap();
        let b = SHOOTERS.parse("lookahead:open=70,plies=2").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.whole("moves"), Some(8));
        let c = SHOOTERS.parse("sampled:1000:weighted").unwrap();
        assert_eq!(SAMPLERS[c.whole("sampler").unwrap() as usize], "weighted");
        assert_eq!(
            PLACERS
                .parse("adversarial:pilot:800.8")
                .unwrap()
                .text("shooter"),
            "pilot:800.8"
        );
        assert_eq!(
            PLACERS
                .parse("adversarial:shooter=density:hunt=1,lattice=2")
                .unwrap()
                .text("shooter"),
            "density:hunt=1,lattice=2"
        );
    }

    #[test]
    fn errors_say_what_each_parameter_takes() {
        let cases = [
            (
                "pilot:layouts=0",
                "layouts (1 to 1000000, 800 unless given)",
            ),
            ("pilot:layouts=800,layouts=900", "layouts given once"),
            (
                "pilot:samples=800",
                "a parameter pilot takes, not \"samples\"",
            ),
            (
                "density:50.1.2.3",
                "density:weight=VALUE,hunt=VALUE,lattice=VALUE with weight",
            ),
            (
                "mcts",
                "bad shooter \"mcts\": expected a value for playouts: mcts:playouts=VALUE",
            ),
            ("random:3", "random alone"),
            (
                "sampled:10:fancy",
                "sampler (uniform, rejection, sequential or weighted",
            ),
            (
                "nosuch",
                "unknown shooter \"nosuch\": expected random, hunt-target",
            ),
            ("nosuch", "strongest"),
        ];
        for (word, says) in cases {
            let e = SHOOTERS.parse(word).unwrap_err().to_string();
            assert!(e.contains(says), "{word}: {e}");
        }
    }

    /// Every entry's listing and table name every parameter with what it takes.
    #[test]
    fn the_listing_and_the_table_hold_every_entry_and_parameter() {
        for v in [&SHOOTERS, &PLACERS] {
            let (list, table) = (v.listing(), v.markdown());
            for e in v.entries {
                assert!(list.contains(e.name) && table.contains(&format!("`{}`", e.name)));
                for p in e.params {
                    assert!(table.contains(&format!("`{}` {}", p.name, p.describe())));
                }
            }
            for p in v.presets {
                assert!(v.parse(p.word).is_ok(), "{}", p.word);
                assert!(list.contains(p.word) && table.contains(p.name));
            }
        }
    }

    /// Each value of each parameter (its least, a middle one and its greatest, or each of its
    /// words) makes a shooter or placer whose word reads back as the same one.
    fn words_of(v: &Vocabulary) -> Vec<String> {
        let value = |p: &Param| -> Vec<String> {
            match p.values {
                Values::Whole { least, most } => {
                    vec![
                        least.to_string(),
                        (least + 3).min(most).to_string(),
                        most.to_string(),
                    ]
                }
                Values::Words(words) => words.iter().map(|w| w.to_string()).collect(),
                Values::Text if p.name == "shooter" => vec!["density:hunt=1,lattice=2".into()],
                Values::Text => vec!["layouts.txt".into()],
            }
        };
        let mut out = Vec::new();
        for e in v.entries {
            let required: Vec<String> = e
                .params
                .iter()
                .filter(|p| p.fallback == Fallback::Required)
                .map(|p| format!("{}={}", p.name, value(p)[0]))
                .collect();
            out.push(if required.is_empty() {
                e.name.to_string()
            } else {
                format!("{}:{}", e.name, required.join(","))
            });
            for p in e.params {
                for x in value(p) {
                    let mut pairs: Vec<String> = required
                        .iter()
                        .filter(|r| !r.starts_with(&format!("{}=", p.name)))
                        .cloned()
                        .collect();
                    pairs.push(format!("{}={x}", p.name));
                    out.push(format!("{}:{}", e.name, pairs.join(",")));
                }
            }
        }
        out
    }

    #[test]
    fn every_shooter_and_placer_reads_back_as_itself() {
        use crate::play::{PlacerKind, ShooterKind};
        for word in words_of(&SHOOTERS) {
            let k: ShooterKind = word.parse().unwrap_or_else(|e| panic!("{word}: {e}"));
            assert_eq!(k.to_string().parse::<ShooterKind>(), Ok(k), "{word} as {k}");
        }
        for word in words_of(&PLACERS) {
            let k: PlacerKind = word.parse().unwrap_or_else(|e| panic!("{word}: {e}"));
            assert_eq!(
                k.to_string().parse::<PlacerKind>().as_ref(),
                Ok(&k),
                "{word} as {k}"
            );
        }
    }

    /// The older positional forms and Sakuta & Iida's placer names read as the named words.
    #[test]
    fn the_older_forms_are_aliases() {
        use crate::play::{PlacerKind, ShooterKind};
        for (old, named) in [
            ("density", "density"),
            ("density:50", "density"),
            ("density:50.1", "density:hunt=1"),
            ("density:50.1.2", "density:hunt=1,lattice=2"),
            ("density:10", "density:weight=10"),
            ("pilot:3200.8", "pilot:layouts=3200,candidates=8"),
            ("pilot:800.8.2", "pilot:candidates=8,afloat=2"),
            ("pilot:800", "pilot"),
            ("lookahead:2.8.70", "lookahead:plies=2,open=70"),
            ("lookahead:2", "lookahead:plies=2"),
            (
                "sampled:1000:weighted",
                "sampled:boards=1000,sampler=weighted",
            ),
            ("sampled:1000", "sampled:boards=1000"),
            ("mp:70", "mp:open=70"),
            ("endgame:1000", "endgame:layouts=1000"),
            ("rollout:5000", "rollout:layouts=5000"),
            ("mcts:2000", "mcts:playouts=2000"),
            ("strongest", "pilot:layouts=3200,candidates=8"),
            ("fast", "density:hunt=1,lattice=2"),
            ("exact", "greedy"),
        ] {
            let k: ShooterKind = old.parse().unwrap();
            assert_eq!(k.to_string(), named, "{old}");
        }
        for (old, named) in [
            ("uniform", "uniform"),
            ("r", "sequential"),
            ("rsp", "sequential:separated=yes"),
            ("sequential-sp", "sequential:separated=yes"),
            ("ed1sp", "ed1:separated=yes"),
            ("ed2-sp", "ed2:separated=yes"),
            ("pk", "pk"),
            ("pk:2x10", "pk"),
            ("pk:10x3-sp", "pk:short=3,separated=yes"),
            ("pksp", "pk:separated=yes"),
            ("adversarial:density:50.1", "adversarial:density:hunt=1"),
            ("file:a/b.txt", "file:a/b.txt"),
        ] {
            let k: PlacerKind = old.parse().unwrap();
            assert_eq!(k.to_string(), named, "{old}");
        }
        for bad in ["uniform-sp", "pk:0x3", "ed3", "file:", "adversarial:nosuch"] {
            assert!(bad.parse::<PlacerKind>().is_err(), "{bad}");
        }
    }
}
