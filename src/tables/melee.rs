//! The Lone Warrior figure melee: factors and the casualty table
//! (seed 004, "Melee").

use super::{FACTOR_RANGE, MAX_TABLE_VALUE, Order, ReactionChart, check_value};
use crate::error::{Error, Result};
use crate::yaml::Checker;

/// The most figures one melee row may kill.
pub const MAX_FIGURES: u32 = 1000;

/// The most rounds a table may allow one melee (each round is two dice of
/// casualties and two morale tests: a table asking for more is a typo).
pub const MAX_ROUNDS: u32 = 100;
use indexmap::IndexMap;
use serde::Deserialize;
use std::collections::BTreeMap;

/// `tables/melee.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeTable {
    /// Troop-type factors.
    pub troops: IndexMap<String, MeleeFactor>,
    /// Situation factors.
    pub situations: IndexMap<String, MeleeFactor>,
    /// The die value of each casualty column, in file order.
    pub die_columns: Vec<u8>,
    /// Casualties by factor, one value per die column.
    pub casualties: BTreeMap<i32, Vec<u32>>,
    /// How rounds follow one another: the morale check after each.
    pub rounds: Rounds,
    /// The troop type each reaction class fights as, so a class word
    /// (`foe react --class`) names a melee troop type too (ruling R21).
    #[serde(default)]
    pub fights_as: IndexMap<String, String>,
}

/// "After each melee, both sides check morale. If both hold, they fight
/// again." (ruling R19).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rounds {
    /// The reaction-test orders on which a side holds; any other falls back.
    pub holds_on: Vec<Order>,
    /// The most rounds one melee lasts (a house rule).
    pub max: u32,
    /// Why `max` is what it is: the seed gives no cap.
    pub house_rule: String,
}

/// A named melee factor.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeFactor {
    /// In words.
    pub name: String,
    /// Added to the side's total.
    pub factor: i32,
    /// The reaction class a troop type takes its morale test with (troop
    /// types only).
    #[serde(default)]
    pub class: Option<String>,
    /// The factor counts in the first round only ("Charging Troops (first
    /// round only)").
    #[serde(default)]
    pub first_round_only: bool,
}

impl MeleeTable {
    /// The highest factor the table has a row for.
    pub fn max_factor(&self) -> i32 {
        self.casualties.keys().next_back().copied().unwrap_or(0)
    }

