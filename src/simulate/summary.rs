//! One finished game reduced to what the study counts.

use crate::host::awi::{Commanders, Entry};
use crate::host::run::HostMatch;
use crate::opponent::{Hemmed, TurnReport};
use crate::rules::{Event, Outcome, Status};
use crate::tables::Order;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What one game came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's index in the study.
    pub index: u64,
    /// Its seed (`foe play --seed`).
    pub seed: u64,
    /// The winning side; `None` for a draw (or a game cut short).
    pub winner: Option<usize>,
    /// The victory condition that decided it (index into the scenario's list).
    pub condition: Option<usize>,
    /// Game turns played.
    pub turns: u32,
    /// Units routed or driven off, per side.
    pub units_lost: Vec<u32>,
    /// Hits taken, per side (every hit, including those later rallied off).
    pub hits: Vec<u32>,
    /// Charges that reached contact, per side of the charger.
    #[serde(default)]
    pub charges: Vec<u32>,
    /// Per unit, in scenario order: routed.
    pub routed: Vec<bool>,
    /// Per unit: driven off the table.
    pub exited: Vec<bool>,
    /// Per general: rally attempts used.
    pub rallies_used: Vec<u32>,
    /// How often each order was given, by its id.
    pub orders: BTreeMap<String, u32>,
    /// Per troop type (by name): the bounds its units tested on the table,
    /// and the bounds in which an order that moved them found no lawful way
    /// (`Decision::stuck`).
    #[serde(default)]
    pub stuck: BTreeMap<String, [u32; 2]>,
    /// Per troop type: the bounds in which an order that moved its units
    /// found them hemmed in by the enemy-presence rule, and held up behind
    /// other units (`Decision::hemmed`).
    #[serde(default)]
    pub hemmed: BTreeMap<String, [u32; 2]>,
    /// Seed 001's victory margin (house rule RV10), from the attacker's
    /// view; `None` under rules without one (seed 000's among them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
    /// How foe carried out its orders, counted by name ([`CONDUCT`]):
    /// what a referee checks of the seed-004 orders over many games.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conduct: BTreeMap<String, u32>,
}

/// The counts of [`GameSummary::conduct`], in report order, with what each
/// means.
pub const CONDUCT: [(&str, &str); 5] = [
    (
        "withdrawals",
        "withdrawals made (moves on withdraw and fire and withdraw)",
    ),
    (
        "withdrawals-towards-the-enemy",
        "  of them ending nearer the enemy's side of the table",
    ),
    ("routed", "units routed off the field on a rout order"),
    (
        "column-in-sight",
        "bounds a unit stayed in march column with the enemy in sight",
    ),
    ("general-tests", "generals' reaction tests (a trigger held)"),
];

impl GameSummary {
    /// Sum up a finished (or abandoned) seed-000 game from its record
    /// turn by turn (`None` for a game of other rules: [`super::host`]).
    pub fn of(game: &HostMatch, index: u64) -> Option<GameSummary> {
        let state = game.state::<crate::rules::GameState>()?;
        let commanders = Commanders::of(game)?;
        let n_sides = state.sides.len();
        let (winner, condition) = match state.outcome {
            Some(Outcome::Won { side, condition }) => (Some(side), Some(condition)),
            Some(Outcome::Draw) | None => (None, None),
        };
        let mut units_lost = vec![0; n_sides];
        for unit in &state.units {
            if unit.status != Status::Active {
                units_lost[unit.side] += 1;
            }
        }
        let mut hits = vec![0; n_sides];
        let mut charges = vec![0; n_sides];
        let mut orders = BTreeMap::new();
        let mut stuck: BTreeMap<String, [u32; 2]> = BTreeMap::new();
        let mut hemmed: BTreeMap<String, [u32; 2]> = BTreeMap::new();
        for entry in commanders.log() {
            for event in entry.events() {
                match event {
                    Event::HitsTaken { unit, hits: n, .. } => hits[state.unit(*unit).side] += n,
                    Event::Charged { unit, .. } => charges[state.unit(*unit).side] += 1,
                    _ => {}
                }
            }
            if let Entry::Opponent { report, .. } = entry {
                for order in orders_given(report) {
                    *orders.entry(order.id().to_string()).or_insert(0) += 1;
                }
                for decision in &report.decisions {
                    let troop = state.unit(decision.unit).troop;
                    let name = &state.battlefield.ruleset.troop(troop).name;
                    let counts = stuck.entry(name.clone()).or_insert([0, 0]);
                    counts[0] += 1;
                    counts[1] += u32::from(decision.stuck);
                    if let Some(why) = decision.hemmed {
                        let counts = hemmed.entry(name.clone()).or_insert([0, 0]);
                        counts[usize::from(why == Hemmed::ByUnits)] += 1;
                    }
                }
            }
        }
        Some(GameSummary {
            index,
            seed: game.seed,
            winner,
            condition,
            turns: state.turn.min(state.turns),
            units_lost,
            hits,
            charges,
            routed: state
                .units
                .iter()
                .map(|unit| unit.status == Status::Routed)
                .collect(),
            exited: state
                .units
                .iter()
                .map(|unit| unit.status == Status::Exited)
                .collect(),
            rallies_used: state
                .generals
                .iter()
                .zip(commanders.starting_rallies())
                .map(|(general, start)| start.saturating_sub(general.rallies_left))
                .collect(),
            orders,
            stuck,
            hemmed,
            margin: None,
            conduct: BTreeMap::new(),
        })
    }
}

/// The reaction-test orders the opponent gave in one turn: every unit's
/// and every reserve's test.
pub fn orders_given(report: &TurnReport) -> Vec<Order> {
    report
        .decisions
        .iter()
        .chain(&report.reserves)
        .map(|decision| decision.outcome.order)
        .collect()
}
