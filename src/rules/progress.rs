//! How far each side is from its victory conditions: a pure query on the
//! game state, for the `victory` command, the opening banner and `status`.
//! It reads the conditions as the engine judges them (units routed or driven
//! off the table count as lost) and adds what a player plans by: how many
//! more losses are needed, the enemy unit nearest to routing, and how near
//! the winner's closest unit is to a unit it must destroy; and the same
//! in words, one line a condition.

use super::{Condition, GameState, Status, UnitId};
use crate::battlefield::geometry::trim;
use std::fmt::Write;

/// One victory condition and how far it is from being met.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The side it wins for.
    pub winner: usize,
    /// The condition.
    pub condition: Condition,
    /// Where it stands.
    pub standing: Standing,
}

/// Where a condition stands now.
#[derive(Debug, Clone, PartialEq)]
pub enum Standing {
    /// Units to be routed or driven off the table.
    Losses {
        /// How many of the counted units are lost so far.
        lost: usize,
        /// How many must be lost in all.
        needed: usize,
        /// How many units are counted (the side's, or its units of the type).
        of: usize,
        /// The counted unit with hits closest to routing: it, its hits, its
        /// threshold (`None` while none has a hit).
        most_hit: Option<(UnitId, u32, Option<u32>)>,
        /// The nearest winner's unit to a counted unit: (counted, winner's, inches).
        nearest: Option<(UnitId, UnitId, f64)>,
    },
    /// An area to be held at the end.
    Area {
        /// The holder's units inside now.
        ours: Vec<UnitId>,
        /// The other side's units inside now.
        theirs: Vec<UnitId>,
    },
}

impl Standing {
    /// Whether the condition is met now (an area is judged only at the end).
    pub fn met(&self) -> bool {
        match self {
            Standing::Losses { lost, needed, .. } => lost >= needed,
            Standing::Area { ours, theirs } => !ours.is_empty() && theirs.is_empty(),
        }
    }
}

/// Every victory condition of the game, in scenario order, with its standing.
pub fn progress(state: &GameState) -> Vec<Progress> {
    state
        .victory
        .iter()
        .map(|victory| Progress {
            winner: victory.winner,
            condition: victory.when.clone(),
            standing: standing(state, victory.winner, &victory.when),
        })
        .collect()
}

fn standing(state: &GameState, winner: usize, condition: &Condition) -> Standing {
    let counted: Vec<UnitId> = match condition {
        Condition::RoutFraction { side, .. } => (0..state.units.len())
            .map(UnitId)
            .filter(|id| state.unit(*id).side == *side)
            .collect(),
        Condition::RoutOrExit { side, troop, .. } => (0..state.units.len())
            .map(UnitId)
            .filter(|id| state.unit(*id).side == *side && state.unit(*id).troop == *troop)
            .collect(),
        Condition::HoldArea { side, min, max, .. } => {
            let inside = |id: &UnitId| {
                let unit = state.unit(*id);
                unit.is_active()
                    && (min.x..=max.x).contains(&unit.base.centre.x)
                    && (min.y..=max.y).contains(&unit.base.centre.y)
            };
            let (ours, theirs) = (0..state.units.len())
                .map(UnitId)
                .filter(inside)
                .partition(|id| state.unit(*id).side == *side);
            return Standing::Area { ours, theirs };
        }
    };
    let lost = counted
        .iter()
        .filter(|id| matches!(state.unit(**id).status, Status::Routed | Status::Exited))
        .count();
    let needed = match condition {
        // "More than" a fraction: the smallest whole number above it.
        Condition::RoutFraction { more_than, .. } => {
            ((more_than * counted.len() as f64 + 1e-9).floor() as usize) + 1
        }
        Condition::RoutOrExit { count, .. } => *count as usize,
        Condition::HoldArea { .. } => 0,
    };
    let standing_units: Vec<UnitId> = counted
        .iter()
        .copied()
        .filter(|id| state.unit(*id).is_active())
        .collect();
    let most_hit = standing_units
        .iter()
        .filter(|id| state.unit(**id).hits > 0)
        .map(|id| {
            let unit = state.unit(*id);
            (*id, unit.hits, state.rules.rout_threshold(unit.category))
        })
        // Nearest to its threshold first; ties to the most hits, then the list.
        .min_by_key(|(id, hits, threshold)| {
            (
                threshold.map_or(u32::MAX, |t| t.saturating_sub(*hits)),
                u32::MAX - hits,
                id.0,
            )
        });
    let mut nearest: Option<(UnitId, UnitId, f64)> = None;
    for target in &standing_units {
        for attacker in state.active_units(winner) {
            let distance = state
                .unit(attacker)
                .base
                .distance_to(&state.unit(*target).base);
            if nearest.is_none_or(|(_, _, best)| distance < best) {
                nearest = Some((*target, attacker, distance));
            }
        }
    }
    Standing::Losses {
        lost,
        needed,
        of: counted.len(),
        most_hit,
        nearest,
    }
}

