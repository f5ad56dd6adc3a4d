//! The baseline's policy read under seed 002 (OHW ACW with activation
//! dice): its activation dice, what a unit does when its die comes up,
//! and a charged unit's answer.

use super::{
    Baseline, DEFENDER_CHARGE_INCHES, FACE_DEGREES, ForUnit, INSIDE_RANGE, Weighed,
    advance_towards, charge_why, nearest, percent, to_the_edge_of_range, weakened, weakest_first,
};
use crate::acw;
use crate::battlefield::Point;
use crate::battlefield::geometry::{inches, turn_between};
use crate::ruleset::Category;
use crate::scenario::Condition;

/// Seed 002: a unit in a formation it cannot fire in (a march column,
/// limbered guns) with an enemy within reach of a formation it can fire in
/// changes to that one, still advancing (guns excepted) as far as what is
/// left of the move allows (HO23).
fn acw_deploy(
    state: &acw::GameState,
    unit: acw::UnitId,
    enemy: Weighed,
    bearing: f64,
    defends: bool,
) -> Option<acw::Action> {
    let u = state.unit(unit);
    let table = &state.table;
    if table.weapon(u.troop, u.formation).is_some() {
        return None;
    }
    let (formation, range, allowance) = acw::Formation::ALL.into_iter().find_map(|formation| {
        let range = table.weapon(u.troop, formation)?.range();
        let cost = table.change_cost(u.troop, u.formation, formation)?;
        let allowance = table.move_of(u.troop, formation)? - cost;
        Some((formation, range, allowance.max(0.0)))
    })?;
    if enemy.distance > range + allowance {
        return None;
    }
    let facing = bearing.rem_euclid(360.0);
    let lawful = |to: Point| {
        let action = acw::Action::Move {
            unit,
            formation: Some(formation),
            to,
            facing,
        };
        state.check(&action).is_ok().then_some(action)
    };
    let wanted = (enemy.distance - (range - INSIDE_RANGE).max(0.0)).min(allowance);
    // Guns never advance, nor does a defending side (HO24): they form up
    // where they stand.
    let advance = if u.category == Category::Artillery || defends {
        None
    } else {
        advance_towards(u.base.centre, bearing, wanted, &mut |to| lawful(to))
    };
    advance.or_else(|| lawful(u.base.centre))
}

impl Baseline {
    /// Seed 002's next action, and the unit it is for with why.
    pub(crate) fn acw_next(
        &mut self,
        state: &acw::GameState,
        side: usize,
    ) -> Option<ForUnit<acw::Action>> {
        match state.phase() {
            acw::Phase::Assigning { .. } => {
                acw_assign(state, side).map(|(action, unit, why)| (action, Some((unit, why))))
            }
            acw::Phase::ChargeResponse { target, .. } => {
                let fire = acw::Action::Respond {
                    unit: target,
                    fire: true,
                };
                Some(if state.check(&fire).is_ok() {
                    (
                        fire,
                        Some((
                            target.0,
                            "answers the charge with fire: the rules let it (HO22)".to_string(),
                        )),
                    )
                } else {
                    (
                        acw::Action::Respond {
                            unit: target,
                            fire: false,
                        },
                        Some((
                            target.0,
                            "holds against the charge: it may not fire (HO22)".to_string(),
                        )),
                    )
                })
            }
            acw::Phase::Activating => {
                let unit = state.up_next().into_iter().next()?;
                let (action, why) = acw_activate(state, unit);
                Some((action, Some((unit.0, why))))
            }
            acw::Phase::Over => None,
        }
    }
}

/// Seed 002: whether `side` defends: another side must take ground from
/// it (a hold-the-area victory condition names another side, HO24).
fn acw_defends(state: &acw::GameState, side: usize) -> bool {
    state.victory.iter().any(|victory| {
        matches!(&victory.when, Condition::HoldArea { side: holder, .. } if *holder != side)
    })
}

fn acw_enemies(state: &acw::GameState, unit: acw::UnitId) -> Vec<Weighed> {
    let u = state.unit(unit);
    (0..state.units.len())
        .map(acw::UnitId)
        .filter(|&e| state.unit(e).side != u.side && !state.removed(e))
        .map(|e| Weighed {
            index: e.0,
            strength: state.strength(e),
            distance: u.base.distance_to(&state.unit(e).base),
        })
        .collect()
}

/// Seed 002: the highest die to the unit nearest an enemy, then down
/// (HO25).
fn acw_assign(state: &acw::GameState, side: usize) -> Option<(acw::Action, usize, String)> {
    let die = state.dice_to_assign(side).iter().copied().max()?;
    let (unit, near) = state
        .unassigned(side)
        .map(|unit| {
            let near = nearest(&acw_enemies(state, unit)).map_or(f64::INFINITY, |e| e.distance);
            (unit, near)
        })
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))?;
    let nearness = if near.is_finite() {
        format!("{} from the enemy", inches(near))
    } else {
        "no enemy left".to_string()
    };
    Some((
        acw::Action::AssignDie { die, unit },
        unit.0,
        format!(
            "takes die {die}: the highest left goes to the unit nearest the enemy still without one ({nearness}) (HO25)"
        ),
    ))
}

