//! Reinforcements: the d100 selection of one unit from an army's table, its
//! reaction test as an encamped reserve, and whether it enters (seed 004,
//! "Reinforcements").

use crate::error::{Error, Result};
use crate::reaction::{self, Options, Outcome, Situation};
use crate::tables::{Character, Tables};
use serde::Serialize;

/// A unit called up, its reserve test, and whether it comes on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reinforcement {
    /// The army whose table was rolled on.
    pub army: String,
    /// The d100 roll.
    pub roll: u8,
    /// The troop type id called up.
    pub troop: String,
    /// The troop type in words.
    pub troop_name: String,
    /// The reaction test it took as an encamped reserve.
    pub test: Outcome,
    /// Whether it enters the table this bound.
    pub enters: bool,
    /// Where it enters (or why it stays off).
    pub entry: String,
}

/// Roll on an army's table (given d100 `roll`) and test the unit as an
/// encamped reserve with the D6 `die`.
pub fn call_up(
    tables: &Tables,
    army: &str,
    roll: u8,
    die: u8,
    character: Option<Character>,
) -> Result<Reinforcement> {
    if !(1..=100).contains(&roll) {
        return Err(Error::Invalid(format!(
            "roll must be a percentage from 1 to 100, not {roll}"
        )));
    }
    let (army_id, army_table) = tables.reinforcements.army(army)?;
    let (troop_id, troop) = tables
        .reinforcements
        .select(army_table, roll)
        .ok_or_else(|| Error::Invalid(format!("the {army_id} table has no troop for {roll}")))?;
    let test = reserve_test(tables, &troop.class, die, character)?;
    let enters = tables.reinforcements.enters(test.order);
    let entry = if enters {
        format!("enters at {}", tables.reinforcements.entry.place)
    } else {
        "stays off table, encamped".to_string()
    };
    Ok(Reinforcement {
        army: army_id.to_string(),
        roll,
        troop: troop_id.to_string(),
        troop_name: troop.name.clone(),
        test,
        enters,
        entry,
    })
}

/// The reaction test of an encamped reserve of the given class.
pub fn reserve_test(
    tables: &Tables,
    class: &str,
    die: u8,
    character: Option<Character>,
) -> Result<Outcome> {
    let reserve = &tables.reinforcements.reserve;
    let (_, class_row) = tables.reaction.class(class)?;
    let situation = Situation {
        class: class.to_string(),
        column: Some(reserve.column),
        enemy_in_sight: reserve.enemy_in_sight,
        character: if class_row.rated { character } else { None },
        formation: Some(crate::tables::Formation::default_for(class_row.kind)),
        ..Situation::default()
    };
    reaction::test(tables, &situation, Options::default(), die)
}

/// One troop type's chance of being called up and of coming on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TroopOdds {
    /// The troop type id.
    pub troop: String,
    /// The troop type in words.
    pub troop_name: String,
    /// The d100 rolls that call it up, as `[from, to]` bands.
    pub rolls: Vec<[u8; 2]>,
    /// How many of the hundred rolls call it up.
    pub chances_in_100: u32,
    /// How many faces of the D6 bring it on, once called up.
    pub enters_in_6: u32,
}

