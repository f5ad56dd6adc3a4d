//! Refusals that help: the engine's refusal names the rule broken; here it
//! also says what the player can do instead. A move too long gets its cost
//! by terrain and the farthest lawful point along its line, with the
//! command that goes there; the enemy-presence rule names the enemy (seen
//! or not) and how far it is; a charge after a pivot says why a unit that
//! has pivoted may not charge in the same turn. Pure: it reads the state the
//! action was refused in (a refused action changes nothing) and the rule
//! numbers from the rules table.

use crate::battlefield::Point;
use crate::battlefield::geometry::{tenth, trim, turn_between};
use crate::host::position::Position;
use crate::host::repl::{Command, Names, parse};
use crate::rules::{Action, GameState, GeneralId, Refusal, UnitId};

/// The seed-000 action a line typed at the prompt means (`None` for a
/// line that is a question, not an action).
fn act(names: &Names<'_>, line: &str) -> Result<Option<Action>, String> {
    Ok(match parse(names, line)? {
        Command::Act(action) => GameState::own(&action).cloned(),
        _ => None,
    })
}

/// A general's map label (`BG1`).
fn general_label(state: &GameState, general: GeneralId) -> String {
    let side = state.general(general).side;
    let index = state.generals[..general.0]
        .iter()
        .filter(|g| g.side == side)
        .count();
    crate::scenario::label::general_label(&state.sides[side].name, index)
}

/// The engine walks a move in steps this long (as `rules::engine` does).
const STEP: f64 = 0.1;

/// One stretch of a straight move over one kind of ground.
#[derive(Debug, Clone, PartialEq)]
pub struct Stretch {
    /// The terrain kind that sets the cost (`open`, `woods`, …).
    pub ground: String,
    /// Inches of the line over it.
    pub length: f64,
    /// What an inch of it costs, as a multiple of open ground (2 is half speed).
    pub multiplier: f64,
    /// Whether the stretch climbs (uphill costs more).
    pub uphill: bool,
}

impl Stretch {
    /// The movement it uses, in inches of open ground.
    pub fn cost(&self) -> f64 {
        self.length * self.multiplier
    }
}

/// The ground a straight move of `unit` from its centre to `to` crosses, in
/// stretches of the same cost, as the engine's own walk prices it (per
/// 0.1" step, the cell under each step, roads without their bonus off the
/// road, uphill on any step onto higher ground). `None` if the line leaves
/// the table or crosses ground the unit cannot enter.
pub fn ground_cost(state: &GameState, unit: UnitId, to: Point) -> Option<Vec<Stretch>> {
    let u = state.unit(unit);
    let field = &state.battlefield;
    let ruleset = &field.ruleset;
    let allowance = ruleset.move_inches[u.category.index()];
    let road_factor = (allowance + ruleset.road_bonus) / allowance;
    let from = u.base.centre;
    let n_steps = ((from.distance(to) / STEP).ceil() as usize).max(1);
    let mut previous_cell = field.grid.cell_at(from);
    let mut climbing = false;
    let mut last = from;
    let mut stretches: Vec<Stretch> = Vec::new();
    for step in 1..=n_steps {
        let point = from.lerp(to, step as f64 / n_steps as f64);
        let cell = field.grid.cell_at(point)?;
        let mut multiplier = field.cost_multiplier(u.troop, cell)?;
        if field.on_road(cell) {
            multiplier *= road_factor;
        }
        if Some(cell) != previous_cell {
            climbing =
                previous_cell.is_some_and(|p| field.grid.ground[cell] > field.grid.ground[p]);
            previous_cell = Some(cell);
        }
        let slope = if climbing {
            1.0 / ruleset.uphill_speed
        } else {
            1.0
        };
        let ground = ruleset
            .kind(field.grid.top_kind(ruleset, cell))
            .name
            .clone();
        let length = last.distance(point);
        let multiplier = multiplier * slope;
        match stretches.last_mut() {
            Some(stretch)
                if stretch.ground == ground
                    && (stretch.multiplier - multiplier).abs() < 1e-9
                    && stretch.uphill == climbing =>
            {
                stretch.length += length;
            }
            _ => stretches.push(Stretch {
                ground,
                length,
                multiplier,
                uphill: climbing,
            }),
        }
        last = point;
    }
    // Stretches of the same ground and cost are told together.
    let mut merged: Vec<Stretch> = Vec::new();
    for stretch in stretches {
        match merged.iter_mut().find(|m| {
            m.ground == stretch.ground
                && (m.multiplier - stretch.multiplier).abs() < 1e-9
                && m.uphill == stretch.uphill
        }) {
            Some(found) => found.length += stretch.length,
            None => merged.push(stretch),
        }
    }
    Some(merged)
}