/// A victory condition in words (`rout more than 50% of the british
/// units`).
pub fn condition_words(state: &GameState, condition: &Condition) -> String {
    let side = |index: usize| state.sides.get(index).map_or("?", |s| s.name.as_str());
    match condition {
        Condition::RoutFraction {
            side: loser,
            more_than,
        } => format!(
            "rout more than {}% of the {} units",
            trim(more_than * 100.0),
            side(*loser)
        ),
        Condition::RoutOrExit {
            side: loser,
            troop,
            count,
        } => format!(
            "rout or drive off the table {count} {} unit{} of the {}",
            state.battlefield.ruleset.troop(*troop).name,
            if *count == 1 { "" } else { "s" },
            side(*loser)
        ),
        Condition::HoldArea {
            side: holder, name, ..
        } => format!("the {} hold {name} at the end", side(*holder)),
    }
}

/// `british win if they rout ...`: a side and its condition in words.
pub fn wins_if(state: &GameState, winner: usize, condition: &Condition) -> String {
    let they = if matches!(condition, Condition::HoldArea { .. }) {
        ""
    } else {
        "they "
    };
    format!(
        "{} win if {they}{}",
        state.sides.get(winner).map_or("?", |s| s.name.as_str()),
        condition_words(state, condition)
    )
}

/// One condition and how near it is, in one line without a newline; each
/// unit named by `named` (`1st Maryland (A10)` where its label is known).
pub fn line(state: &GameState, named: &dyn Fn(UnitId) -> String, item: &Progress) -> String {
    let mut out = wins_if(state, item.winner, &item.condition);
    match &item.standing {
        Standing::Losses {
            lost,
            needed,
            of,
            most_hit,
            nearest,
        } => {
            let _ = write!(out, ": {lost} of {of} lost");
            if lost >= needed {
                out.push_str(", met");
                return out;
            }
            let _ = write!(out, ", {} more needed", needed - lost);
            if let Some((unit, hits, threshold)) = most_hit
                && *hits > 0
            {
                let _ = write!(
                    out,
                    "; most hit {}, {}",
                    named(*unit),
                    threshold.map_or_else(
                        || crate::names::hits(*hits),
                        |t| format!("{hits} of {t} hits")
                    )
                );
            }
            if let Some((target, attacker, distance)) = nearest {
                let _ = write!(
                    out,
                    "; nearest {}, {}\" from {}",
                    named(*target),
                    trim((distance * 10.0).round() / 10.0),
                    named(*attacker)
                );
            }
        }
        Standing::Area { ours, theirs } => {
            let list = |units: &[UnitId]| {
                units
                    .iter()
                    .map(|unit| named(*unit))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            match (ours.is_empty(), theirs.is_empty()) {
                (true, true) => out.push_str(": nobody is in it yet"),
                (false, true) => {
                    let _ = write!(out, ": held now by {}", list(ours));
                }
                (true, false) => {
                    let _ = write!(out, ": the enemy is in it ({})", list(theirs));
                }
                (false, false) => {
                    let _ = write!(out, ": contested by {} and {}", list(ours), list(theirs));
                }
            }
            out.push_str(" (judged after the last turn)");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::test_game::start;

    #[test]
    fn guilfords_conditions_at_the_start() {
        let game = start("guilford", 3, vec![0]);
        let progress = progress(game.state());
        assert_eq!(progress.len(), 2);
        // The Americans need more than half of 7 British units: 4.
        let Standing::Losses {
            lost, needed, of, ..
        } = &progress[0].standing
        else {
            panic!("{progress:?}")
        };
        assert_eq!((progress[0].winner, *lost, *needed, *of), (1, 0, 4, 7));
        // The British need 1 of the 2 Continental units.
        let Standing::Losses {
            lost,
            needed,
            of,
            nearest,
            ..
        } = &progress[1].standing
        else {
            panic!("{progress:?}")
        };
        assert_eq!((progress[1].winner, *lost, *needed, *of), (0, 0, 1, 2));
        let (target, attacker, distance) = nearest.unwrap();
        assert_eq!(game.state().unit(target).side, 1);
        assert_eq!(game.state().unit(attacker).side, 0);
        let ruleset = &game.state().battlefield.ruleset;
        let continentals: Vec<usize> = (0..game.state().units.len())
            .filter(|i| ruleset.troop(game.state().units[*i].troop).name == "continentals")
            .collect();
        assert_eq!(continentals.len(), 2);
        let closest = (0..7)
            .flat_map(|b| continentals.iter().map(move |a| (b, *a)))
            .map(|(b, a)| {
                game.state()
                    .unit(UnitId(b))
                    .base
                    .distance_to(&game.state().unit(UnitId(a)).base)
            })
            .fold(f64::MAX, f64::min);
        assert_eq!(distance, closest);
        assert!(!progress[1].standing.met());
    }

    #[test]
    fn a_routed_continental_meets_the_british_condition() {
        let mut game = start("guilford", 3, vec![0]);
        let maryland = game.state().find_unit("1st Maryland").unwrap();
        game.state_mut().units[maryland.0].status = Status::Routed;
        let progress = progress(game.state());
        let Standing::Losses { lost, needed, .. } = &progress[1].standing else {
            panic!()
        };
        assert_eq!((*lost, *needed), (1, 1));
        assert!(progress[1].standing.met());
    }
}