/// The exact odds of a call-up, over the d100 and the D6: each troop type
/// on the army's table in table order, with the rolls that call it and the
/// faces of the reserve test that bring it on.
pub fn odds(tables: &Tables, army: &str, character: Option<Character>) -> Result<Vec<TroopOdds>> {
    let (_, army_table) = tables.reinforcements.army(army)?;
    let mut odds: Vec<TroopOdds> = Vec::new();
    for roll in 1..=100u8 {
        let Some((troop_id, troop)) = tables.reinforcements.select(army_table, roll) else {
            continue;
        };
        if let Some(seen) = odds.iter_mut().find(|seen| seen.troop == troop_id) {
            seen.chances_in_100 += 1;
            match seen.rolls.last_mut() {
                Some(band) if band[1] + 1 == roll => band[1] = roll,
                _ => seen.rolls.push([roll, roll]),
            }
            continue;
        }
        let mut enters_in_6 = 0;
        for (face, _) in crate::dice::Die::D6.outcomes() {
            let test = reserve_test(tables, &troop.class, face, character)?;
            enters_in_6 += u32::from(tables.reinforcements.enters(test.order));
        }
        odds.push(TroopOdds {
            troop: troop_id.to_string(),
            troop_name: troop.name.clone(),
            rolls: vec![[roll, roll]],
            chances_in_100: 1,
            enters_in_6,
        });
    }
    Ok(odds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Order;

    #[test]
    fn odds_agree_with_every_call_up_over_the_d100_and_the_d6() {
        let tables = Tables::embedded();
        for army in ["french", "british"] {
            let odds = odds(&tables, army, None).unwrap();
            assert_eq!(odds.iter().map(|o| o.chances_in_100).sum::<u32>(), 100);
            for roll in 1..=100 {
                for die in 1..=6 {
                    let called = call_up(&tables, army, roll, die, None).unwrap();
                    let troop = odds.iter().find(|o| o.troop == called.troop).unwrap();
                    assert!(troop.rolls.iter().any(|[a, b]| (*a..=*b).contains(&roll)));
                }
                let called = call_up(&tables, army, roll, 1, None).unwrap();
                let troop = odds.iter().find(|o| o.troop == called.troop).unwrap();
                let entering = (1..=6)
                    .filter(|die| call_up(&tables, army, roll, *die, None).unwrap().enters)
                    .count();
                assert_eq!(troop.enters_in_6 as usize, entering, "{army} {roll}");
            }
        }
    }

    #[test]
    fn every_roll_calls_up_exactly_one_troop_for_each_army() {
        let tables = Tables::embedded();
        for army in ["french", "british"] {
            for roll in 1..=100 {
                assert!(
                    call_up(&tables, army, roll, 3, None).is_ok(),
                    "{army} {roll}"
                );
            }
        }
    }

    #[test]
    fn selection_follows_the_seed_table() {
        let tables = Tables::embedded();
        let troop = |army: &str, roll: u8| call_up(&tables, army, roll, 3, None).unwrap().troop;
        assert_eq!(troop("french", 5), "grenadiers");
        assert_eq!(troop("french", 15), "troupes-de-la-marine");
        assert_eq!(troop("french", 44), "red-indians");
        assert_eq!(troop("french", 75), "canadian-militia");
        assert_eq!(troop("british", 25), "british-line-infantry");
        assert_eq!(troop("british", 30), "light-infantry");
        assert_eq!(troop("british", 78), "provincial-militia");
        assert_eq!(troop("british", 100), "field-artillery");
    }

    #[test]
    fn advancing_reserves_enter_and_standing_ones_stay_off() {
        let tables = Tables::embedded();
        // Local militia encamped: -2 open, +3 no enemy in sight.
        let standing = call_up(&tables, "british", 80, 2, None).unwrap();
        assert_eq!(
            (standing.test.total, standing.test.order, standing.enters),
            (3, Order::StandAndFire, false)
        );
        let advancing = call_up(&tables, "british", 80, 6, None).unwrap();
        assert_eq!(
            (advancing.test.total, advancing.test.order, advancing.enters),
            (7, Order::AdvanceAndFire, true)
        );
        assert!(advancing.entry.contains("centre"));
        // Regulars: +2 open, +3 out of sight: 6 or more, always on.
        let regulars = call_up(&tables, "british", 10, 1, None).unwrap();
        assert!(regulars.enters);
    }

    #[test]
    fn a_rated_reserve_carries_its_character() {
        let tables = Tables::embedded();
        let timid = call_up(&tables, "french", 50, 4, Some(Character::Timid)).unwrap();
        assert_eq!(timid.test.total, -1 + 3 + 4 - 2);
        // Regulars have no rating: a character given for them is ignored.
        let regulars = call_up(&tables, "french", 1, 4, Some(Character::Timid)).unwrap();
        assert_eq!(regulars.test.total, 2 + 3 + 4);
    }

    #[test]
    fn bad_arguments_are_refused() {
        let tables = Tables::embedded();
        assert!(
            call_up(&tables, "french", 0, 3, None)
                .unwrap_err()
                .to_string()
                .contains("1 to 100")
        );
        assert_eq!(
            call_up(&tables, "prussian", 3, 3, None)
                .unwrap_err()
                .to_string(),
            "unknown army `prussian`; expected one of: french, british"
        );
    }
}
