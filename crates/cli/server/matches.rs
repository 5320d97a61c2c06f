//! Matches against the computer: the table of live matches, whose hidden fleets stay on the
//! server, and the requests that play them (`POST /api/match`, `POST /api/match/fire`, `POST
//! /api/match/replies`).

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use broadside::observe::Shot;
use broadside::play::vocabulary::{Cost, PLACERS, SHOOTERS};
use broadside::play::{Game, PlacerKind, Setup, ShooterKind, Versus, Winner};
use broadside::sample::SampleError;

use super::books::Books;
use super::http::Reply;
use super::routes::problems;

/// The computer's shots a match chooses ahead while the person thinks: enough that a slow
/// choice (a race that prepares a new sampler, up to a second) is made up by the quick ones
/// before it, few enough that a match left early does not hold a core for long.
pub const PONDER_AHEAD: usize = 12;

/// The live matches by id; the oldest is dropped past a bound. After each of its moves a
/// match's computer chooses its next shots while the person thinks (they depend on the
/// computer's own shots alone), so that the person's next shots are answered at once.
pub struct Matches {
    live: Mutex<BTreeMap<u64, Arc<Mutex<Versus>>>>,
    next: AtomicU64,
    capacity: usize,
    /// The matches choosing their next shot now, and the most at once (past it a match's
    /// shot is chosen when the person fires).
    pondering: Arc<AtomicUsize>,
    most_pondering: usize,
}

/// A place taken among the matches choosing their shots ahead ([`Matches::slot`]).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A match's state as the page draws it.
#[derive(Serialize)]
struct MatchState {
    id: String,
    /// The person's fleet, as solution rows.
    yours: Vec<String>,
    /// The computer's fleet, once the game is over.
    theirs: Option<Vec<String>>,
    /// The person's shot of this request, as a record line.
    you: Option<String>,
    /// The computer's last shot this request fired, as a record line.
    computer: Option<String>,
    /// Every shot of the person's so far, as record lines (the void ones dropped).
    your_shots: Vec<String>,
    /// Every shot of the computer's so far, as record lines.
    computer_shots: Vec<String>,
    /// The person's shots the computer has still to answer.
    owed: usize,
    /// The person's shots dropped as void: fired ahead, after the computer's last.
    voided: usize,
    /// "you" or "computer" once the game is over.
    winner: Option<&'static str>,
    /// The game as `broadside play` saves it (the computer's fleet once it is over).
    record: String,
}

impl MatchState {
    fn of(id: u64, v: &Versus, you: Option<String>, computer: Option<String>) -> MatchState {
        let rows = |g: &Game| {
            let s = g.setup();
            g.layout().to_rows(s.dims, &s.fleet)
        };
        let lines = |g: &Game| g.shots().iter().map(|shot| shot_line(g, shot)).collect();
        let over = v.winner();
        MatchState {
            id: id.to_string(),
            yours: rows(v.yours()),
            theirs: over.map(|_| rows(v.theirs())),
            you,
            computer,
            your_shots: lines(v.theirs()),
            computer_shots: lines(v.yours()),
            owed: v.owed(),
            voided: v.voided(),
            winner: over.map(|w| match w {
                Winner::You => "you",
                Winner::Computer => "computer",
            }),
            record: v.record(over.is_some()),
        }
    }
}

/// The most work a shooter of the server's matches may do a move: playouts, boards drawn, or
/// layouts solved exactly.
const MOST_WORK: u64 = 20_000;

/// The most layouts times games a layout (its candidates and four more, counting those cut
/// short) the pilot may play out a move: the `strongest` preset's 3,200 layouts of eight
/// candidates, whose moves take up to about 0.7 s on one core, most of it while the person
/// thinks (the computer chooses its next shot then).
const MOST_PILOT_WORK: u64 = 40_000;

/// Whether the server plays `shooter` (its work a move within [`MOST_WORK`] and
/// [`MOST_PILOT_WORK`], and lookahead within two plies), and if not why.
fn served(shooter: ShooterKind) -> Result<(), String> {
    let (asked, most) = match shooter {
        ShooterKind::Mcts { iterations } => (iterations, MOST_WORK),
        ShooterKind::Sampled { boards, .. } => (boards, MOST_WORK),
        ShooterKind::Endgame { layouts } | ShooterKind::Rollout { layouts } => (layouts, MOST_WORK),
        ShooterKind::Pilot {
            samples,
            candidates,
            ..
        } => (samples, MOST_PILOT_WORK / (candidates as u64 + 4)),
        ShooterKind::Lookahead { plies, .. } if plies > 2 => {
            return Err("the server looks ahead at most 2 plies".into());
        }
        _ => (0, 0),
    };
    if asked > most {
        return Err(format!(
            "{shooter}: the server's matches take at most {most} (the command line takes more)"
        ));
    }
    Ok(())
}

