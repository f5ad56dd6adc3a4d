//! The one error type of foe's edges: every failure a user can cause, with
//! the facts needed to say what was expected in one line.

use crate::yaml::Problems;
use std::path::PathBuf;

/// Everything that can go wrong outside the pure core.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A name (troop class, character, scenario, unit…) that foe does not know.
    #[error("unknown {kind} `{name}`{hint}")]
    UnknownName {
        /// What sort of name it was, e.g. `troop class`.
        kind: &'static str,
        /// What the user typed.
        name: String,
        /// `; did you mean `x`?`, `; expected one of …`, or empty.
        hint: String,
    },
    /// A value outside the range the rules allow.
    #[error("{0}")]
    Invalid(String),
    /// One or more located problems in YAML files.
    #[error("{0}")]
    Problems(#[from] Problems),
    /// A file could not be read or written.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// `read`, `write`, …
        action: &'static str,
        /// The file concerned.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl Error {
    /// An unknown name, with the nearest valid one suggested (or the list of valid ones).
    pub fn unknown<'a>(
        kind: &'static str,
        name: &str,
        valid: impl IntoIterator<Item = &'a str>,
    ) -> Error {
        let valid: Vec<&str> = valid.into_iter().collect();
        let hint = match crate::suggest::nearest(name, valid.iter().copied()) {
            Some(nearest) => format!("; did you mean `{nearest}`?"),
            None => format!("; expected one of: {}", valid.join(", ")),
        };
        Error::UnknownName {
            kind,
            name: name.to_string(),
            hint,
        }
    }
}

/// foe's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
