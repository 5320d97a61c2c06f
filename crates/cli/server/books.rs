//! The books of the games the server is asked about: the exact heat maps of positions it
//! counted (without a sinking report, and only those that took a while), kept per game and
//! shared by every request, so a position met again, in another visitor's game or a match
//! after another, or its mirror image, is looked up. A few games at most, the one asked
//! about longest ago let go first.

use std::sync::{Arc, Mutex};

use broadside::play::{Book, Setup};

/// The most games whose books are kept.
pub const GAMES: usize = 8;

/// The books, the last asked about last.
pub struct Books {
    kept: Mutex<Vec<Arc<Book>>>,
}

impl Books {
    /// No book yet.
    pub fn new() -> Books {
        Books {
            kept: Mutex::new(Vec::new()),
        }
    }

    /// The book of `setup`'s game, made if new.
    pub fn of(&self, setup: &Setup) -> Arc<Book> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let book = match kept.iter().position(|b| b.setup() == setup) {
            Some(i) => kept.remove(i),
            None => Book::for_run(setup),
        };
        kept.push(book.clone());
        if kept.len() > GAMES {
            kept.remove(0);
        }
        book
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use broadside::{Dims, Fleet, Rules, Sinking};

    fn setup(w: usize) -> Setup {
        Setup {
            dims: Dims::new(w, 5),
            fleet: Fleet::straight(&[3, 2]),
            rules: Rules::Touch,
            sinking: Sinking::Announced,
            rocks: Vec::new(),
        }
    }

    #[test]
    fn one_book_a_game_and_the_oldest_let_go() {
        let books = Books::new();
        let first = books.of(&setup(5));
        assert!(Arc::ptr_eq(&first, &books.of(&setup(5))));
        for w in 6..6 + GAMES {
            books.of(&setup(w));
        }
        // Asked about before the eight others, the 5-wide game's book was let go.
        assert!(!Arc::ptr_eq(&first, &books.of(&setup(5))));
        assert_eq!(books.kept.lock().unwrap().len(), GAMES);
    }
}