/// A shooter the game page offers.
#[derive(Serialize)]
struct Offered {
    /// The word `POST /api/match` takes.
    word: String,
    /// The name the page shows.
    label: String,
    /// What it does, in a line.
    summary: &'static str,
}

/// `GET /api/shooters`: the vocabulary's tables, and the shooters the page offers: each
/// preset and each shooter of default parameters that the server's matches play, a preset's
/// word once.
pub fn shooters() -> Reply {
    let playable = |word: &str| word.parse::<ShooterKind>().is_ok_and(|k| served(k).is_ok());
    let mut offered: Vec<Offered> = Vec::new();
    for p in SHOOTERS.presets.iter().filter(|p| playable(p.word)) {
        offered.push(Offered {
            word: p.word.to_string(),
            label: format!("{} ({})", p.name, p.word),
            summary: p.summary,
        });
    }
    for e in SHOOTERS.entries.iter().filter(|e| playable(e.name)) {
        if !offered.iter().any(|o| o.word == e.name) {
            offered.push(Offered {
                word: e.name.to_string(),
                label: match e.cost {
                    Cost::Seconds => format!("{} (slower)", e.name),
                    _ => e.name.to_string(),
                },
                summary: e.summary,
            });
        }
    }
    Reply::of(&serde_json::json!({
        "offered": offered,
        "shooters": &SHOOTERS,
        "placers": &PLACERS,
    }))
}

/// The last shot of a game, as a record line.
fn last_shot(g: &Game) -> String {
    shot_line(g, g.shots().last().expect("a shot was just fired"))
}

/// A shot of a game, as a record line.
fn shot_line(g: &Game, shot: &Shot) -> String {
    let s = g.setup();
    broadside::observe::print_shot(s.dims, &s.fleet, shot)
}

impl Matches {
    /// A table of at most `capacity` live matches, at most `pondering` of them choosing
    /// their next shot at once between requests.
    pub fn new(capacity: usize, pondering: usize) -> Matches {
        Matches {
            live: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(1),
            capacity,
            pondering: Arc::new(AtomicUsize::new(0)),
            most_pondering: pondering,
        }
    }

    /// One of the places for a match choosing its shots ahead, if fewer than the most are
    /// taken; given back when dropped.
    fn slot(&self) -> Option<Slot> {
        if self.pondering.fetch_add(1, Ordering::SeqCst) >= self.most_pondering {
            self.pondering.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Slot(self.pondering.clone()))
    }

    /// Has `game`'s computer choose its next shots ([`PONDER_AHEAD`] ahead) on a thread of
    /// its own, if fewer than the most matches are doing so. The match is not held
    /// meanwhile: a request for it takes a shot already chosen at once, and waits only for
    /// one not yet chosen.
    fn ponder(&self, game: &Arc<Mutex<Versus>>) {
        let Some(slot) = self.slot() else {
            return;
        };
        let ponderer = game.lock().unwrap_or_else(|e| e.into_inner()).ponderer();
        // A thread that cannot be had drops the slot with its closure.
        let _ = std::thread::Builder::new()
            .name("broadside-ponder".into())
            .spawn(move || {
                let _slot = slot;
                // A shooter that fails leaves the match to choose when the person fires.
                let _ = catch_unwind(AssertUnwindSafe(|| ponderer.ponder(PONDER_AHEAD)));
            });
    }

