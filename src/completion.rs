//! Tab completion's shared words, for every prompt: a choice, a prompt's
//! own grammar, the word the cursor is in, and the words that begin with
//! what is typed. The prompt's grammar (`host::complete`) builds on them.
//! Pure.

/// One choice: what replaces the word being typed, and what the list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The text put on the line.
    pub replacement: String,
    /// The text shown in the list of choices.
    pub display: String,
}

impl Choice {
    /// A word that is put on the line as it is shown.
    pub fn word(word: &str) -> Choice {
        Choice {
            replacement: word.to_string(),
            display: word.to_string(),
        }
    }
}

/// A prompt's grammar (`host::complete`): what the line editor completes
/// by.
pub trait Grammar: std::fmt::Debug + Send + Sync {
    /// The choices for the word the cursor is in: where that word begins,
    /// and what may replace it.
    fn complete(&self, line: &str, cursor: usize) -> (usize, Vec<Choice>);
}

/// The line up to the cursor (a cursor past the end or inside a character
/// is taken at the end), and where the word the cursor is in begins.
pub fn word_at(line: &str, cursor: usize) -> (&str, usize) {
    let cursor = cursor.min(line.len());
    let before = line.get(..cursor).unwrap_or(line);
    // After the whole space character: some are more than a byte.
    let start = before
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(0, |(at, space)| at + space.len_utf8());
    (before, start)
}

/// The words of `list` that begin with `typed` (ignoring case), as choices.
pub fn beginning_with(list: &[&str], typed: &str) -> Vec<Choice> {
    let lower = typed.to_lowercase();
    list.iter()
        .filter(|word| word.to_lowercase().starts_with(&lower))
        .map(|word| Choice::word(word))
        .collect()
}
