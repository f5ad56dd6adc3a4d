//! The Lone Warrior figure melee (seed 004, "Melee"): each side's factor is
//! its figures within 1/4" plus troop and situation factors; a D6 on the
//! casualty table gives the figures it kills. [`fight`] runs a whole melee:
//! round after round, each followed by both sides' morale checks, until a
//! side falls back, is wiped out, or the rounds run out (ruling R19).
//!
//! Pure: the caller hands in the dice ([`DieFor`] says what each is for).

use crate::error::{Error, Result};
use crate::reaction::{self, Factor, Label, Options, Situation};
use crate::tables::{Character, Column, Tables};
use serde::Serialize;

/// One side of a melee as the player describes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Side {
    /// Figures within 1/4" of the enemy.
    pub figures: u32,
    /// Troop type id (`rangers`, `line-infantry`, …), if any.
    pub troop: Option<String>,
    /// Situation ids (`charging`, `flank-or-rear`, …).
    pub situations: Vec<String>,
}

/// The casualties one side inflicts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeleeOutcome {
    /// Each part of the factor.
    pub factors: Vec<Factor>,
    /// The total factor.
    pub factor: i32,
    /// The D6.
    pub die: u8,
    /// Casualties inflicted, in figures.
    pub casualties: u32,
}

/// The factor lines and total for a side.
pub fn side_factor(tables: &Tables, side: &Side) -> Result<(Vec<Factor>, i32)> {
    round_factor(tables, side, 1)
}

/// The melee troop type `word` names: one of the melee table's (by id or
/// name), or a word `foe react --class` takes (a reaction class, or a
/// built-in battle's troop type such as `continentals`) through the
/// table's `fights_as` (ruling R21). An unknown word is the melee table's
/// error, naming the nearest troop type.
pub fn troop_word(tables: &Tables, word: &str) -> Result<String> {
    match tables.melee.troop(word) {
        Ok((id, _)) => Ok(id.to_string()),
        Err(error) => {
            let Ok((class, _)) = reaction::builtin_class_word(tables, word) else {
                return Err(error);
            };
            match tables.melee.fights_as.get(&class) {
                Some(troop) => Ok(troop.clone()),
                None => Err(Error::Invalid(format!(
                    "`{word}` (troop class `{class}`) has no melee troop type: the figure melee is for foot and horse"
                ))),
            }
        }
    }
}

/// The factor lines and total for a side in round `round` (from 1): a
/// first-round-only situation (charging) counts in the first round alone.
pub fn round_factor(tables: &Tables, side: &Side, round: u32) -> Result<(Vec<Factor>, i32)> {
    let melee = &tables.melee;
    let figures =
        i32::try_from(side.figures).map_err(|_| Error::Invalid("too many figures".into()))?;
    let mut factors = vec![Factor {
        id: "figures".into(),
        label: format!("{figures} figures within 1/4\"").into(),
        value: figures,
    }];
    if let Some(troop) = &side.troop {
        let (id, row) = melee.troop(troop)?;
        factors.push(Factor {
            id: id.to_string().into(),
            label: row.name.clone().into(),
            value: row.factor,
        });
    }
    let mut seen: Vec<&str> = Vec::new();
    for situation in &side.situations {
        let (id, row) = melee.situation(situation)?;
        if seen.contains(&id) {
            return Err(Error::Invalid(format!(
                "melee situation `{id}` given twice"
            )));
        }
        seen.push(id);
        if row.first_round_only && round > 1 {
            continue;
        }
        factors.push(Factor {
            id: id.to_string().into(),
            label: row.name.clone().into(),
            value: row.factor,
        });
    }
    // Without overflow: `--figures 2147483647 --troop rangers` reads the top row.
    let total = crate::reaction::total_of(&factors, 0);
    Ok((factors, total))
}

/// Casualties for a side, given its D6.
pub fn resolve(tables: &Tables, side: &Side, die: u8) -> Result<MeleeOutcome> {
    let (factors, factor) = side_factor(tables, side)?;
    casualties(tables, factors, factor, die)
}

/// Casualties for a bare factor, given its D6.
pub fn resolve_factor(tables: &Tables, factor: i32, die: u8) -> Result<MeleeOutcome> {
    let factors = vec![Factor {
        id: "factor".into(),
        label: Label::Static("Melee factor"),
        value: factor,
    }];
    casualties(tables, factors, factor, die)
}

