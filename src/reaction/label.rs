//! Factor labels that cost no allocation when the words are fixed or come
//! from the tables.

use serde::{Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// A factor's label as a player reads it: fixed text, a table's own words
/// (shared, so a clone is a reference-count bump) or text built for one test.
///
/// It reads, prints, compares, hashes and serializes exactly as the plain
/// string it holds, whichever way it holds it.
#[derive(Clone)]
pub enum Label {
    /// Text fixed in the program.
    Static(&'static str),
    /// Text shared with the tables.
    Shared(Arc<str>),
    /// Text built for this one label.
    Owned(String),
}

impl Label {
    /// The label's text.
    pub fn as_str(&self) -> &str {
        match self {
            Label::Static(text) => text,
            Label::Shared(text) => text,
            Label::Owned(text) => text,
        }
    }
}

impl Deref for Label {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Label {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Label {
    fn eq(&self, other: &Label) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Label {}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Label {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Hash for Label {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl Serialize for Label {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Label {
        Label::Static(text)
    }
}

impl From<String> for Label {
    fn from(text: String) -> Label {
        Label::Owned(text)
    }
}

impl From<Arc<str>> for Label {
    fn from(text: Arc<str>) -> Label {
        Label::Shared(text)
    }
}

impl From<&Arc<str>> for Label {
    fn from(text: &Arc<str>) -> Label {
        Label::Shared(Arc::clone(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_prints_and_serializes_as_its_text() {
        let forms = [
            Label::from("Under half strength"),
            Label::from(String::from("Under half strength")),
            Label::from(Arc::<str>::from("Under half strength")),
        ];
        for label in &forms {
            assert_eq!(label, &forms[0]);
            assert_eq!(*label, "Under half strength");
            assert_eq!(format!("{label}"), "Under half strength");
            assert_eq!(format!("{label:<22}|"), "Under half strength   |");
            assert_eq!(format!("{label:?}"), format!("{:?}", "Under half strength"));
            assert_eq!(
                serde_json::to_string(label).unwrap(),
                "\"Under half strength\""
            );
            assert_eq!(label.chars().count(), 19);
        }
    }
}