/// Seed 002: what a unit does when its die comes up: charge the weakened,
/// else fire at the weakest, else turn or advance, else hold.
pub(super) fn acw_activate(state: &acw::GameState, unit: acw::UnitId) -> (acw::Action, String) {
    let u = state.unit(unit);
    let own = state.strength(unit);
    let defends = acw_defends(state, u.side);
    let enemies = acw_enemies(state, unit);
    let lawful = |action: acw::Action| state.check(&action).is_ok().then_some(action);
    let charge = enemies
        .iter()
        .filter(|e| weakened(own, e.strength))
        .filter(|e| !defends || e.distance <= DEFENDER_CHARGE_INCHES)
        .filter(|e| {
            state
                .check(&acw::Action::Charge {
                    unit,
                    target: acw::UnitId(e.index),
                })
                .is_ok()
        })
        .min_by(|a, b| weakest_first(a, b));
    let name = |e: &Weighed| state.unit(acw::UnitId(e.index)).name.clone();
    if let Some(e) = charge {
        return (
            acw::Action::Charge {
                unit,
                target: acw::UnitId(e.index),
            },
            charge_why(&name(e), own, *e, defends),
        );
    }
    let fire = enemies
        .iter()
        .filter(|e| {
            state
                .check(&acw::Action::Fire {
                    unit,
                    target: acw::UnitId(e.index),
                })
                .is_ok()
        })
        .min_by(|a, b| weakest_first(a, b));
    if let Some(e) = fire {
        return (
            acw::Action::Fire {
                unit,
                target: acw::UnitId(e.index),
            },
            format!(
                "fires at `{}`, the weakest enemy it can fire at: {} left, {} away (HO22)",
                name(e),
                percent(e.strength),
                inches(e.distance)
            ),
        );
    }
    let hold = acw::Action::Hold { unit };
    let Some(enemy) = nearest(&enemies) else {
        return (hold, "holds: no enemy is left (HO23)".to_string());
    };
    let enemy_name = name(&enemy);
    let centre = u.base.centre;
    let bearing = (state.unit(acw::UnitId(enemy.index)).base.centre - centre).bearing();
    let range = state
        .table
        .weapon(u.troop, u.formation)
        .map_or(0.0, acw::Weapon::range);
    if let Some(deploy) = acw_deploy(state, unit, enemy, bearing, defends) {
        let formation = match &deploy {
            acw::Action::Move {
                formation: Some(formation),
                ..
            } => crate::host::acw_formation(*formation),
            _ => "a formation it can fire in",
        };
        return (
            deploy,
            format!(
                "forms {formation} facing `{enemy_name}`, {} away: it cannot fire as it stands and the enemy is within reach (HO23)",
                inches(enemy.distance)
            ),
        );
    }
    // Out of range: to the edge of it. In range with no shot (sight, or
    // the rules' other conditions): half a move closer (as ruling B4).
    let allowance = state.table.move_of(u.troop, u.formation).unwrap_or(0.0);
    let (wanted, advance_why) = if enemy.distance > range {
        to_the_edge_of_range(&enemy_name, enemy.distance, range, allowance)
    } else {
        (
            (allowance / 2.0).min(enemy.distance - INSIDE_RANGE),
            format!(
                "closes half a move on `{enemy_name}`: in range ({}) but it has no shot (HO23, as ruling B4)",
                inches(enemy.distance)
            ),
        )
    };
    if !defends
        && u.category != Category::Artillery
        && let Some(advance) = advance_towards(centre, bearing, wanted, &mut |to| {
            lawful(acw::Action::Move {
                unit,
                formation: None,
                to,
                facing: bearing.rem_euclid(360.0),
            })
        })
    {
        return (advance, advance_why);
    }
    let off_front = turn_between(u.base.facing, bearing).abs();
    if off_front > FACE_DEGREES
        && let Some(turn) = lawful(acw::Action::Move {
            unit,
            formation: None,
            to: centre,
            facing: bearing.rem_euclid(360.0),
        })
    {
        return (
            turn,
            format!(
                "turns to face `{enemy_name}`, the nearest enemy ({} away), {off_front:.0}° off its front (HO23)",
                inches(enemy.distance)
            ),
        );
    }
    let why = if defends {
        let shot = if enemy.distance > range {
            format!("out of its {} range", inches(range))
        } else {
            "in range, but it has no shot".to_string()
        };
        format!(
            "holds: no shot, and its side defends and never advances (HO24); the nearest enemy, `{enemy_name}`, is {} away, {shot}",
            inches(enemy.distance)
        )
    } else if u.category == Category::Artillery {
        "holds: guns never advance (HO23)".to_string()
    } else {
        format!("holds: no shot, and no lawful move towards `{enemy_name}` (HO23)")
    };
    (hold, why)
}