    /// `POST /api/match`: a new match on the game of `body`, with the query's `shooter`,
    /// `placer` and `seed`.
    pub fn start(
        &self,
        q: &HashMap<String, String>,
        body: &str,
        limit: Duration,
        books: &Books,
    ) -> Reply {
        let mut specs = match problems(body) {
            Ok(s) => s,
            Err(r) => return r,
        };
        if specs.len() != 1 {
            return Reply::error(400, "a match takes a single game");
        }
        let setup = Setup::of(&specs.remove(0));
        let word =
            |name: &str, default: &str| q.get(name).map_or(default, String::as_str).to_string();
        let shooter: ShooterKind = match word("shooter", "greedy").parse() {
            Ok(s) => s,
            Err(e) => return Reply::error(400, format!("shooter: {e}")),
        };
        if let Err(why) = served(shooter) {
            return Reply::error(400, format!("shooter: {why}"));
        }
        let placer: PlacerKind = match word("placer", "uniform").parse() {
            Ok(PlacerKind::File(_)) => return Reply::error(400, "placer: no files on the server"),
            Ok(p) => p,
            Err(e) => return Reply::error(400, format!("placer: {e}")),
        };
        let seed = match q.get("seed") {
            Some(s) => match s.parse() {
                Ok(s) => s,
                Err(_) => return Reply::error(400, format!("seed: not a number: {s:?}")),
            },
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
        };
        let v = match Versus::within(
            &setup,
            &placer,
            shooter,
            &PlacerKind::Uniform,
            seed,
            Some(limit),
            Some(books.of(&setup)),
        ) {
            Ok(v) => v,
            Err(broadside::Error::Sample(SampleError::NoLayout)) => {
                return Reply::error(400, "the fleet does not fit on this board");
            }
            Err(broadside::Error::Sample(SampleError::Time)) => {
                return Reply::error(
                    503,
                    "the board is too large to hide a fleet on within the server's time limit",
                );
            }
            Err(e) => return Reply::of_error(&e, &e),
        };
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let state = MatchState::of(id, &v, None, None);
        let game = Arc::new(Mutex::new(v));
        {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            live.insert(id, game.clone());
            while live.len() > self.capacity {
                live.pop_first();
            }
        }
        self.ponder(&game);
        Reply::of(&state)
    }

    /// The live match of the query's `id`, or the answer that says why there is none.
    fn find(&self, q: &HashMap<String, String>) -> Result<(u64, Arc<Mutex<Versus>>), Reply> {
        let Some(id) = q.get("id").and_then(|id| id.parse::<u64>().ok()) else {
            return Err(Reply::error(400, "give the match's id="));
        };
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        match live.get(&id) {
            Some(game) => Ok((id, game.clone())),
            None => Err(Reply::error(
                404,
                format!("no match {id} (matches end when the server stops)"),
            )),
        }
    }

    /// `POST /api/match/fire`: the person fires at `cell` in match `id`, and the computer
    /// answers; with `wait=0` it answers only with shots it has chosen already, and the rest
    /// come from `POST /api/match/replies`.
    pub fn fire(&self, q: &HashMap<String, String>) -> Reply {
        let (id, game) = match self.find(q) {
            Ok(found) => found,
            Err(r) => return r,
        };
        let wait = match q.get("wait").map(String::as_str) {
            None | Some("1") => true,
            Some("0") => false,
            Some(other) => return Reply::error(400, format!("wait: 0 or 1, not {other:?}")),
        };
        let state = {
            let mut v = game.lock().unwrap_or_else(|e| e.into_inner());
            let d = v.theirs().setup().dims;
            let cell = match d.parse_cell(q.get("cell").map_or("", String::as_str)) {
                Ok(c) => c,
                Err(e) => return Reply::error(400, format!("cell: {e}")),
            };
            if let Err(e) = v.fire(cell) {
                return Reply::error(409, e);
            }
            let you = last_shot(v.theirs());
            let mut computer = None;
            let answer = |v: &mut Versus| if wait { v.reply() } else { v.reply_ready() };
            while answer(&mut v).is_some() {
                computer = Some(last_shot(v.yours()));
            }
            MatchState::of(id, &v, Some(you), computer)
        };
        if state.winner.is_none() {
            self.ponder(&game);
        }
        Reply::of(&state)
    }

    /// `POST /api/match/replies`: the computer's answers to the person's shots fired ahead
    /// of them in match `id`: those chosen already, else the next once it is chosen (waited
    /// for without holding the match, so the person's shots are taken meanwhile). The request
    /// holds no worker while it waits: a shot it must choose itself is chosen as one of the
    /// matches choosing ahead, else under a worker's permit (`permit`).
    pub fn replies<P>(&self, q: &HashMap<String, String>, permit: impl FnOnce() -> P) -> Reply {
        let (id, game) = match self.find(q) {
            Ok(found) => found,
            Err(r) => return r,
        };
        let ponderer = {
            let v = game.lock().unwrap_or_else(|e| e.into_inner());
            (v.owed() > 0).then(|| v.ponderer())
        };
        if let Some(ponderer) = ponderer {
            // Where the shot is chosen on this thread, it counts as a match choosing ahead,
            // else as a worker.
            let _place = self.slot().map_or_else(|| Err(permit()), Ok);
            ponderer.wait_chosen();
        }
        let state = {
            let mut v = game.lock().unwrap_or_else(|e| e.into_inner());
            let mut computer = None;
            while v.reply_ready().is_some() {
                computer = Some(last_shot(v.yours()));
            }
            MatchState::of(id, &v, None, computer)
        };
        if state.winner.is_none() {
            self.ponder(&game);
        }
        Reply::of(&state)
    }
}
