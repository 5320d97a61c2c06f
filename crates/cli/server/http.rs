//! HTTP in the small: the reply the server sends, and a request's query string decoded.

use std::collections::HashMap;

use serde::Serialize;

use crate::report::json_document;

/// An HTTP answer.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    /// 200 with a JSON body.
    pub fn json(body: String) -> Reply {
        Reply {
            status: 200,
            content_type: "application/json",
            body,
        }
    }

    /// 200 with `value` as the CLI's `--json` prints a report.
    pub fn of<T: Serialize>(value: &T) -> Reply {
        Reply::json(json_document(vec![
            serde_json::to_value(value).expect("reports always serialise"),
        ]))
    }

    /// 200 with plain text.
    pub fn text(body: String) -> Reply {
        Reply {
            status: 200,
            content_type: "text/plain; charset=utf-8",
            body,
        }
    }

    /// 200 with a static asset of the page.
    pub fn asset(content_type: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.to_string(),
        }
    }

    /// An error `status` whose body is `message`, as plain text.
    pub fn error(status: u16, message: impl std::fmt::Display) -> Reply {
        Reply {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{message}\n"),
        }
    }

    /// The status an error of the library answers with: 400 for the request's own input,
    /// 500 for a failure of the server.
    pub fn of_error(e: &broadside::Error, message: impl std::fmt::Display) -> Reply {
        Reply::error(if e.is_bad_input() { 400 } else { 500 }, message)
    }
}

/// A request's query string, decoded.
pub fn query(url: &str) -> HashMap<String, String> {
    let Some((_, q)) = url.split_once('?') else {
        return HashMap::new();
    };
    q.split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

/// Percent-decoding, `+` as a space; a `%` not followed by two hex digits stays as it is.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', h, l]) => hex(*h).zip(hex(*l)).map(|(h, l)| h * 16 + l),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_percent_decoded() {
        let q = query("/api/probs?engine=dp&name=a%20b+c&bad=%zz&flag");
        assert_eq!(q["engine"], "dp");
        assert_eq!(q["name"], "a b c");
        assert_eq!(q["bad"], "%zz");
        assert_eq!(q["flag"], "");
        assert!(query("/api/probs").is_empty());
    }
}