/// `4" open, 2.75" of woods at half speed`.
pub fn stretches_in_words(stretches: &[Stretch]) -> String {
    stretches
        .iter()
        .map(|stretch| {
            let length = trim(stretch.length);
            let speed = speed_in_words(stretch.multiplier);
            let uphill = if stretch.uphill { " uphill" } else { "" };
            if stretch.ground == "open" && !stretch.uphill && speed.is_empty() {
                format!("{length}\" open")
            } else {
                format!("{length}\" of {}{uphill}{speed}", stretch.ground)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` at half speed` for a cost of 2" an inch; nothing at full speed.
fn speed_in_words(multiplier: f64) -> String {
    let near = |value: f64| (multiplier - value).abs() < 1e-6;
    if near(1.0) {
        String::new()
    } else if near(2.0) {
        " at half speed".into()
    } else if near(3.0) {
        " at a third of its speed".into()
    } else if near(4.0) {
        " at a quarter of its speed".into()
    } else if multiplier < 1.0 {
        format!(" at {}\" an inch", trim(multiplier))
    } else {
        format!(" at {}\" of movement an inch", trim(multiplier))
    }
}

/// The refusal of `action` in `state`, said so that it helps: the engine's
/// message, and where it helps, what the unit can do instead.
pub fn refusal(names: &Names<'_>, state: &GameState, action: &Action, refusal: &Refusal) -> String {
    let helped = match (action, refusal) {
        (
            Action::Move { unit, to, facing },
            Refusal::TooFar {
                name,
                cost,
                allowance,
            },
        ) => Some(too_far(
            state, names, *unit, *to, *facing, name, *cost, *allowance,
        )),
        (
            Action::MoveGeneral { general, to },
            Refusal::TooFar {
                name,
                cost,
                allowance,
            },
        ) => Some(general_too_far(
            state, *general, *to, name, *cost, *allowance,
        )),
        (Action::Move { unit, .. }, Refusal::EnemyPresence { name, within }) => {
            enemy_presence(state, names, *unit, name, *within)
        }
        (Action::Charge { target, .. }, Refusal::AlreadyPivoted { name }) => Some(format!(
            "cannot charge with `{name}`: it has pivoted this turn, and a charge opens with its own pivot of up to {}° to face {} (a unit pivots once, at the start of its move), so it may charge next turn; this turn it may still move",
            trim(state.rules.charge_max_pivot),
            state.unit(*target).name,
        )),
        (Action::Charge { .. }, Refusal::AlreadyMoved { name }) => Some(format!(
            "cannot charge with `{name}`: it has already moved this turn, and a charge is a unit's move"
        )),
        (Action::Charge { unit, target }, Refusal::ChargePivot { .. }) => {
            let pivot = format!(
                "pivot {} towards {}",
                names.label(unit.0),
                names.label(target.0)
            );
            let lawful = matches!(
                act(names, &pivot),
                Ok(Some(ref action)) if state.check(action).is_ok()
            );
            let mut text = refusal.to_string();
            if lawful {
                text.push_str(&format!(
                    "; `{pivot}` turns it to face {} now, and it may charge next turn (a unit that has pivoted may not charge in the same turn)",
                    state.unit(*target).name
                ));
            }
            Some(text)
        }
        _ => None,
    };
    helped.unwrap_or_else(|| refusal.to_string())
}

/// A straight move beyond the allowance: its cost by terrain, and the
/// farthest lawful point along its line with the command that goes there.
#[allow(clippy::too_many_arguments)]
fn too_far(
    state: &GameState,
    names: &Names<'_>,
    unit: UnitId,
    to: Point,
    facing: f64,
    name: &str,
    cost: f64,
    allowance: f64,
) -> String {
    let base = state.unit(unit).base;
    let mut text = format!("cannot move `{name}`: the move needs {}\"", trim(cost));
    if let Some(stretches) = ground_cost(state, unit, to)
        && !(stretches.len() == 1 && stretches[0].ground == "open" && !stretches[0].uphill)
    {
        text.push_str(&format!(" ({})", stretches_in_words(&stretches)));
    }
    text.push_str(&format!(" and the allowance is {}\"", trim(allowance)));
    let travel = to - base.centre;
    let label = names.label(unit.0);
    let along = travel.bearing();
    let command = if turn_between(along, base.facing) < 0.5
        && turn_between(facing, base.facing) < 0.5
    {
        format!("move {label} forward max")
    } else if turn_between(along, base.facing) > 179.5 && turn_between(facing, base.facing) < 0.5 {
        format!("move {label} back max")
    } else {
        format!("move {label} towards {} max", tenth(to))
    };
    // Offered only when the engine's own check takes it.
    match act(names, &command) {
        Ok(Some(action @ Action::Move { to: farthest, .. })) if state.check(&action).is_ok() => {
            text.push_str(&format!(
                "; the farthest it can go that way is {} — `{command}`",
                tenth(farthest)
            ));
        }
        Ok(_) => {}
        Err(why) => text.push_str(&format!("; it cannot go that way at all ({why})")),
    }
    text
}

/// A general's ride beyond his allowance: the farthest point along the
/// line he may reach, 0.1" at a time, as a command.
fn general_too_far(
    state: &GameState,
    general: GeneralId,
    to: Point,
    name: &str,
    cost: f64,
    allowance: f64,
) -> String {
    let from = state.general(general).base.centre;
    let mut text = format!(
        "cannot move `{name}`: the ride needs {}\" and the allowance is {}\"",
        trim(cost),
        trim(allowance)
    );
    let length = from.distance(to);
    let tenths = (length * 10.0).floor() as u32;
    let farthest = (1..=tenths).rev().find_map(|tenths| {
        let at = tenth(from.lerp(to, f64::from(tenths) / 10.0 / length));
        let action = Action::MoveGeneral { general, to: at };
        state.check(&action).is_ok().then_some(at)
    });
    if let Some(at) = farthest {
        text.push_str(&format!(
            "; the farthest he can go that way is {at} — `general {} to {at}`",
            general_label(state, general)
        ));
    }
    text
}

/// Enemy presence, naming the enemies within the distance, nearest first,
/// seen or not, and the move the rule still allows.
fn enemy_presence(
    state: &GameState,
    names: &Names<'_>,
    unit: UnitId,
    name: &str,
    within: f64,
) -> Option<String> {
    let u = state.unit(unit);
    let mut near: Vec<(f64, UnitId)> = state
        .active_units(GameState::enemy_of(u.side))
        .filter(|enemy| u.base.within(&state.unit(*enemy).base, within + 1e-6))
        .map(|enemy| (u.base.distance_to(&state.unit(enemy).base), enemy))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.0.cmp(&b.1.0)));
    let (distance, nearest) = *near.first()?;
    let enemy = |(distance, id): (f64, UnitId)| {
        let e = state.unit(id);
        format!(
            "{} ({}), {}\" away{}",
            e.name,
            names.label(id.0),
            trim((distance * 10.0).round() / 10.0),
            if state.battlefield.can_see(&u.base, &e.base) {
                ""
            } else {
                " and out of sight"
            }
        )
    };
    let mut text = format!(
        "cannot move `{name}` that way: it is within {}\" of {}",
        trim(within),
        enemy((distance, nearest))
    );
    if near.len() > 1 {
        let others: Vec<String> = near[1..].iter().map(|found| enemy(*found)).collect();
        text.push_str(&format!(" (and of {})", others.join(", ")));
    }
    text.push_str(&format!(
        ", and a unit within {}\" of an enemy may only advance directly towards it or retire directly away from it",
        trim(within)
    ));
    let command = format!(
        "move {} towards {} max",
        names.label(unit.0),
        names.label(nearest.0)
    );
    if matches!(act(names, &command), Ok(Some(ref action)) if state.check(action).is_ok()) {
        text.push_str(&format!(" — `{command}`"));
    }
    Some(text)
}

#[cfg(test)]
mod tests;
