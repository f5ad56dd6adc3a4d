//! The Lone Warrior figure melee (seed 004, "Melee"): each side's factor is
//! its figures within 1/4" plus troop and situation factors; a D6 on the
//! casualty table gives the figures it kills.

use crate::error::{Error, Result};
use crate::reaction::{Factor, Label};
use crate::tables::Tables;
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
    let melee = &tables.melee;
    let figures =
        i32::try_from(side.figures).map_err(|_| Error::Invalid("too many figures".into()))?;
    let mut factors = vec![Factor {
        id: "figures".into(),
        label: format!("{figures} figures within 1/4\"").into(),
        value: figures,
    }];
    if let Some(troop) = &side.troop {
        let (id, row) = melee.troops.get_key_value(troop.as_str()).ok_or_else(|| {
            Error::unknown(
                "melee troop type",
                troop,
                melee.troops.keys().map(String::as_str),
            )
        })?;
        factors.push(Factor {
            id: id.clone().into(),
            label: row.name.clone().into(),
            value: row.factor,
        });
    }
    for situation in &side.situations {
        let (id, row) = melee
            .situations
            .get_key_value(situation.as_str())
            .ok_or_else(|| {
                Error::unknown(
                    "melee situation",
                    situation,
                    melee.situations.keys().map(String::as_str),
                )
            })?;
        if factors.iter().any(|factor| factor.id == *id) {
            return Err(Error::Invalid(format!(
                "melee situation `{id}` given twice"
            )));
        }
        factors.push(Factor {
            id: id.clone().into(),
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
}
