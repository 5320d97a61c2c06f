//! The self-play tables of `docs/RESULTS.md` replay: every shots file in `docs/results/`
//! names the command that played it, and games taken from it, played again with `--first K`,
//! take the shots the file records (one by one with `--games 1 --json`, as the docs say, and
//! a few at a time with `--shots`). `summarize` reads a file as the run it holds.

use std::path::Path;
use std::process::Command;

use broadside::answer::ShotsFile;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_broadside")
}

fn files() -> Vec<(String, ShotsFile)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let file = ShotsFile::parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            out.push((name, file));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no shots file in {}", dir.display());
    out
}

/// The mean shots of `broadside ARGV --first K --games 1 --json`: game K + 1's shots.
fn replay(argv: &[String], k: u64) -> f64 {
    let o = Command::new(bin())
        .args(argv)
        .args(["--first", &k.to_string(), "--games", "1", "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["mean"].as_f64().unwrap()
}

#[test]
fn every_results_file_replays_to_its_recorded_shots() {
    for (name, f) in files() {
        assert_eq!(f.argv[0], "simulate", "{name}");
        let seed = f
            .argv
            .iter()
            .position(|w| w == "--seed")
            .map(|i| &f.argv[i + 1]);
        assert_eq!(
            seed,
            Some(&f.seed.to_string()),
            "{name}: the seed is the argv's"
        );
        // The file name says the rules and the shooter its argv plays.
        let rules = if f.argv.contains(&"no-touch".to_string()) {
            "notouch"
        } else {
            "touch"
        };
        let sinking = if f.argv.contains(&"none".to_string()) {
            "silent"
        } else {
            "announced"
        };
        let shooter = &f.argv[f.argv.iter().position(|w| w == "--shooter").unwrap() + 1];
        let stem = format!("{rules}-{sinking}-{}.json", shooter.replace(':', "-"));
        assert!(name.ends_with(&stem), "{name} holds {stem}");
        // Three games from the middle of the run, played again in one process.
        let (i, n) = (f.games / 2, 3.min(f.games - f.games / 2));
        let out = std::env::temp_dir().join(format!(
            "broadside-replay-{}-{}",
            std::process::id(),
            Path::new(&name).file_name().unwrap().to_string_lossy()
        ));
        let o = Command::new(bin())
            .args(&f.argv)
            .args([
                "--first",
                &(f.first + i).to_string(),
                "--games",
                &n.to_string(),
            ])
            .arg("--shots")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let again = ShotsFile::parse("replay", &std::fs::read_to_string(&out).unwrap()).unwrap();
        std::fs::remove_file(&out).unwrap();
        // The replay writes the shooter's word in the named form; the file may hold the older
        // one, an alias of it (the argv replays either way, which is the point).
        assert!(again.same_run(&f), "{name}: {:?}", again.argv);
        assert_eq!(again.first, f.first + i, "{name}");
        assert_eq!(
            again.shots,
            f.shots[i as usize..(i + n) as usize],
            "{name}: games {} to {}",
            f.first + i + 1,
            f.first + i + n
        );
    }
}

/// The docs' form: `--first K --games 1 --json` reports game K + 1's shots as its mean; the
/// first and last game of the standard game's density run.
#[test]
fn one_game_replays_with_first_and_games_one() {
    let (name, f) = files()
        .into_iter()
        .find(|(n, _)| n.ends_with("touch-announced-density-50.json") && !n.contains("notouch"))
        .expect("the standard game's density run");
    for i in [0, f.games - 1] {
        let k = f.first + i;
        assert_eq!(
            replay(&f.argv, k),
            f64::from(f.shots[i as usize]),
            "{name}: game {}",
            k + 1
        );
    }
}

#[test]
fn summarize_reads_a_results_file_as_the_run_it_holds() {
    let (name, f) = files().into_iter().next().unwrap();
    let o = Command::new(bin())
        .args(["summarize", &name, "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"].as_u64(), Some(f.games));
    let mean = f.shots.iter().map(|&s| f64::from(s)).sum::<f64>() / f.games as f64;
    assert!((v["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert_eq!(
        v["min"].as_u64(),
        f.shots.iter().min().map(|&s| u64::from(s))
    );
    assert!(v.get("hit_ratio").is_none(), "a shots file keeps no hits");
}

/// The measured departures of `docs/results/gains/`: each file names the command that plays
/// its games (`games`, from game `first` + 1, `count` of them) and the `gains` command that
/// measured them, with each game's gain and departures. One game of each, played again alone
/// and measured again alone, gives the figures the file records.
#[test]
fn every_gains_file_replays_a_game_to_its_recorded_gain() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/gains");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no gains file in {}", dir.display());
    for path in names {
        let name = path.display().to_string();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let words = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .unwrap_or_else(|| panic!("{name}: {key}"))
                .iter()
                .map(|w| w.as_str().unwrap().to_string())
                .collect()
        };
        let (games, gains) = (words("games"), words("gains"));
        assert_eq!(
            (games[0].as_str(), gains[0].as_str()),
            ("simulate", "gains")
        );
        let gain = v["gain"].as_array().unwrap();
        let departures = v["departures"].as_array().unwrap();
        assert_eq!(gain.len() as u64, v["count"].as_u64().unwrap(), "{name}");
        assert_eq!(departures.len(), gain.len(), "{name}");
        // The second game.
        let i = 1;
        let out = std::env::temp_dir().join(format!(
            "broadside-gains-{}-{}l",
            std::process::id(),
            path.file_name().unwrap().to_string_lossy()
        ));
        let first = v["first"].as_u64().unwrap() + i as u64;
        let o = Command::new(bin())
            .args(&games)
            .args(["--first", &first.to_string(), "--games", "1", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = Command::new(bin())
            .arg("gains")
            .arg(&out)
            .args(&gains[1..])
            .args(["--each", "--json"])
            .output()
            .unwrap();
        std::fs::remove_file(&out).unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let again: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let game = &again["each"][0];
        assert!(
            (game["gain"].as_f64().unwrap() - gain[i].as_f64().unwrap()).abs() < 1e-9,
            "{name}: game {}: {} against {}",
            first + 1,
            game["gain"],
            gain[i]
        );
        assert_eq!(
            game["departures"].as_array().unwrap().len() as u64,
            departures[i].as_u64().unwrap(),
            "{name}: game {}",
            first + 1
        );
    }
}