    /// Casualties in figures for a total factor and a D6. Factors above the
    /// table read its top row; factors of 0 or less inflict none (rulings).
    pub fn casualties(&self, factor: i32, die: u8) -> u32 {
        if factor <= 0 {
            return 0;
        }
        let row = factor.min(self.max_factor());
        let column = self.die_columns.iter().position(|value| *value == die);
        match (self.casualties.get(&row), column) {
            (Some(values), Some(column)) => values.get(column).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The troop type `name` names: its id (`rangers`) or its name, in any
    /// case and spacing (`Line Infantry`, `line_infantry`); else an error
    /// naming the nearest.
    pub fn troop(&self, name: &str) -> Result<(&str, &MeleeFactor)> {
        find(&self.troops, "melee troop type", name)
    }

    /// The situation `name` names, read as [`MeleeTable::troop`] reads a
    /// troop type.
    pub fn situation(&self, name: &str) -> Result<(&str, &MeleeFactor)> {
        find(&self.situations, "melee situation", name)
    }

    /// Whether a side whose morale test gave `order` holds.
    pub fn holds(&self, order: Order) -> bool {
        self.rounds.holds_on.contains(&order)
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>, chart: Option<&ReactionChart>) {
        for (id, troop) in &self.troops {
            let path = format!("troops.{id}.class");
            match (&troop.class, chart) {
                (None, _) => checker.report(
                    &path,
                    "a troop type needs the reaction class it takes its morale test with",
                ),
                (Some(class), Some(chart)) if chart.class(class).is_err() => checker.report(
                    &path,
                    format!(
                        "unknown troop class `{class}`{}",
                        crate::suggest::did_you_mean(class, chart.class_names())
                    ),
                ),
                _ => {}
            }
            if troop.first_round_only {
                checker.report(
                    &format!("troops.{id}.first_round_only"),
                    "first_round_only is for situations",
                );
            }
        }
        for (id, situation) in &self.situations {
            if situation.class.is_some() {
                checker.report(
                    &format!("situations.{id}.class"),
                    "a class is for troop types",
                );
            }
        }
        for (class, troop) in &self.fights_as {
            if let Some(chart) = chart
                && chart.class(class).is_err()
            {
                checker.report(
                    &format!("fights_as.{class}"),
                    format!(
                        "unknown troop class `{class}`{}",
                        crate::suggest::did_you_mean(class, chart.class_names())
                    ),
                );
            }
            if !self.troops.contains_key(troop) {
                checker.report(
                    &format!("fights_as.{class}"),
                    format!(
                        "unknown melee troop type `{troop}`{}",
                        crate::suggest::did_you_mean(troop, self.troops.keys().map(String::as_str))
                    ),
                );
            }
        }
        if self.rounds.holds_on.is_empty() {
            checker.report("rounds.holds_on", "name at least one order that holds");
        }
        if !(1..=MAX_ROUNDS).contains(&self.rounds.max) {
            checker.report(
                "rounds.max",
                format!(
                    "a melee lasts 1 to {MAX_ROUNDS} rounds, not {}",
                    self.rounds.max
                ),
            );
        }
        let mut dice = self.die_columns.clone();
        dice.sort_unstable();
        if dice != [1, 2, 3, 4, 5, 6] {
            checker.report("die_columns", "die_columns must list each face 1-6 once");
        }
        for (kind, factors) in [("troops", &self.troops), ("situations", &self.situations)] {
            for (id, row) in factors {
                let path = format!("{kind}.{id}.factor");
                check_value(checker, &path, "a factor", row.factor.into(), FACTOR_RANGE);
            }
        }
        let mut rows_fit = true;
        for (factor, values) in &self.casualties {
            let path = format!("casualties.{factor}");
            let rows = (1, i64::from(MAX_TABLE_VALUE));
            rows_fit &= check_value(checker, &path, "a factor row", (*factor).into(), rows);
            for (index, value) in values.iter().enumerate() {
                let path = format!("casualties.{factor}[{index}]");
                let figures = (0, i64::from(MAX_FIGURES));
                check_value(checker, &path, "a casualty count", (*value).into(), figures);
            }
        }
        if !rows_fit {
            // The rows are walked one by one below: not from 1 to 2 billion.
            return;
        }
        let max = self.max_factor();
        if max < 1 {
            checker.report("casualties", "the casualty table needs rows");
        }
        for factor in 1..=max {
            match self.casualties.get(&factor) {
                None => checker.report("casualties", format!("factor {factor} has no row")),
                Some(values) if values.len() != self.die_columns.len() => checker.report(
                    &format!("casualties.{factor}"),
                    format!(
                        "row {factor} has {} values; one per die column is needed",
                        values.len()
                    ),
                ),
                Some(_) => {}
            }
        }
        if self.casualties.keys().any(|factor| *factor < 1) {
            checker.report("casualties", "rows start at factor 1");
        }
    }
}

/// The entry of `factors` that `name` names (see [`MeleeTable::troop`]).
fn find<'t>(
    factors: &'t IndexMap<String, MeleeFactor>,
    kind: &'static str,
    name: &str,
) -> Result<(&'t str, &'t MeleeFactor)> {
    let wanted = crate::suggest::normalise(name);
    let exact = factors.iter().find(|(id, row)| {
        crate::suggest::normalise(id) == wanted || crate::suggest::normalise(&row.name) == wanted
    });
    match exact {
        Some((id, row)) => Ok((id.as_str(), row)),
        None => Err(Error::unknown(
            kind,
            name,
            factors.keys().map(String::as_str),
        )),
    }
}