fn casualties(tables: &Tables, factors: Vec<Factor>, factor: i32, die: u8) -> Result<MeleeOutcome> {
    if !(1..=6).contains(&die) {
        return Err(Error::Invalid(format!(
            "die must be a D6 roll from 1 to 6, not {die}"
        )));
    }
    Ok(MeleeOutcome {
        factors,
        factor,
        die,
        casualties: tables.melee.casualties(factor, die),
    })
}

/// One side of a whole melee: its figures and factors, and what its morale
/// test after each round needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Combatant {
    /// Figures, troop type (needed: it gives the morale test's class) and
    /// situations.
    pub side: Side,
    /// The ground it fights on: the column of its morale test (`retreat`
    /// for a side caught routing or withdrawing); open when not given.
    pub ground: Option<Column>,
    /// A general within 3".
    pub general_within_3: bool,
    /// Supporting troops within 6".
    pub support_within_6: bool,
    /// The unit's character, for rated (militia and provincial) classes.
    pub character: Option<Character>,
    /// The unit's full strength in figures, for "under half strength"; the
    /// figures it starts the melee with when not given.
    pub strength: Option<u32>,
}

/// What a die of a melee is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DieFor {
    /// The round, from 1.
    pub round: u32,
    /// The side rolling: 0 or 1, in the order the sides were given.
    pub side: usize,
    /// Casualties or morale.
    pub roll: Roll,
}

/// The two kinds of roll in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Roll {
    /// The D6 on the casualty table.
    Casualties,
    /// The D6 of the morale check.
    Morale,
}

/// One side's part in one round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundSide {
    /// Figures fighting this round.
    pub figures: u32,
    /// Its factor, die and the casualties it inflicts.
    pub strikes: MeleeOutcome,
    /// Figures it lost this round (at most the figures it had).
    pub lost: u32,
    /// Figures left after the round.
    pub left: u32,
    /// Its morale check: the reaction test of its class. None when either
    /// side was wiped out this round: the melee is over, no one checks.
    pub morale: Option<reaction::Outcome>,
    /// Whether it held (None without a check).
    pub holds: Option<bool>,
}

/// One round: both sides' casualties, then both morale checks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    /// The round, from 1.
    pub number: u32,
    /// The two sides, in the order given.
    pub sides: [RoundSide; 2],
}

/// Why a melee ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum End {
    /// One side failed its morale check and falls back; the other held.
    Broke {
        /// The side that fell back.
        side: usize,
    },
    /// Both failed their morale checks: both fall back.
    BothBroke,
    /// One side lost its last figure.
    WipedOut {
        /// The side wiped out.
        side: usize,
    },
    /// Both lost their last figures in the same round.
    BothWipedOut,
    /// Both held through the last round the table allows (a house rule):
    /// broken off undecided.
    RoundsRanOut {
        /// The rounds fought.
        rounds: u32,
    },
}

impl End {
    /// The side that won, if one did.
    pub fn winner(self) -> Option<usize> {
        match self {
            End::Broke { side } | End::WipedOut { side } => Some(1 - side),
            End::BothBroke | End::BothWipedOut | End::RoundsRanOut { .. } => None,
        }
    }
}

/// A whole melee, round by round.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Melee {
    /// Every round fought.
    pub rounds: Vec<Round>,
    /// Why it ended.
    pub end: End,
    /// The side that won (0 or 1), if one did.
    pub winner: Option<usize>,
}

/// Check both sides against the tables (names, figures, the morale test's
/// class and character) without rolling: what [`fight`] would refuse.
pub fn check(tables: &Tables, sides: &[Combatant; 2]) -> Result<()> {
    for combatant in sides {
        round_factor(tables, &combatant.side, 1)?;
        if let Some(strength) = combatant.strength
            && strength < combatant.side.figures
        {
            return Err(Error::Invalid(format!(
                "a unit's strength ({strength} figures) cannot be less than the {} figures it fights with",
                combatant.side.figures
            )));
        }
        let situation = morale_situation(tables, combatant, 0, 0, false)?;
        reaction::modifiers(tables, &situation, Options::default())?;
    }
    Ok(())
}

