//! The words that name a reaction class: a class of the chart (or one of
//! its aliases), or a troop type of a shipped rule set (`continentals`,
//! `militia`) read through its `reaction_class`, as the digital table reads
//! it. One lookup for `foe react --class` and the companion's units, so a
//! word one accepts the other accepts, and an unknown word gets the same
//! did-you-mean.

use crate::error::{Error, Result};
use crate::ruleset::Ruleset;
use crate::tables::Tables;
use std::sync::OnceLock;

/// The shipped rule sets whose troop types may name a class, in the order
/// they are looked in.
pub const CLASS_RULESETS: [&str; 3] = ["ohw-awi", "ruinous-victory", "ohw-acw"];

/// A troop type of a rule set that was named for a class, and the reaction
/// class it tests with there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassWord {
    /// What was typed.
    pub word: String,
    /// The rule set whose troop type it is.
    pub ruleset: String,
    /// The class it tests with (its `reaction_class`).
    pub class: String,
}

/// The reaction class `word` names, looked up in the chart and then in the
/// troop types of `rulesets` (name and rule set, in order): the chart's
/// class id, and the troop type when it was one. An unknown word is an
/// error naming the nearest of them all.
pub fn class_word<'r>(
    tables: &Tables,
    rulesets: impl IntoIterator<Item = (&'r str, &'r Ruleset)>,
    word: &str,
) -> Result<(String, Option<ClassWord>)> {
    if let Ok((id, _)) = tables.reaction.class(word) {
        return Ok((id.to_string(), None));
    }
    let lower = word.to_lowercase();
    let mut troop_names = Vec::new();
    for (name, ruleset) in rulesets {
        let mut with_class = ruleset
            .troop_types
            .iter()
            .filter_map(|troop| Some((troop.name.as_str(), troop.reaction_class.as_ref()?)));
        if let Some((_, class)) = with_class.clone().find(|(troop, _)| *troop == lower) {
            // A rule set under `--tables` may name a class the chart lacks.
            let (id, _) = tables.reaction.class(class)?;
            return Ok((
                id.to_string(),
                Some(ClassWord {
                    word: word.to_string(),
                    ruleset: name.to_string(),
                    class: class.clone(),
                }),
            ));
        }
        troop_names.extend(with_class.by_ref().map(|(troop, _)| troop.to_string()));
    }
    let mut valid = tables.reaction.class_names();
    valid.extend(troop_names.iter().map(String::as_str));
    let mut seen = std::collections::HashSet::new();
    valid.retain(|name| seen.insert(*name));
    Err(Error::unknown("troop class", word, valid))
}

/// The shipped rule sets of [`CLASS_RULESETS`], read once.
pub fn builtin_rulesets() -> &'static [(&'static str, Ruleset)] {
    static RULESETS: OnceLock<Vec<(&'static str, Ruleset)>> = OnceLock::new();
    RULESETS.get_or_init(|| {
        CLASS_RULESETS
            .iter()
            .filter_map(|name| Some((*name, Ruleset::builtin(name)?.ok()?)))
            .collect()
    })
}

/// [`class_word`] over the shipped rule sets.
pub fn builtin_class_word(tables: &Tables, word: &str) -> Result<(String, Option<ClassWord>)> {
    class_word(
        tables,
        builtin_rulesets()
            .iter()
            .map(|(name, ruleset)| (*name, ruleset)),
        word,
    )
}
