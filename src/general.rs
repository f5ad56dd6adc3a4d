//! General officers of the programmed opponent: rolling a personality, and
//! the reaction test a general takes when a trigger occurs (seed 004,
//! "General officer" and "General's Battlefield Position").
//!
//! Pure: rolls come from the [`Roller`] passed in, or are given.

use crate::dice::{Die, Roller};
use crate::error::{Error, Result};
use crate::tables::{Character, Reaction, Tables, Trigger};
use serde::Serialize;

/// A rolled general: name, character and start position, with the rolls.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct General {
    /// Rank and surname.
    pub name: String,
    /// The nation the name was drawn from.
    pub nation: String,
    /// The d100 roll for character.
    pub roll: u8,
    /// The character it gives.
    pub character: Character,
    /// The chance of each reaction A–E for this character.
    pub reaction_odds: Vec<(Reaction, f64)>,
    /// The d100 roll on the reaction chart for the start position.
    pub start_roll: u8,
    /// The reaction letter that roll gives.
    pub start: Reaction,
    /// Where the general starts, in words.
    pub start_position: String,
}

/// Roll a general for a nation: a name, a character (d100), and a start
/// position (d100 on the reaction chart for that character).
pub fn roll_general(tables: &Tables, nation: &str, roller: &mut dyn Roller) -> Result<General> {
    let (nation_id, names) =
        match crate::suggest::resolve(nation, tables.names.nations.keys().map(String::as_str)) {
            Ok(id) => (id, &tables.names.nations[id]),
            Err(_) => {
                return Err(Error::unknown(
                    "nation",
                    nation,
                    tables.names.nations.keys().map(String::as_str),
                ));
            }
        };
    // Names are flavour, not rules: a d100 roll reduced to the list length.
    let rank_roll = roller.roll_for(Die::D100, format_args!("the general's rank"));
    let rank = &names.ranks[usize::from(rank_roll - 1) % names.ranks.len()];
    let name_roll = roller.roll_for(Die::D100, format_args!("the general's name"));
    let surname = &names.names[usize::from(name_roll - 1) % names.names.len()];
    let roll = roller.roll_for(Die::D100, format_args!("the general's character"));
    let character = tables.characters.roll(roll);
    let start_roll = roller.roll_for(Die::D100, format_args!("the general's start position"));
    let start = tables.generals.reaction(character, start_roll);
    Ok(General {
        name: format!("{rank} {surname}"),
        nation: nation_id.to_string(),
        roll,
        character,
        reaction_odds: tables.generals.odds(character),
        start_roll,
        start,
        start_position: tables.generals.start_position(start).to_string(),
    })
}

/// A general's reaction to a trigger, with the roll and what it means.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GeneralReaction {
    /// The general's character.
    pub character: Character,
    /// What made him test, if given.
    pub trigger: Option<Trigger>,
    /// The d100 roll.
    pub roll: u8,
    /// The reaction it gives.
    pub reaction: Reaction,
    /// The band of rolls that gives this reaction for this character.
    pub band: [u8; 2],
    /// What he does.
    pub meaning: String,
    /// Whether the reaction orders up reinforcements (D).
    pub orders_reinforcements: bool,
    /// Whether he rides to the rear (E).
    pub rides_to_rear: bool,
}

/// Take a general's reaction test with a given d100 roll.
pub fn react(
    tables: &Tables,
    character: Character,
    trigger: Option<Trigger>,
    roll: u8,
) -> Result<GeneralReaction> {
    if !Die::D100.is_face(roll) {
        return Err(Error::Invalid(format!(
            "roll must be a percentage from 1 to 100, not {roll}"
        )));
    }
    let reaction = tables.generals.reaction(character, roll);
    Ok(GeneralReaction {
        character,
        trigger,
        roll,
        reaction,
        band: tables
            .generals
            .band(character, reaction)
            .unwrap_or([roll, roll]),
        meaning: tables.generals.meaning(reaction).to_string(),
        orders_reinforcements: reaction == Reaction::D,
        rides_to_rear: reaction == Reaction::E,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Scripted;

    #[test]
    fn reactions_follow_the_chart_at_every_band_edge() {
        let tables = Tables::embedded();
        let check = |character: Character, roll: u8, expected: Reaction| {
            assert_eq!(
                react(&tables, character, None, roll).unwrap().reaction,
                expected,
                "{character} {roll}"
            );
        };
        check(Character::Rash, 35, Reaction::A);
        check(Character::Rash, 36, Reaction::B);
        check(Character::Rash, 95, Reaction::D);
        check(Character::Rash, 96, Reaction::E);
        check(Character::Brave, 30, Reaction::A);
        check(Character::Brave, 90, Reaction::D);
        check(Character::Average, 60, Reaction::C);
        check(Character::Average, 81, Reaction::E);
        check(Character::Cautious, 50, Reaction::C);
        check(Character::Cautious, 51, Reaction::D);
        check(Character::Timid, 10, Reaction::A);
        check(Character::Timid, 71, Reaction::E);
    }

    #[test]
    fn reaction_odds_sum_to_one_for_every_character() {
        let tables = Tables::embedded();
        for character in Character::ALL {
            let sum: f64 = tables.generals.odds(character).iter().map(|(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{character}");
        }
        let timid = tables.generals.odds(Character::Timid);
        assert!(
            (timid[4].1 - 0.30).abs() < 1e-9,
            "timid rides to the rear on 71-100"
        );
    }

    #[test]
    fn a_rolled_general_uses_the_rolls_in_order() {
        let tables = Tables::embedded();
        // rank, surname, character roll, start roll
        let mut dice = Scripted::new([1, 2, 96, 100]);
        let general = roll_general(&tables, "fr", &mut dice).unwrap();
        assert_eq!(general.name, "Colonel Dumas");
        assert_eq!(general.nation, "french");
        assert_eq!((general.roll, general.character), (96, Character::Timid));
        assert_eq!((general.start_roll, general.start), (100, Reaction::E));
        assert!(general.start_position.contains("baseline"));
    }

    #[test]
    fn reaction_d_orders_reinforcements_and_e_rides_to_the_rear() {
        let tables = Tables::embedded();
        let d = react(
            &tables,
            Character::Average,
            Some(Trigger::OwnTroopsWithdrawing),
            70,
        )
        .unwrap();
        assert!(d.orders_reinforcements && !d.rides_to_rear);
        assert_eq!(d.band, [61, 80]);
        let e = react(&tables, Character::Average, None, 100).unwrap();
        assert!(e.rides_to_rear);
    }

    #[test]
    fn bad_rolls_and_nations_are_refused() {
        let tables = Tables::embedded();
        assert_eq!(
            react(&tables, Character::Rash, None, 0)
                .unwrap_err()
                .to_string(),
            "roll must be a percentage from 1 to 100, not 0"
        );
        let mut dice = Scripted::new([]);
        assert_eq!(
            roll_general(&tables, "prussian", &mut dice)
                .unwrap_err()
                .to_string(),
            "unknown nation `prussian`; expected one of: french, british, american"
        );
    }
}
