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
        assert_eq!(again.argv, f.argv, "{name}");
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
