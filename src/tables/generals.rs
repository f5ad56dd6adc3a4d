//! Character ratings, the generals' reaction chart, and names for rolled
//! generals (seed 004, "General officer", "General's Battlefield Position").

use super::{Character, Reaction, Trigger, check_cover};
use crate::yaml::Checker;
use indexmap::IndexMap;
use serde::Deserialize;

/// `tables/characters.yaml`: the d100 bands of character ratings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Characters {
    /// The bands, in roll order.
    pub characters: Vec<CharacterBand>,
}

/// One character's d100 band and unit factor.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterBand {
    /// Which character.
    pub id: Character,
    /// The character in words.
    pub name: String,
    /// Lowest d100 roll.
    pub from: u8,
    /// Highest d100 roll.
    pub to: u8,
    /// Added to a rated unit's reaction test.
    pub unit_factor: i32,
}

impl Characters {
    /// The character a d100 roll gives. Validation guarantees exactly one.
    pub fn roll(&self, roll: u8) -> Character {
        self.band_of_roll(roll)
            .map_or(Character::Average, |band| band.id)
    }

    /// The band a d100 roll falls in.
    pub fn band_of_roll(&self, roll: u8) -> Option<&CharacterBand> {
        self.characters
            .iter()
            .find(|band| (band.from..=band.to).contains(&roll))
    }

    /// A character's band. Validation guarantees every character has one.
    pub fn band(&self, character: Character) -> Option<&CharacterBand> {
        self.characters.iter().find(|band| band.id == character)
    }

    /// The unit factor of a character.
    pub fn unit_factor(&self, character: Character) -> i32 {
        self.band(character).map_or(0, |band| band.unit_factor)
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
        for character in Character::ALL {
            if self.band(character).is_none() {
                checker.report(
                    "characters",
                    format!("character `{}` has no band", character.id()),
                );
            }
        }
        for (index, band) in self.characters.iter().enumerate() {
            let path = format!("characters[{index}].unit_factor");
            let value = band.unit_factor.into();
            super::check_value(checker, &path, "a factor", value, super::FACTOR_RANGE);
        }
        let spans: Vec<(String, i64, i64)> = self
            .characters
            .iter()
            .enumerate()
            .map(|(index, band)| {
                (
                    format!("characters[{index}]"),
                    i64::from(band.from),
                    i64::from(band.to),
                )
            })
            .collect();
        (check_cover(checker, "character bands", &spans, 1, 100));
    }
}

/// `tables/generals.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generals {
    /// What makes a general test, in words.
    pub triggers: IndexMap<Trigger, String>,
    /// The d100 bands of reactions A–E for each character.
    pub reactions: IndexMap<Character, IndexMap<Reaction, [u8; 2]>>,
    /// What each reaction means on the table.
    pub meanings: IndexMap<Reaction, String>,
    /// The start position each reaction gives at the beginning of a game.
    pub start_positions: IndexMap<Reaction, String>,
}

impl Generals {
    /// The reaction a d100 roll gives a general of this character.
    pub fn reaction(&self, character: Character, roll: u8) -> Reaction {
        self.reactions
            .get(&character)
            .and_then(|bands| {
                bands
                    .iter()
                    .find(|(_, [from, to])| (*from..=*to).contains(&roll))
            })
            .map_or(Reaction::C, |(reaction, _)| *reaction)
    }

    /// The probability of each reaction for a character (d100 is uniform).
    pub fn odds(&self, character: Character) -> Vec<(Reaction, f64)> {
        Reaction::ALL
            .iter()
            .map(|reaction| {
                let width = self
                    .reactions
                    .get(&character)
                    .and_then(|bands| bands.get(reaction))
                    .map_or(0, |[from, to]| u32::from(*to) + 1 - u32::from(*from));
                (*reaction, f64::from(width) / 100.0)
            })
            .collect()
    }

    /// The d100 band of a reaction for a character.
    pub fn band(&self, character: Character, reaction: Reaction) -> Option<[u8; 2]> {
        self.reactions
            .get(&character)
            .and_then(|bands| bands.get(&reaction))
            .copied()
    }

    /// What a reaction means.
    pub fn meaning(&self, reaction: Reaction) -> &str {
        self.meanings.get(&reaction).map_or("", String::as_str)
    }

    /// Where a general starts for a reaction.
    pub fn start_position(&self, reaction: Reaction) -> &str {
        self.start_positions
            .get(&reaction)
            .map_or("", String::as_str)
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
        for trigger in Trigger::ALL {
            if !self.triggers.contains_key(&trigger) {
                checker.report("triggers", format!("trigger `{}` is missing", trigger.id()));
            }
        }
        for character in Character::ALL {
            match self.reactions.get(&character) {
                None => checker.report(
                    "reactions",
                    format!("character `{}` is missing", character.id()),
                ),
                Some(bands) => {
                    let spans: Vec<(String, i64, i64)> = bands
                        .iter()
                        .map(|(reaction, [from, to])| {
                            (
                                format!("reactions.{}.{}", character.id(), reaction.letter()),
                                i64::from(*from),
                                i64::from(*to),
                            )
                        })
                        .collect();
                    (check_cover(
                        checker,
                        &format!("{} reactions", character.id()),
                        &spans,
                        1,
                        100,
                    ));
                }
            }
        }
        for reaction in Reaction::ALL {
            if !self.meanings.contains_key(&reaction) {
                checker.report("meanings", format!("reaction {reaction} has no meaning"));
            }
            if !self.start_positions.contains_key(&reaction) {
                checker.report(
                    "start_positions",
                    format!("reaction {reaction} has no start position"),
                );
            }
        }
    }
}

/// `tables/names.yaml`: names for rolled generals.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    /// Ranks and surnames by nation id.
    pub nations: IndexMap<String, NationNames>,
}

/// A nation's ranks and surnames.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationNames {
    /// Ranks to choose from.
    pub ranks: Vec<String>,
    /// Surnames to choose from.
    pub names: Vec<String>,
}

impl Names {
    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
        if self.nations.is_empty() {
            checker.report("nations", "at least one nation is needed");
        }
        for (nation, names) in &self.nations {
            if names.ranks.is_empty()
                || names.names.is_empty()
                || names.names.len() > 255
                || names.ranks.len() > 255
            {
                checker.report(
                    &format!("nations.{nation}"),
                    "a nation needs 1 to 255 ranks and 1 to 255 names",
                );
            }
        }
    }
}
