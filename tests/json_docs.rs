//! Every example in `docs/JSON.md` is run again: each ```sh block names a command, the ```json
//! block after it is that command's output, and the two must agree (apart from `seconds`,
//! which is wall time, and floats within rounding).

use std::process::Command;

use serde_json::Value;

/// Splits a command line as a shell would for these examples: words, and double-quoted
/// phrases.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(ch),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Every JSON value in `text` (one, or JSON lines).
fn values(text: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("not JSON: {e}\n{text}"))
}

/// Whether `a` and `b` agree: the same keys and values, floats within 1e-9, and `seconds`
/// anything.
fn agree(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| k == "seconds" || agree(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| agree(v, w))
        }
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() <= 1e-9
        }
        _ => a == b,
    }
}

#[test]
fn every_json_example_is_what_its_command_prints() {
    let root = env!("CARGO_MANIFEST_DIR");
    let doc = std::fs::read_to_string(format!("{root}/docs/JSON.md")).unwrap();
    let blocks: Vec<&str> = doc.split("```").collect();
    let mut checked = 0;
    for (i, block) in blocks.iter().enumerate() {
        let Some(cmd) = block.strip_prefix("sh\nbroadside ") else {
            continue;
        };
        let json = blocks
            .get(i + 2)
            .and_then(|b| b.strip_prefix("json\n"))
            .unwrap_or_else(|| panic!("no JSON block after `broadside {cmd}`"));
        let args = words(cmd.trim());
        let out = Command::new(env!("CARGO_BIN_EXE_broadside"))
            .args(&args)
            .current_dir(root)
            .output()
            .unwrap();
        let got = values(&String::from_utf8_lossy(&out.stdout));
        let want = values(json);
        assert!(
            got.len() == want.len() && got.iter().zip(&want).all(|(g, w)| agree(g, w)),
            "`broadside {}` prints\n{}\nbut docs/JSON.md shows\n{json}",
            cmd.trim(),
            String::from_utf8_lossy(&out.stdout)
        );
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} examples found");
}

#[test]
fn the_comparison_can_fail() {
    let a = values(r#"{"count": 524, "seconds": 1.0, "p": [0.5]}"#).remove(0);
    assert!(agree(
        &a,
        &values(r#"{"count": 524, "seconds": 2.0, "p": [0.5]}"#)[0]
    ));
    assert!(!agree(
        &a,
        &values(r#"{"count": 525, "seconds": 1.0, "p": [0.5]}"#)[0]
    ));
    assert!(!agree(
        &a,
        &values(r#"{"count": 524, "seconds": 1.0, "p": [0.6]}"#)[0]
    ));
    assert!(!agree(&a, &values(r#"{"count": 524, "p": [0.5]}"#)[0]));
}
