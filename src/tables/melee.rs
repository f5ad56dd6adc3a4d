//! The Lone Warrior figure melee: factors and the casualty table
//! (seed 004, "Melee").

use super::{FACTOR_RANGE, MAX_TABLE_VALUE, check_value};
use crate::yaml::Checker;

/// The most figures one melee row may kill.
pub const MAX_FIGURES: u32 = 1000;
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
}

/// A named melee factor.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeFactor {
    /// In words.
    pub name: String,
    /// Added to the side's total.
    pub factor: i32,
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

    pub(super) fn validate(&self, checker: &mut Checker<'_>) {
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
