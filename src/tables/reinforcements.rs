//! Reinforcement selection tables (seed 004, "Reinforcements").

use super::{Column, Order, ReactionChart, check_cover};
use crate::error::Error;
use crate::yaml::Checker;
use indexmap::IndexMap;
use serde::Deserialize;

/// `tables/reinforcements.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcements {
    /// The troop types the tables can call up.
    pub troops: IndexMap<String, TroopEntry>,
    /// Each army's d100 table.
    pub armies: IndexMap<String, Army>,
    /// How an encamped reserve takes its reaction test.
    pub reserve: ReserveTest,
    /// Which orders bring a reserve on, and where.
    pub entry: Entry,
}

/// A troop type of the selection table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopEntry {
    /// The troop type in words.
    pub name: String,
    /// The reaction class it tests with.
    pub class: String,
}

/// One army's selection table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    /// The army in words.
    pub name: String,
    /// d100 bands.
    pub table: Vec<ArmyBand>,
}

/// A d100 band of an army's table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyBand {
    /// Lowest roll.
    pub from: u8,
    /// Highest roll.
    pub to: u8,
    /// The troop type called up.
    pub troop: String,
}

/// The encamped reserve's situation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReserveTest {
    /// The column it tests in.
    pub column: Column,
    /// Whether it can see the enemy.
    pub enemy_in_sight: bool,
}

/// The entry rule.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Orders that bring the reserve on.
    pub enters_on: Vec<Order>,
    /// Where it enters, in words.
    #[serde(rename = "where")]
    pub place: String,
}

impl Reinforcements {
    /// Find an army by id (unique prefixes accepted).
    pub fn army(&self, name: &str) -> Result<(&str, &Army), Error> {
        match crate::suggest::resolve(name, self.armies.keys().map(String::as_str)) {
            Ok(id) => Ok((id, &self.armies[id])),
            Err(_) => Err(Error::unknown(
                "army",
                name,
                self.armies.keys().map(String::as_str),
            )),
        }
    }

    /// The troop a d100 roll calls up for an army, with its id.
    pub fn select(&self, army: &Army, roll: u8) -> Option<(&str, &TroopEntry)> {
        let band = army
            .table
            .iter()
            .find(|band| (band.from..=band.to).contains(&roll))?;
        self.troops
            .get_key_value(&band.troop)
            .map(|(id, troop)| (id.as_str(), troop))
    }

    /// Whether a reserve given this order enters the table.
    pub fn enters(&self, order: Order) -> bool {
        self.entry.enters_on.contains(&order)
    }

    pub(super) fn validate(&self, checker: &mut Checker<'_>, chart: &ReactionChart) {
        for (id, troop) in &self.troops {
            if chart.class(&troop.class).is_err() {
                checker.report(
                    &format!("troops.{id}.class"),
                    format!(
                        "unknown troop class `{}`{}",
                        troop.class,
                        crate::suggest::did_you_mean(&troop.class, chart.class_names())
                    ),
                );
            }
        }
        for (army_id, army) in &self.armies {
            for (index, band) in army.table.iter().enumerate() {
                if !self.troops.contains_key(&band.troop) {
                    checker.report(
                        &format!("armies.{army_id}.table[{index}].troop"),
                        format!(
                            "unknown troop `{}`{}",
                            band.troop,
                            crate::suggest::did_you_mean(
                                &band.troop,
                                self.troops.keys().map(String::as_str)
                            )
                        ),
                    );
                }
            }
            let spans: Vec<(String, i64, i64)> = army
                .table
                .iter()
                .enumerate()
                .map(|(index, band)| {
                    (
                        format!("armies.{army_id}.table[{index}]"),
                        i64::from(band.from),
                        i64::from(band.to),
                    )
                })
                .collect();
            (check_cover(
                checker,
                &format!("{army_id} reinforcements"),
                &spans,
                1,
                100,
            ));
        }
    }
}
