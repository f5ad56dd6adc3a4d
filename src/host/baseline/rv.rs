//! The baseline's policy read under seed 001 ("A Ruinous Victory"): its
//! move, shoot and charge phases, and a charged unit's answer.

use super::{
    Baseline, DEFENDER_CHARGE_INCHES, FACE_DEGREES, ForUnit, INSIDE_RANGE, Reasoned, Weighed,
    advance_towards, charge_why, nearest, percent, to_the_edge_of_range, weakened, weakest_first,
};
use crate::battlefield::geometry::{inches, turn_between};
use crate::host::position::Position;
use crate::rv;

impl Baseline {
    /// Seed 001's next action, and the unit it is for with why.
    pub(crate) fn rv_next(&mut self, state: &rv::GameState, side: usize) -> ForUnit<rv::Action> {
        if let Some(pending) = state.pending() {
            let (action, why) = rv_respond(state);
            return (action, Some((pending.target, why)));
        }
        let units: Vec<usize> = (0..state.units().len())
            .filter(|&u| state.units()[u].side == side && !state.is_removed(u))
            .collect();
        for unit in units {
            if !self.handled.insert(unit) {
                continue;
            }
            let kind = state.phase().kind;
            let chosen = match kind {
                rv::PhaseKind::Move => rv_move(state, unit),
                rv::PhaseKind::Shoot => rv_fire(state, unit),
                rv::PhaseKind::Charge => rv_charge(state, unit),
                rv::PhaseKind::Melee => Err(String::new()),
            };
            match chosen {
                Ok((action, why)) if state.check(&action).is_ok() => {
                    return (action, Some((unit, why)));
                }
                // Why a unit stood is told for the move phase, where
                // standing is a choice; in the others it is the rules'.
                Err(why) if kind == rv::PhaseKind::Move && !why.is_empty() => {
                    let name = state.units().get(unit).map(|u| u.name.clone());
                    self.decided((Position::turn(state), name), unit, why, true);
                }
                _ => {}
            }
        }
        (rv::Action::EndPhase, None)
    }
}

/// Seed 001: the longest range a unit's fire class reaches at all.
fn rv_range(state: &rv::GameState, unit: usize) -> f64 {
    let table = state.table();
    let class = state.units()[unit].rules(table).fire;
    table
        .bands
        .iter()
        .enumerate()
        .filter(|(band, _)| table.needed(class, *band).is_some())
        .map(|(_, to)| *to)
        .fold(0.0, f64::max)
}

/// Seed 001: whether `side` defends (the rule set's defender, HO24).
fn rv_defends(state: &rv::GameState, side: usize) -> bool {
    state.attacker_defender().1 == side
}

fn rv_enemies(state: &rv::GameState, unit: usize) -> Vec<Weighed> {
    let side = state.units()[unit].side;
    let base = state.footprint(unit);
    (0..state.units().len())
        .filter(|&e| state.units()[e].side != side && !state.is_removed(e))
        .map(|e| Weighed {
            index: e,
            strength: state.strength(e).unwrap_or(0.0),
            distance: base.distance_to(&state.footprint(e)),
        })
        .collect()
}

