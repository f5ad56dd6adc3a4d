//! The REPL words.