/// Fight a whole melee (seed 004: "After each melee, both sides check
/// morale. If both hold, they fight again"; ruling R19). `die` gives each
/// D6, in this order every round: side 0's casualties, side 1's
/// casualties, side 0's morale, side 1's morale. Everything is checked
/// before the first die is asked for.
pub fn fight(
    tables: &Tables,
    sides: &[Combatant; 2],
    mut die: impl FnMut(DieFor) -> Result<u8>,
) -> Result<Melee> {
    check(tables, sides)?;
    let mut roll = |round: u32, side: usize, roll: Roll| -> Result<u8> {
        let face = die(DieFor { round, side, roll })?;
        if (1..=6).contains(&face) {
            Ok(face)
        } else {
            Err(Error::Invalid(format!(
                "die must be a D6 roll from 1 to 6, not {face}"
            )))
        }
    };
    let mut figures = [sides[0].side.figures, sides[1].side.figures];
    let mut rounds = Vec::new();
    let max = tables.melee.rounds.max;
    for number in 1..=max {
        let mut strikes = Vec::with_capacity(2);
        for (index, combatant) in sides.iter().enumerate() {
            let side = Side {
                figures: figures[index],
                ..combatant.side.clone()
            };
            let (factors, factor) = round_factor(tables, &side, number)?;
            let face = roll(number, index, Roll::Casualties)?;
            strikes.push(casualties(tables, factors, factor, face)?);
        }
        // Each side loses what the other inflicts, down to its last figure.
        let lost = [
            strikes[1].casualties.min(figures[0]),
            strikes[0].casualties.min(figures[1]),
        ];
        let left = [figures[0] - lost[0], figures[1] - lost[1]];
        let mut morale = [None, None];
        let mut holds = [None, None];
        if left[0] > 0 && left[1] > 0 {
            for (index, combatant) in sides.iter().enumerate() {
                // A round lost: more figures lost than the enemy lost.
                let lost_round = lost[index] > lost[1 - index];
                let situation =
                    morale_situation(tables, combatant, lost[index], left[index], lost_round)?;
                let face = roll(number, index, Roll::Morale)?;
                let outcome = reaction::test(tables, &situation, Options::default(), face)?;
                holds[index] = Some(tables.melee.holds(outcome.order));
                morale[index] = Some(outcome);
            }
        }
        let [strikes_0, strikes_1]: [MeleeOutcome; 2] = strikes
            .try_into()
            .map_err(|_| Error::Invalid("a melee round needs two sides".into()))?;
        let [morale_0, morale_1] = morale;
        rounds.push(Round {
            number,
            sides: [
                RoundSide {
                    figures: figures[0],
                    strikes: strikes_0,
                    lost: lost[0],
                    left: left[0],
                    morale: morale_0,
                    holds: holds[0],
                },
                RoundSide {
                    figures: figures[1],
                    strikes: strikes_1,
                    lost: lost[1],
                    left: left[1],
                    morale: morale_1,
                    holds: holds[1],
                },
            ],
        });
        let end = match (left, holds) {
            ([0, 0], _) => Some(End::BothWipedOut),
            ([0, _], _) => Some(End::WipedOut { side: 0 }),
            ([_, 0], _) => Some(End::WipedOut { side: 1 }),
            (_, [Some(false), Some(false)]) => Some(End::BothBroke),
            (_, [Some(false), _]) => Some(End::Broke { side: 0 }),
            (_, [_, Some(false)]) => Some(End::Broke { side: 1 }),
            _ => None,
        };
        if let Some(end) = end {
            return Ok(Melee {
                rounds,
                end,
                winner: end.winner(),
            });
        }
        figures = left;
    }
    let end = End::RoundsRanOut { rounds: max };
    Ok(Melee {
        rounds,
        end,
        winner: end.winner(),
    })
}

/// The reaction-test situation of a side's morale check after a round in
/// which it lost `lost` figures and has `left` (ruling R19): its class's
/// test on its ground, the enemy in contact (within 6"), the figures lost
/// that round, a lost round as a lost melee, under half strength, and its
/// general, support and character.
fn morale_situation(
    tables: &Tables,
    combatant: &Combatant,
    lost: u32,
    left: u32,
    lost_round: bool,
) -> Result<Situation> {
    let troop = combatant.side.troop.as_deref().ok_or_else(|| {
        Error::Invalid(
            "a side of a whole melee needs its troop type: the morale check is its class's reaction test"
                .into(),
        )
    })?;
    let (_, row) = tables.melee.troop(troop)?;
    let class = row.class.clone().ok_or_else(|| {
        Error::Invalid(format!("melee troop type `{troop}` has no reaction class"))
    })?;
    let strength = combatant.strength.unwrap_or(combatant.side.figures);
    Ok(Situation {
        class,
        column: Some(combatant.ground.unwrap_or(Column::Open)),
        enemy_in_sight: true,
        enemy_distance: Some(0.0),
        general_within_3: combatant.general_within_3,
        support_within_6: combatant.support_within_6,
        lost_melee: lost_round,
        casualties: lost,
        under_half: u64::from(left) * 2 < u64::from(strength),
        character: combatant.character,
        ..Situation::default()
    })
}

