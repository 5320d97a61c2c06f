//! The reply cache: answers kept by request, so that a state asked again (the opening, an
//! undo) answers at once, and one asked by many at the same time is computed once.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use super::http::Reply;

/// Answers kept by request key, the oldest dropped past a bound.
pub struct Cache {
    entries: Mutex<Entries>,
    capacity: usize,
}

#[derive(Default)]
struct Entries {
    by_key: HashMap<String, Arc<OnceLock<Arc<Reply>>>>,
    order: VecDeque<String>,
}

impl Cache {
    /// A cache of at most `capacity` answers.
    pub fn new(capacity: usize) -> Cache {
        Cache {
            entries: Mutex::new(Entries::default()),
            capacity,
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
            if let Some(cell) = entries.by_key.get(&key) {
                cell.clone()
            } else {
                let cell = Arc::new(OnceLock::new());
                entries.by_key.insert(key.clone(), cell.clone());
                entries.order.push_back(key.clone());
                while entries.order.len() > self.capacity {
                    if let Some(old) = entries.order.pop_front() {
                        entries.by_key.remove(&old);
                    }
                }
                cell
            }
        };
        let mut keep = true;
        let reply = cell
            .get_or_init(|| {
                let (reply, exact) = compute();
                keep = exact;
                Arc::new(reply)
            })
            .clone();
        if !keep {
            let mut entries = self.entries();
            if entries
                .by_key
                .get(&key)
                .is_some_and(|c| Arc::ptr_eq(c, &cell))
            {
                entries.by_key.remove(&key);
                entries.order.retain(|k| k != &key);
            }
        }
        reply
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_answers_are_kept_and_the_oldest_dropped() {
        let cache = Cache::new(2);
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
}
