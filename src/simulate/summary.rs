//! One finished game reduced to what the study counts.

use super::host::condition_of;
use crate::host::run::HostMatch;
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
    /// How foe carried out its orders, counted by name
    /// ([`crate::host::command::CONDUCT`]):
    /// what a referee checks of the seed-004 orders over many games.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conduct: BTreeMap<String, u32>,
}

impl GameSummary {
    /// Sum up a finished (or abandoned) game of any rule set: its result
    /// and the runner's counts of its events, through the engine boundary,
    /// and what its commanders did ([`HostMatch::conduct`]). A game cut
    /// short counts as a draw.
    pub fn of(game_match: &HostMatch, index: u64) -> GameSummary {
        let game = &game_match.game;
        let verdict = game.verdict();
        let tally = &game_match.tally;
        let n_sides = game.sides().len();
        let mut units_lost = vec![0; n_sides];
        for unit in game.units() {
            if unit.removed && unit.side < n_sides {
                units_lost[unit.side] += 1;
            }
        }
        let conduct = game_match.conduct();
        let (routed, exited) = tally.fates(game);
        GameSummary {
            index,
            seed: game_match.seed,
            winner: verdict.as_ref().and_then(|v| v.winner),
            condition: verdict.as_ref().and_then(|v| condition_of(game, v)),
            turns: game.turn().min(game.turns()),
            units_lost,
            hits: tally.hits.clone(),
            charges: tally.charges.clone(),
            routed,
            exited,
            rallies_used: conduct.rallies_used,
            orders: conduct.orders,
            stuck: conduct.stuck,
            hemmed: conduct.hemmed,
            margin: verdict.and_then(|v| v.margin),
            conduct: conduct.counts,
        }
    }
}
