//! The web page in a real browser: headless Chromium, driven through WebDriver
//! (chromedriver), clicks through a recorded 10x10 game and checks at every state that the
//! numbers on the page are `broadside probs` for the page's record, integer for integer. It
//! also measures how long a click takes to reach the screen, and plays a match.
//!
//! It needs Debian's `chromium` and `chromium-driver` (`apt-get install chromium
//! chromium-driver`); where they are absent it says it was skipped. `.ci/run` runs it in
//! release mode: `cargo test --release --test browser -- --include-ignored --nocapture`.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/http.rs"]
mod http;
#[path = "support/server.rs"]
mod server;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use server::Server;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A WebDriver session in headless Chromium.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
    /// Chromium's profile directory, removed with the browser.
    profile: std::path::PathBuf,
}

impl Browser {
    fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let start = Instant::now();
        while http::request(&addr, "GET", "/status", None).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver never answered"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        // A profile of each browser's own: the tests of this file run at once.
        static BROWSERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "broadside-chromium-{}-{}",
            std::process::id(),
            BROWSERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                         "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync",
                         "--disable-dev-shm-usage", "--window-size=1200,1100",
                         format!("--user-data-dir={}", profile.display())]
            }
        }}});
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
            profile,
        };
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        b
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string());
        let r = http::request(&self.addr, method, path, body.as_deref().map(str::as_bytes))
            .expect("chromedriver answers");
        let v: Value = serde_json::from_str(&r.body).expect("WebDriver JSON");
        assert!(r.status == 200, "{method} {path}: {}", r.body);
        v["value"].clone()
    }

    fn go(&self, url: &str) {
        self.call(
            "POST",
            &format!("/session/{}/url", self.session),
            Some(json!({"url": url})),
        );
    }

    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            Some(json!({"script": script, "args": []})),
        )
    }

    /// A real click, as a person's, on the element `css` selects.
    fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            &format!("/session/{}/element", self.session),
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("an element");
        self.call(
            "POST",
            &format!("/session/{}/element/{id}/click", self.session),
            Some(json!({})),
        );
    }

    /// Waits until the page has drawn its last answer.
    fn settle(&self) {
        let start = Instant::now();
        loop {
            let idle = self.run(
                "return !!window.broadside && !window.broadside.busy \
                 && document.getElementById('layouts').dataset.layouts !== undefined",
            );
            if idle == json!(true) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the page never settled"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Waits until the game page has no request in flight (after one that may be refused).
    fn settle_refused(&self) {
        let start = Instant::now();
        while self.run("return !!window.broadside && window.broadside.busy") != json!(false) {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the page never settled"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Waits until the puzzle page has no request in flight and has a puzzle open.
    fn settle_puzzle(&self) {
        let start = Instant::now();
        loop {
            let idle = self.run(
                "return !!window.broadside && !window.broadside.busy \
                 && document.getElementById('pname').textContent !== ''",
            );
            if idle == json!(true) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the puzzle page never settled"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Types `text` into the input `css` selects, replacing what it held.
    fn type_into(&self, css: &str, text: &str) {
        let e = self.call(
            "POST",
            &format!("/session/{}/element", self.session),
            Some(json!({"using": "css selector", "value": css})),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .expect("an element")
            .to_string();
        self.call(
            "POST",
            &format!("/session/{}/element/{id}/clear", self.session),
            Some(json!({})),
        );
        self.call(
            "POST",
            &format!("/session/{}/element/{id}/value", self.session),
            Some(json!({"text": text})),
        );
    }

    fn size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            &format!("/session/{}/window/rect", self.session),
            Some(json!({"width": width, "height": height})),
        );
    }

    fn screenshot(&self, path: &Path) {
        let v = self.call(
            "GET",
            &format!("/session/{}/screenshot", self.session),
            None,
        );
        std::fs::write(path, base64(v.as_str().expect("base64"))).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http::request(
                &self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64(s: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = s
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// `broadside probs --json` of a record.
fn cli_probs(record: &str) -> Value {
    let out = cli::run(&["probs", "-", "--json"], record);
    serde_json::from_slice(&out.stdout).expect("probs --json")
}

/// The page's record, count and per-cell counts equal the CLI's for that record.
fn page_equals_cli(b: &Browser) -> usize {
    let page = b.run(
        "const cells = [...document.querySelectorAll('#board td')];\
         return {record: window.broadside.record(),\
                 layouts: document.getElementById('layouts').dataset.layouts,\
                 counts: cells.map((td) => [td.dataset.cell, td.dataset.count])};",
    );
    let record = page["record"].as_str().unwrap();
    let want = cli_probs(record);
    assert_eq!(
        page["layouts"].as_str().unwrap(),
        want["layouts"].to_string(),
        "{record}"
    );
    let width = want["counts"][0].as_array().unwrap().len();
    let cells = page["counts"].as_array().unwrap();
    assert_eq!(
        cells.len(),
        width * want["counts"].as_array().unwrap().len()
    );
    for (i, cell) in cells.iter().enumerate() {
        assert_eq!(
            cell[1].as_str().unwrap(),
            want["counts"][i / width][i % width].to_string(),
            "cell {} of\n{record}",
            cell[0]
        );
    }
    record
        .lines()
        .skip_while(|l| *l != "shots:")
        .skip(1)
        .count()
}

#[test]
#[ignore = "drives headless Chromium; .ci/run runs it in release mode"]
fn the_page_shows_the_cli_s_numbers_in_a_real_browser() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        eprintln!(
            "SKIPPED the browser test: {CHROMIUM} and {CHROMEDRIVER} are needed \
             (apt-get install chromium chromium-driver)"
        );
        return;
    }
    let server = Server::start(&[]);
    let b = Browser::start();
    b.go(&format!("http://{}/", server.addr));
    b.settle();
    assert_eq!(page_equals_cli(&b), 0);
    let opening = b.run("return document.getElementById('layouts').textContent");
    assert!(
        opening
            .as_str()
            .unwrap()
            .starts_with("15,046,987,768 layouts"),
        "{opening}"
    );

    // A recorded game of the standard board, clicked shot by shot.
    let game = std::fs::read_to_string("puzzles/game/standard-game.txt").unwrap();
    let shots: Vec<&str> = game
        .lines()
        .skip_while(|l| *l != "shots:")
        .skip(1)
        .take_while(|l| *l != "solution:")
        .collect();
    assert_eq!(shots.len(), 63);
    for (i, line) in shots.iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        b.click(&format!("input[name=mark][value={}]", words[1]));
        if words[1] == "sunk" {
            b.click(&format!("#ship option[value='{}']", words[2]));
        }
        b.click(&format!("#board-{}", words[0]));
        b.settle();
        assert_eq!(page_equals_cli(&b), i + 1, "after {line}");
    }
    let timings: Vec<f64> = b
        .run("return window.broadside.timings")
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_f64().unwrap())
        .collect();
    assert_eq!(timings.len(), 63);
    let mut sorted = timings.clone();
    sorted.sort_by(f64::total_cmp);
    let p95 = sorted[(sorted.len() * 95).div_ceil(100) - 1];
    eprintln!(
        "click to screen over the 63 states of puzzles/game/standard-game.txt: median {:.0} ms, \
         p95 {:.0} ms, max {:.0} ms, {} over 100 ms; by shot: {:?}",
        sorted[sorted.len() / 2],
        p95,
        sorted[sorted.len() - 1],
        timings.iter().filter(|&&t| t > 100.0).count(),
        timings.iter().map(|t| t.round() as u64).collect::<Vec<_>>()
    );
    b.screenshot(Path::new("target/browser-e2e.png"));

    // Every ship is sunk: a further hit cannot be true, and the page refuses it.
    let open = (1..=10)
        .flat_map(|r| ('A'..='J').map(move |c| format!("{c}{r}")))
        .find(|cell| {
            !shots
                .iter()
                .any(|l| l.split_whitespace().next() == Some(cell))
        })
        .expect("an open cell");
    b.click("input[name=mark][value=hit]");
    b.click(&format!("#board-{open}"));
    b.settle();
    let error = b.run("return document.getElementById('error').textContent");
    assert!(
        error
            .as_str()
            .unwrap()
            .starts_with(&format!("refused {open} hit")),
        "{error}"
    );
    assert_eq!(page_equals_cli(&b), 63);
    // Undo takes the last shot back.
    b.click("#undo");
    b.settle();
    assert_eq!(page_equals_cli(&b), 62);

    // A match against the computer: its shots land on your board.
    b.click("#shooter option[value='random']");
    b.click("#play");
    b.settle();
    for cell in ["A1", "B2", "C3"] {
        b.click(&format!("#board-{cell}"));
        b.settle();
    }
    let marks = b.run(
        "return [...document.querySelectorAll('#own td')].filter((td) => td.textContent).length",
    );
    assert_eq!(marks, json!(3));
    let message = b.run("return document.getElementById('message').textContent");
    assert!(
        message.as_str().unwrap().starts_with("You: C3 "),
        "{message}"
    );
    assert_eq!(page_equals_cli(&b), 3);
    // Shots fired faster than the computer answers are answered at once; its answers follow.
    for cell in ["D4", "E5", "F6", "G7", "H8"] {
        b.click(&format!("#board-{cell}"));
    }
    b.settle();
    let marks = b.run(
        "return [...document.querySelectorAll('#own td')].filter((td) => td.textContent).length",
    );
    assert_eq!(marks, json!(8));
    // The computer's last shot is the one outlined.
    let last = b.run(
        "const m = document.getElementById('message').textContent.match(/The computer: (\\w+) /);\
         const outlined = [...document.querySelectorAll('#own td.last')].map((td) => td.dataset.cell);\
         return [m && m[1], outlined];",
    );
    assert_eq!(last[1], json!([last[0].clone()]), "{last}");
    let message = b.run("return document.getElementById('message').textContent");
    assert!(
        message.as_str().unwrap().starts_with("You: H8 "),
        "{message}"
    );
    assert_eq!(page_equals_cli(&b), 8);
    // The two boards side by side.
    let tops = b.run(
        "return [document.getElementById('board').getBoundingClientRect().top, \
                 document.getElementById('own').getBoundingClientRect().top]",
    );
    assert_eq!(tops[0], tops[1], "{tops}");
    b.screenshot(Path::new("target/browser-match.png"));
    // A match clicked through faster than the computer answers ends settled by the two
    // sides' counts of shots, as the server's record says.
    b.type_into("#size", "5x5");
    b.type_into("#fleet", "3 2");
    b.click("#play");
    b.settle();
    for row in 1..=5 {
        for col in ["A", "B", "C", "D", "E"] {
            b.click(&format!("#board-{col}{row}"));
        }
    }
    b.settle();
    let end = b.run(
        "return {message: document.getElementById('message').textContent, \
                 record: document.getElementById('record').textContent, \
                 marks: [...document.querySelectorAll('#own td')].filter((td) => td.textContent).length}",
    );
    let message = end["message"].as_str().unwrap();
    assert!(
        message.contains(" wins.") || message.contains("you win!"),
        "{message}"
    );
    let record = end["record"].as_str().unwrap();
    let (yours, its) = record.split_once("---").unwrap();
    let shots = |r: &str| {
        r.lines()
            .filter(|l| l.contains(" miss") || l.contains(" hit") || l.contains(" sunk"))
            .count()
    };
    assert_eq!(end["marks"], json!(shots(its)), "{record}");
    let you_won = message.contains("you win!");
    assert_eq!(shots(yours), shots(its) + usize::from(you_won), "{record}");
    // The computer's fleet revealed: its cells not hit drawn as ships, the rest as hits.
    let cells = b.run(
        "return [document.querySelectorAll('#board td.ship').length, \
                 document.querySelectorAll('#board td.shot.hit').length]",
    );
    assert_eq!(
        cells[0].as_u64().unwrap() + cells[1].as_u64().unwrap(),
        5,
        "{cells}"
    );
    // A size past what broadside takes is refused before a table is drawn, and the old
    // board's figures do not stay as if they were the new one's.
    b.type_into("#size", "1000x1000");
    b.click("#new");
    let error = b.run("return document.getElementById('error').textContent");
    assert!(error.as_str().unwrap().contains("not supported"), "{error}");
    b.type_into("#size", "5x5");
    b.type_into("#fleet", "5 5 5 5 5 5");
    b.click("#rules option[value='no-touch']");
    b.click("#new");
    b.settle_refused();
    let error = b.run("return document.getElementById('error').textContent");
    assert!(
        error
            .as_str()
            .unwrap()
            .contains("no layout of this fleet fits this board"),
        "{error}"
    );
    assert_eq!(
        b.run("return document.getElementById('layouts').textContent"),
        json!("")
    );
}

/// The solution of `broadside generate` with these options, as one string of `*` (ship) and
/// `.` (water) in reading order.
fn generated_solution(size: &str, difficulty: &str, seed: &str) -> String {
    let out = cli::run(
        &[
            "generate",
            "--size",
            size,
            "--difficulty",
            difficulty,
            "--seed",
            seed,
        ],
        "",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let json = cli::run(&["convert", "--to", "json", "-"], &text);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_str()
                .unwrap()
                .chars()
                .map(|c| if c == '.' { '.' } else { '*' })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
#[ignore = "drives headless Chromium; .ci/run runs it in release mode"]
fn a_puzzle_is_generated_and_solved_by_hints_on_the_page() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        eprintln!(
            "SKIPPED the puzzle page test: {CHROMIUM} and {CHROMEDRIVER} are needed \
             (apt-get install chromium chromium-driver)"
        );
        return;
    }
    let server = Server::start(&[]);
    let b = Browser::start();
    b.go(&format!("http://{}/puzzle", server.addr));
    b.settle_puzzle();
    // A 10x10 hard puzzle, generated on the page.
    b.type_into("#gsize", "10x10");
    b.click("#gdiff option[value=hard]");
    b.type_into("#gseed", "7");
    b.click("#generate");
    b.settle_puzzle();
    let title = b.run("return document.getElementById('pname').textContent");
    assert!(
        title.as_str().unwrap().starts_with("gen-10x10-hard-s7"),
        "{title}"
    );
    let truth = generated_solution("10x10", "hard", "7");
    // Hint after hint: each shows its cells and its sentence, the second press fills them in.
    let mut hints = 0;
    while b.run("return window.broadside.solved") != json!(true) {
        hints += 1;
        assert!(hints <= 100, "100 hints and the puzzle is not solved");
        b.click("#hint");
        b.settle_puzzle();
        if b.run("return window.broadside.solved") == json!(true) {
            break;
        }
        let lit = b.run("return window.broadside.lit()");
        let lit: Vec<String> = serde_json::from_value(lit).unwrap();
        assert!(!lit.is_empty(), "hint {hints} lit no cell");
        let message = b.run("return window.broadside.message");
        let message = message.as_str().unwrap();
        assert!(message.contains("So: "), "hint {hints}: {message}");
        if hints == 22 {
            b.screenshot(Path::new("target/puzzle-page.png"));
        }
        b.click("#hint");
        b.settle_puzzle();
        // What the hint filled in is the solution's.
        let marks = b.run("return window.broadside.marks()");
        let marks = marks.as_str().unwrap();
        for name in &lit {
            let col = (name.as_bytes()[0] - b'A') as usize;
            let row: usize = name[1..].parse().unwrap();
            let i = (row - 1) * 10 + col;
            let want = if truth.as_bytes()[i] == b'*' {
                b'2'
            } else {
                b'1'
            };
            assert_eq!(marks.as_bytes()[i], want, "hint {hints}: {name}");
        }
    }
    let message = b.run("return window.broadside.message");
    assert!(
        message.as_str().unwrap().starts_with("Solved in"),
        "{message}"
    );
    eprintln!("the 10x10 hard puzzle of seed 7 took {hints} hints on the page");
    // One wrong mark: a water cell of the solution marked a ship, which Check flags.
    let wrong = (0..100)
        .find(|&i| {
            truth.as_bytes()[i] == b'.'
                && b.run(&format!(
                    "return document.querySelector('rect.cell[data-cell={}{}]').dataset.state",
                    (b'A' + (i % 10) as u8) as char,
                    i / 10 + 1
                )) == json!("water")
        })
        .expect("a water cell");
    let cell = format!("{}{}", (b'A' + (wrong % 10) as u8) as char, wrong / 10 + 1);
    b.click("#tapmode option[value=ship]");
    b.click(&format!("rect.cell[data-cell={cell}]"));
    b.settle_puzzle();
    b.click("#check");
    b.settle_puzzle();
    assert_eq!(b.run("return window.broadside.wrong()"), json!([cell]));
    let message = b.run("return window.broadside.message");
    assert!(
        message.as_str().unwrap().starts_with("1 wrong cell"),
        "{message}"
    );
    // The marks survive a reload.
    let marks = b.run("return window.broadside.marks()");
    let url = b.run("return location.href");
    b.go(url.as_str().unwrap());
    b.settle_puzzle();
    assert_eq!(b.run("return window.broadside.marks()"), marks);
    // A phone-sized window still shows the whole board.
    b.size(390, 844);
    b.settle_puzzle();
    let fits = b.run(
        "const r = document.getElementById('board').getBoundingClientRect(); \
         return r.right <= window.innerWidth && r.width > 250",
    );
    assert_eq!(fits, json!(true));
    b.screenshot(Path::new("target/puzzle-page-phone.png"));
}

/// A Digital Battleships puzzle pasted into the puzzle page: its digits drawn in the cells,
/// its sums judged as sums, and hints (search steps: the logical rules count ship cells) until
/// it is solved, the solution docs/FORMAT.md records.
#[test]
#[ignore = "drives headless Chromium; .ci/run runs it in release mode"]
fn a_digital_puzzle_is_solved_by_hints_on_the_page() {
    if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
        eprintln!("SKIPPED the digital puzzle page test: {CHROMIUM} and {CHROMEDRIVER} are needed");
        return;
    }
    let doc = std::fs::read_to_string("docs/FORMAT.md").unwrap();
    let start = doc
        .find("name: digital-5x5")
        .expect("FORMAT.md's digital example");
    let text = &doc[start..start + doc[start..].find("```").unwrap()];
    let puzzle = &text[..text.find("solution:").unwrap()];
    let server = Server::start(&[]);
    let b = Browser::start();
    b.go(&format!("http://{}/puzzle", server.addr));
    b.settle_puzzle();
    // The paste box sits in a folded panel: filled and opened as its button would.
    b.run(&format!(
        "document.getElementById('paste').value = {}; document.getElementById('openpaste').click();",
        json!(puzzle)
    ));
    b.settle_puzzle();
    let digits = b.run("return [...document.querySelectorAll('#board text.digit')].map(t => t.textContent).join('')");
    assert_eq!(digits, json!("5691841326847924147537323"));
    let mut hints = 0;
    while b.run("return window.broadside.solved") != json!(true) {
        hints += 1;
        assert!(hints <= 60, "60 hints and the digital puzzle is not solved");
        b.click("#hint");
        b.settle_puzzle();
    }
    // Ships where the recorded solution has them: A3-C3, D1-E1, A5 (2 is a ship mark).
    let marks = b.run("return window.broadside.marks()");
    let ships: Vec<usize> = marks
        .as_str()
        .unwrap()
        .bytes()
        .enumerate()
        .filter(|&(_, m)| m == b'2')
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ships, [3, 4, 10, 11, 12, 20]);
    // Every sum met: the numbers are greyed as the page greys a met count.
    let met = b.run("return document.querySelectorAll('#board text.count.met').length");
    assert_eq!(met, json!(10));
    b.screenshot(Path::new("target/puzzle-page-digital.png"));
    // A digital puzzle generated on the page: the one `generate --digital --seed 5` prints.
    b.type_into("#gsize", "6x6");
    b.type_into("#gseed", "5");
    b.run("document.getElementById('gdigital').checked = true;");
    b.click("#generate");
    b.settle_puzzle();
    let title = b.run("return document.getElementById('pname').textContent");
    assert!(
        title.as_str().unwrap().starts_with("gen-digital-6x6-s5-1"),
        "{title}"
    );
    let digits = b.run("return [...document.querySelectorAll('#board text.digit')].map(t => t.textContent).join('')");
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(["generate", "--size", "6x6", "--digital", "--seed", "5"])
        .output()
        .unwrap();
    let text = String::from_utf8(cli.stdout).unwrap();
    let from_cli: String = text
        .split("digits:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take(6)
        .flat_map(|l| l.split_whitespace())
        .collect();
    assert_eq!(digits, json!(from_cli));
}
