//! The reply cache: answers kept by request, so that a state asked again (the opening, an
//! undo) answers at once, and one asked by many at the same time is computed once. It is
//! bounded by entries and by bytes (the request keys and the replies kept), the oldest dropped
//! first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use super::http::Reply;

/// Answers kept by request key; see the module documentation.
pub struct Cache {
    entries: Mutex<Entries>,
    capacity: usize,
    max_bytes: usize,
}

/// One request's answer, computed once, and the bytes it holds.
struct Entry {
    reply: Arc<OnceLock<Arc<Reply>>>,
    bytes: usize,
}

#[derive(Default)]
struct Entries {
    by_key: HashMap<String, Entry>,
    order: VecDeque<String>,
    bytes: usize,
}

impl Entries {
    /// Drops the oldest entries, never `keep`, until the bounds hold.
    fn shrink(&mut self, capacity: usize, max_bytes: usize, keep: &str) {
        let mut kept = VecDeque::new();
        while self.order.len() + kept.len() > capacity || self.bytes > max_bytes {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if old == keep {
                kept.push_back(old);
                continue;
            }
            if let Some(e) = self.by_key.remove(&old) {
                self.bytes -= e.bytes;
            }
        }
        while let Some(k) = kept.pop_back() {
            self.order.push_front(k);
        }
    }

    /// Forgets `key` if its entry is still `reply`.
    fn forget(&mut self, key: &str, reply: &Arc<OnceLock<Arc<Reply>>>) {
        if self
            .by_key
            .get(key)
            .is_some_and(|e| Arc::ptr_eq(&e.reply, reply))
            && let Some(e) = self.by_key.remove(key)
        {
            self.bytes -= e.bytes;
            self.order.retain(|k| k != key);
        }
    }
}

impl Cache {
    /// A cache of at most `capacity` answers holding at most `max_bytes` bytes.
    pub fn new(capacity: usize, max_bytes: usize) -> Cache {
        Cache {
            entries: Mutex::new(Entries::default()),
            capacity,
            max_bytes,
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The reply to `key`, computed by `compute` unless another request already has it (or
    /// is computing it: then this one waits for it). `compute` says whether its reply is
    /// exact; only exact answers are kept.
    pub fn get_or_compute(
        &self,
        key: String,
        compute: impl FnOnce() -> (Reply, bool),
    ) -> Arc<Reply> {
        let cell = {
            let mut entries = self.entries();
            if let Some(e) = entries.by_key.get(&key) {
                e.reply.clone()
            } else {
                let cell = Arc::new(OnceLock::new());
                let bytes = key.len();
                entries.by_key.insert(
                    key.clone(),
                    Entry {
                        reply: cell.clone(),
                        bytes,
                    },
                );
                entries.bytes += bytes;
                entries.order.push_back(key.clone());
                entries.shrink(self.capacity, self.max_bytes, &key);
                cell
            }
        };
        let mut computed = None;
        let reply = cell
            .get_or_init(|| {
                let (reply, exact) = compute();
                computed = Some((exact, reply.body.len()));
                Arc::new(reply)
            })
            .clone();
        match computed {
            Some((true, body)) => {
                let mut entries = self.entries();
                if let Some(e) = entries.by_key.get_mut(&key)
                    && Arc::ptr_eq(&e.reply, &cell)
                {
                    e.bytes += body;
                    entries.bytes += body;
                    // A reply larger than the whole budget is given, not kept.
                    if key.len() + body > self.max_bytes {
                        entries.forget(&key, &cell);
                    } else {
                        entries.shrink(self.capacity, self.max_bytes, &key);
                    }
                }
            }
            Some((false, _)) => self.entries().forget(&key, &cell),
            None => {}
        }
        reply
    }

    /// The bytes the cache holds.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.entries().bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_answers_are_kept_and_the_oldest_dropped() {
        let cache = Cache::new(2, 1 << 20);
        let calls = std::cell::Cell::new(0);
        let answer = |body: &str, exact: bool| {
            calls.set(calls.get() + 1);
            (Reply::json(body.to_string()), exact)
        };
        assert_eq!(
            cache.get_or_compute("a".into(), || answer("1", true)).body,
            "1"
        );
        assert_eq!(
            cache.get_or_compute("a".into(), || answer("2", true)).body,
            "1"
        );
        assert_eq!(calls.get(), 1);
        // A partial answer is given but not kept.
        assert_eq!(
            cache.get_or_compute("b".into(), || answer("3", false)).body,
            "3"
        );
        assert_eq!(
            cache.get_or_compute("b".into(), || answer("4", true)).body,
            "4"
        );
        cache.get_or_compute("c".into(), || answer("5", true));
        // "a" was the oldest of three: counted again.
        assert_eq!(
            cache.get_or_compute("a".into(), || answer("6", true)).body,
            "6"
        );
        assert_eq!(calls.get(), 5);
    }

    #[test]
    fn the_cache_is_bounded_by_bytes() {
        let cache = Cache::new(1000, 10_000);
        let big = "x".repeat(3_000);
        for i in 0..20 {
            let key = format!("request {i}");
            cache.get_or_compute(key, || (Reply::json(big.clone()), true));
            assert!(cache.bytes() <= 10_000, "{} bytes", cache.bytes());
        }
        // The newest is kept; a reply over the whole budget is given and not kept.
        let calls = std::cell::Cell::new(0);
        cache.get_or_compute("request 19".into(), || {
            calls.set(1);
            (Reply::json(String::new()), true)
        });
        assert_eq!(calls.get(), 0);
        let huge = "y".repeat(20_000);
        assert_eq!(
            cache
                .get_or_compute("huge".into(), || (Reply::json(huge.clone()), true))
                .body
                .len(),
            20_000
        );
        assert!(cache.bytes() <= 10_000);
    }
}