/// The exact chance of each number of casualties a factor inflicts over the
/// D6: `(casualties, faces)`, fewest casualties first, faces out of six.
pub fn odds(tables: &Tables, factor: i32) -> Vec<(u32, u32)> {
    let mut odds: Vec<(u32, u32)> = Vec::new();
    for (face, _) in crate::dice::Die::D6.outcomes() {
        let casualties = tables.melee.casualties(factor, face);
        match odds.iter_mut().find(|(seen, _)| *seen == casualties) {
            Some((_, faces)) => *faces += 1,
            None => odds.push((casualties, 1)),
        }
    }
    odds.sort_unstable();
    odds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_enumerate_every_face_of_the_d6() {
        let tables = Tables::embedded();
        let odds = odds(&tables, 13);
        assert_eq!(odds.iter().map(|(_, faces)| faces).sum::<u32>(), 6);
        for (casualties, faces) in &odds {
            let counted = (1..=6)
                .filter(|die| tables.melee.casualties(13, *die) == *casualties)
                .count();
            assert_eq!(counted, *faces as usize, "{casualties}");
        }
    }

    #[test]
    fn a_charging_ranger_band_reads_the_table() {
        let tables = Tables::embedded();
        let side = Side {
            figures: 8,
            troop: Some("rangers".into()),
            situations: vec!["charging".into()],
        };
        let outcome = resolve(&tables, &side, 5).unwrap();
        assert_eq!(outcome.factor, 8 + 3 + 2);
        assert_eq!(outcome.casualties, 3);
        assert_eq!(outcome.factors.len(), 3);
    }

    #[test]
    fn routing_troops_lose_two() {
        let tables = Tables::embedded();
        let side = Side {
            figures: 3,
            troop: Some("local-militia".into()),
            situations: vec!["routing-or-withdrawing".into()],
        };
        let outcome = resolve(&tables, &side, 6).unwrap();
        assert_eq!((outcome.factor, outcome.casualties), (1, 1));
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let tables = Tables::embedded();
        let side = Side {
            figures: 3,
            troop: Some("ranger".into()),
            situations: vec![],
        };
        assert_eq!(
            resolve(&tables, &side, 3).unwrap_err().to_string(),
            "unknown melee troop type `ranger`; did you mean `rangers`?"
        );
        assert!(resolve_factor(&tables, 5, 0).is_err());
    }

    /// `foe melee --troop` takes `foe react --class`'s words too (R21).
    #[test]
    fn a_class_word_names_the_troop_type_it_fights_as() {
        let tables = Tables::embedded();
        for (word, troop) in [
            ("line-infantry", "line-infantry"),
            ("Line Infantry", "line-infantry"),
            ("grenadiers", "grenadiers"),
            ("british-regulars", "line-infantry"),
            ("continentals", "line-infantry"),
            ("militia", "local-militia"),
            ("indians", "canadian-militia"),
            ("light-cavalry", "light-cavalry"),
        ] {
            assert_eq!(troop_word(&tables, word).unwrap(), troop, "{word}");
        }
        let guns = troop_word(&tables, "artillery").unwrap_err().to_string();
        assert!(guns.contains("has no melee troop type"), "{guns}");
        let typo = troop_word(&tables, "ranger").unwrap_err().to_string();
        assert!(typo.contains("did you mean `rangers`"), "{typo}");
    }

    /// The figures and factors were summed in `i32`,
    /// so the largest figure count wrapped round to a negative factor.
    #[test]
    fn huge_figure_counts_read_the_top_row_instead_of_wrapping() {
        let tables = Tables::embedded();
        let side = Side {
            figures: i32::MAX as u32,
            troop: Some("rangers".into()),
            situations: vec!["charging".into()],
        };
        let outcome = resolve(&tables, &side, 6).unwrap();
        assert_eq!(outcome.factor, i32::MAX);
        assert_eq!(outcome.casualties, 4);
    }
    /// Dice handed out in order; a test that asks for one more fails.
    fn dice(faces: &[u8]) -> impl FnMut(DieFor) -> Result<u8> + '_ {
        let mut faces = faces.iter();
        move |for_| {
            faces
                .next()
                .copied()
                .ok_or_else(|| Error::Invalid(format!("no die left for {for_:?}")))
        }
    }

    fn combatant(figures: u32, troop: &str, situations: &[&str]) -> Combatant {
        Combatant {
            side: Side {
                figures,
                troop: Some(troop.into()),
                situations: situations.iter().map(|s| (*s).to_string()).collect(),
            },
            ..Combatant::default()
        }
    }

    fn ids(factors: &[Factor]) -> Vec<&str> {
        factors.iter().map(|factor| &*factor.id).collect()
    }

    /// Round 1: charging rangers (8 + 3 + 2 = 13) roll 5, 3 casualties;
    /// the line (8 + 2) rolls 1, none. Both hold (rangers -1 + 6; the line
    /// +2 -1 -3 lost -2 lost melee + 6 = 2). Round 2: the rangers fight
    /// without the charge (8 + 3 = 11), the line with 5 figures (7): 2
    /// casualties each; the line, now 3 of 8 (under half), breaks.
    #[test]
    fn both_hold_so_they_fight_again_and_charging_counts_in_the_first_round_only() {
        let tables = Tables::embedded();
        let sides = [
            combatant(8, "rangers", &["charging"]),
            combatant(8, "line-infantry", &[]),
        ];
        let melee = fight(&tables, &sides, dice(&[5, 1, 6, 6, 6, 6, 6, 6])).unwrap();
        assert_eq!(melee.rounds.len(), 2);
        let [first, second] = [&melee.rounds[0], &melee.rounds[1]];
        assert_eq!(first.sides[0].strikes.factor, 13);
        assert!(ids(&first.sides[0].strikes.factors).contains(&"charging"));
        assert_eq!(second.sides[0].strikes.factor, 11);
        assert!(!ids(&second.sides[0].strikes.factors).contains(&"charging"));
        assert_eq!((first.sides[1].lost, first.sides[1].left), (3, 5));
        assert_eq!(
            [first.sides[0].holds, first.sides[1].holds],
            [Some(true), Some(true)]
        );
        let line_morale = first.sides[1].morale.as_ref().unwrap();
        assert_eq!(line_morale.total, 2);
        assert!(ids(&line_morale.factors).contains(&"lost-melee"));
        assert_eq!(second.sides[1].figures, 5);
        assert_eq!(second.sides[1].strikes.factor, 7);
        assert_eq!([second.sides[0].lost, second.sides[1].lost], [2, 2]);
        let broken = second.sides[1].morale.as_ref().unwrap();
        assert!(ids(&broken.factors).contains(&"under-half"));
        assert!(
            !ids(&broken.factors).contains(&"lost-melee"),
            "2 for 2 is no loss"
        );
        assert_eq!(broken.order, crate::tables::Order::Withdraw);
        assert_eq!(second.sides[1].holds, Some(false));
        assert_eq!(melee.end, End::Broke { side: 1 });
        assert_eq!(melee.winner, Some(0));
    }

    #[test]
    fn the_dice_come_casualties_first_then_morale_side_by_side() {
        let tables = Tables::embedded();
        let sides = [combatant(8, "rangers", &[]), combatant(8, "rangers", &[])];
        let mut asked = Vec::new();
        let melee = fight(&tables, &sides, |for_| {
            asked.push((for_.round, for_.side, for_.roll));
            // 11 with a 3 kills one; a ranger in the open that lost a figure
            // and rolls 1 for morale withdraws (0 - 1 - 1 + 1 = -1).
            Ok(if for_.roll == Roll::Morale { 1 } else { 3 })
        })
        .unwrap();
        assert_eq!(
            asked,
            [
                (1, 0, Roll::Casualties),
                (1, 1, Roll::Casualties),
                (1, 0, Roll::Morale),
                (1, 1, Roll::Morale),
            ]
        );
        assert_eq!(melee.end, End::BothBroke);
        assert_eq!(melee.winner, None);
    }

    #[test]
    fn a_side_that_fails_its_morale_check_ends_the_melee_at_once() {
        let tables = Tables::embedded();
        let sides = [combatant(8, "rangers", &[]), combatant(8, "rangers", &[])];
        // No casualties (11 with a 1); side 0 holds on 6, side 1 breaks on 1.
        let melee = fight(&tables, &sides, dice(&[1, 1, 6, 1])).unwrap();
        assert_eq!(melee.rounds.len(), 1);
        let morale = melee.rounds[0].sides[1].morale.as_ref().unwrap();
        assert_eq!(morale.order, crate::tables::Order::FireAndWithdraw);
        assert_eq!(melee.end, End::Broke { side: 1 });
        assert_eq!(melee.winner, Some(0));
    }

    #[test]
    fn a_side_wiped_out_loses_without_a_morale_check() {
        let tables = Tables::embedded();
        let sides = [
            combatant(2, "local-militia", &[]),
            combatant(10, "grenadiers", &[]),
        ];
        // Grenadiers at 13 roll 6: 3 casualties on 2 militia. No morale dice.
        let melee = fight(&tables, &sides, dice(&[1, 6])).unwrap();
        let round = &melee.rounds[0];
        assert_eq!((round.sides[0].lost, round.sides[0].left), (2, 0));
        assert_eq!([round.sides[0].holds, round.sides[1].holds], [None, None]);
        assert_eq!(melee.end, End::WipedOut { side: 0 });
        assert_eq!(melee.winner, Some(1));
    }

    /// Rangers behind hard cover (+2, enemy within 6" -2) that roll 1 for
    /// casualties (4 + 3 = 7 reads 0) and 1 for morale (total 1, stand and
    /// fire) hold for ever; the table's cap ends it, undecided.
    #[test]
    fn the_rounds_run_out_at_the_tables_cap() {
        let mut tables = Tables::embedded();
        let sides = [
            Combatant {
                ground: Some(Column::Hard),
                ..combatant(4, "rangers", &[])
            },
            Combatant {
                ground: Some(Column::Hard),
                ..combatant(4, "rangers", &[])
            },
        ];
        let max = tables.melee.rounds.max;
        let faces = vec![1; 4 * max as usize];
        let melee = fight(&tables, &sides, dice(&faces)).unwrap();
        assert_eq!(melee.rounds.len(), max as usize);
        assert_eq!(melee.end, End::RoundsRanOut { rounds: max });
        assert_eq!(melee.winner, None);
        tables.melee.rounds.max = 2;
        let melee = fight(&tables, &sides, dice(&faces)).unwrap();
        assert_eq!(melee.end, End::RoundsRanOut { rounds: 2 });
    }

    #[test]
    fn a_whole_melee_is_checked_before_any_die() {
        let tables = Tables::embedded();
        let no_die = |_| -> Result<u8> { panic!("no die should be asked for") };
        let mut sides = [combatant(4, "rangers", &[]), combatant(4, "rangers", &[])];
        sides[1].side.troop = None;
        let error = fight(&tables, &sides, no_die).unwrap_err().to_string();
        assert!(error.contains("needs its troop type"), "{error}");
        sides[1] = combatant(4, "rangrs", &[]);
        let error = fight(&tables, &sides, no_die).unwrap_err().to_string();
        assert!(error.contains("did you mean `rangers`"), "{error}");
        sides[1] = Combatant {
            character: Some(Character::Rash),
            ..combatant(4, "rangers", &[])
        };
        let error = fight(&tables, &sides, no_die).unwrap_err().to_string();
        assert!(error.contains("no character rating"), "{error}");
        sides[1] = combatant(4, "rangers", &[]);
        let error = fight(&tables, &sides, dice(&[7])).unwrap_err().to_string();
        assert_eq!(error, "die must be a D6 roll from 1 to 6, not 7");
    }

    #[test]
    fn troop_names_read_in_any_case_and_spacing() {
        let tables = Tables::embedded();
        for name in ["line-infantry", "Line Infantry", "LINE_INFANTRY"] {
            assert_eq!(
                tables.melee.troop(name).unwrap().0,
                "line-infantry",
                "{name}"
            );
        }
        assert_eq!(
            tables
                .melee
                .situation("Charging (first round only)")
                .unwrap()
                .0,
            "charging"
        );
    }

    /// A side of `u32::MAX` figures reads the top row for ever: it still
    /// ends, at the latest when the rounds run out.
    #[test]
    fn huge_sides_still_end() {
        let tables = Tables::embedded();
        let sides = [
            combatant(i32::MAX as u32, "rangers", &[]),
            combatant(i32::MAX as u32, "rangers", &[]),
        ];
        let melee = fight(&tables, &sides, |_| Ok(6)).unwrap();
        assert!(melee.rounds.len() <= tables.melee.rounds.max as usize);
    }
}