/// Seed 001 move phase: stand with an enemy in range, turn to face one off
/// the front, else (attackers only, not guns) advance to the edge of range.
fn rv_move(state: &rv::GameState, unit: usize) -> Reasoned<rv::Action> {
    let u = &state.units()[unit];
    let enemy = nearest(&rv_enemies(state, unit)).ok_or("stands: no enemy is left (HO23)")?;
    let enemy_name = &state.units()[enemy.index].name;
    let target = state.units()[enemy.index].centre;
    let bearing = (target - u.centre).bearing();
    let off_front = turn_between(u.facing, bearing).abs();
    if off_front > FACE_DEGREES {
        return Ok((
            rv::Action::Pivot {
                unit,
                facing: bearing.rem_euclid(360.0),
            },
            format!(
                "turns to face `{enemy_name}`, the nearest enemy ({} away), {off_front:.0}° off its front (HO23)",
                inches(enemy.distance)
            ),
        ));
    }
    let range = rv_range(state, unit);
    if rv_defends(state, u.side) {
        return Err(format!(
            "stands: its side defends and never advances (HO24); the nearest enemy, `{enemy_name}`, is {} away",
            inches(enemy.distance)
        ));
    }
    if u.kind == rv::Kind::Cannon {
        return Err("stands: guns never advance (HO23)".to_string());
    }
    if state.is_reforming(unit) {
        return Err("stands: it is reforming this turn".to_string());
    }
    // Out of range: to the edge of it. In range but seeing no enemy within
    // it: half a move closer (as ruling B4). Else it stands to fire.
    let allowance = state.allowance(unit);
    let (wanted, why) = if enemy.distance > range {
        to_the_edge_of_range(enemy_name, enemy.distance, range, allowance)
    } else {
        let base = state.footprint(unit);
        let field = state.battlefield();
        let a_shot = rv_enemies(state, unit)
            .iter()
            .any(|e| e.distance <= range && field.can_see(&base, &state.footprint(e.index)));
        if a_shot {
            return Err(format!(
                "stands to fire: an enemy is in its {} range and in sight (HO23)",
                inches(range)
            ));
        }
        (
            (allowance / 2.0).min(enemy.distance - INSIDE_RANGE),
            format!(
                "closes half a move on `{enemy_name}`: in range ({}) but no enemy in sight (HO23, as ruling B4)",
                inches(enemy.distance)
            ),
        )
    };
    advance_towards(u.centre, bearing, wanted, &mut |to| {
        let action = rv::Action::Move { unit, to };
        state.check(&action).is_ok().then_some(action)
    })
    .map(|action| (action, why))
    .ok_or_else(|| {
        format!(
            "stands: no lawful straight move towards `{enemy_name}` (tried 30° and 60° either side, and shorter; HO23)"
        )
    })
}

/// Seed 001 shoot phase: fire at the weakest enemy the rules let it.
fn rv_fire(state: &rv::GameState, unit: usize) -> Reasoned<rv::Action> {
    rv_enemies(state, unit)
        .into_iter()
        .filter(|e| {
            state
                .check(&rv::Action::Fire {
                    unit,
                    target: e.index,
                })
                .is_ok()
        })
        .min_by(weakest_first)
        .map(|e| {
            (
                rv::Action::Fire {
                    unit,
                    target: e.index,
                },
                format!(
                    "fires at `{}`, the weakest enemy it can fire at: {} left, {} away (HO22)",
                    state.units()[e.index].name,
                    percent(e.strength),
                    inches(e.distance)
                ),
            )
        })
        .ok_or_else(String::new)
}

/// Seed 001 charge phase: charge the weakest weakened enemy the rules let
/// it (a defender's only within 6").
fn rv_charge(state: &rv::GameState, unit: usize) -> Reasoned<rv::Action> {
    let own = state.strength(unit).unwrap_or(0.0);
    let defends = rv_defends(state, state.units()[unit].side);
    rv_enemies(state, unit)
        .into_iter()
        .filter(|e| weakened(own, e.strength))
        .filter(|e| !defends || e.distance <= DEFENDER_CHARGE_INCHES)
        .filter(|e| {
            state
                .check(&rv::Action::Charge {
                    unit,
                    target: e.index,
                })
                .is_ok()
        })
        .min_by(weakest_first)
        .map(|e| {
            (
                rv::Action::Charge {
                    unit,
                    target: e.index,
                },
                charge_why(&state.units()[e.index].name, own, e, defends),
            )
        })
        .ok_or_else(String::new)
}

/// Seed 001: a charged unit fires if it may, else stands (HO22).
fn rv_respond(state: &rv::GameState) -> (rv::Action, String) {
    use rv::Response::{CounterCharge, Fire, Stand};
    let open = state.responses();
    let response = [Fire, Stand, CounterCharge]
        .into_iter()
        .find(|r| open.contains(r))
        .unwrap_or(Stand);
    let why = match response {
        Fire => "answers the charge with fire at 1\": the rules let it (HO22)",
        Stand => "stands to receive the charge: it may not fire (HO22)",
        CounterCharge => "counter-charges: the only answer the rules leave it (HO22)",
    };
    (rv::Action::Respond { response }, why.to_string())
}
