//! The scripted baseline for the seed-001 and seed-002 engines (rulings
//! HO20–HO25): what [`crate::baseline`] is for seed 000, a deliberately
//! simple player to measure foe's Lone Warrior opponent against. It is not
//! Lone Warrior: no reaction test, no dice, nothing remembered between
//! phases but which units it has already seen to in this one. Every
//! decision is read off the game in a fixed order, and every action is one
//! the engine accepts ([`Game::check`]), through the [`Game`] boundary.
//!
//! Each unit, in unit order: charge an enemy that is weakened (half its
//! strength gone, or weaker than the charger) if the rules let it (HO21);
//! else fire at the weakest enemy in reach (HO22); else turn to face the
//! nearest enemy when it is off the unit's front, or advance on it to the
//! edge of the unit's range, guns excepted (HO23); a defending side never
//! advances and charges only within 6" (HO24). Seed 002's activation dice
//! go highest first to the units nearest the enemy (HO25).
//!
//! Every decision says why in words, naming the ruling ([`Decision`]), as
//! foe's opponent's do: `why UNIT` and the turn report read them.
//!
//! Pure: no dice, no clock, no I/O.

use super::{Action, Game};
use crate::battlefield::Point;
use crate::battlefield::geometry::{Vector, inches, turn_between};
use crate::ruleset::Category;
use crate::scenario::Condition;
use crate::{acw, rv};
use std::collections::BTreeSet;

/// A unit turns to face its nearest enemy when it is more than this many
/// degrees off its front (seed 000's baseline: its 45° frontal arc).
const FACE_DEGREES: f64 = 45.0;
/// A defending side charges only enemies this near (seed 000's
/// enemy-presence distance, ruling B6).
const DEFENDER_CHARGE_INCHES: f64 = 6.0;
/// An advancing unit stops this far inside its range.
const INSIDE_RANGE: f64 = 0.5;
/// Bearings off the straight line an advance tries, in order.
const FAN_DEGREES: [f64; 5] = [0.0, -30.0, 30.0, -60.0, 60.0];
/// Shares of the wanted distance an advance tries, longest first.
const SHARES: [f64; 3] = [1.0, 2.0 / 3.0, 1.0 / 3.0];

/// The baseline commanding some sides of a game.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    sides: Vec<usize>,
    /// The phase the units in `handled` were seen to in.
    phase_key: Option<(u32, String)>,
    /// Units already seen to in this phase.
    handled: BTreeSet<usize>,
    /// Every decision so far, oldest first.
    decisions: Vec<Decision>,
}

/// One of the baseline's decisions for a unit, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The unit's index in the game.
    pub unit: usize,
    /// Its name.
    pub name: String,
    /// The game turn.
    pub turn: u32,
    /// What it chose and why, naming the ruling (`fires at `Militia`, the
    /// weakest enemy it can fire at: 60% left, 8.5" away (HO22)`).
    pub why: String,
    /// What its action did, a line an event (empty when it stood).
    pub did: Vec<String>,
    /// It took no action: `why` says why it stood.
    pub stood: bool,
}

/// The baseline's next action, and the decision it records, if the action
/// is a unit's (ending a phase is no one's).
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    /// The action.
    pub action: Action,
    /// Its decision's index in [`Baseline::decisions`].
    pub decision: Option<usize>,
}

/// A choice with its reason; `Err` says why a unit does nothing.
type Reasoned<A> = Result<(A, String), String>;

/// An action, and the unit it is for with why (none: ending a phase).
type ForUnit<A> = (A, Option<(usize, String)>);

fn percent(strength: f64) -> String {
    format!("{:.0}%", strength * 100.0)
}

/// A unit as the baseline weighs it.
#[derive(Debug, Clone, Copy)]
struct Weighed {
    index: usize,
    /// Strength left, 0 to 1.
    strength: f64,
    /// Base-to-base distance from the unit deciding.
    distance: f64,
}

/// The weakest first (least strength left), then the nearest (to 1/1000"),
/// then the first listed: the order of HO21 and HO22.
fn weakest_first(a: &Weighed, b: &Weighed) -> std::cmp::Ordering {
    let thousandths = |d: f64| (d * 1000.0).round() as i64;
    a.strength
        .total_cmp(&b.strength)
        .then(thousandths(a.distance).cmp(&thousandths(b.distance)))
        .then(a.index.cmp(&b.index))
}

/// Whether `target` is weakened for a charger with `own` strength left:
/// half its strength gone, or less left than the charger has (HO21).
fn weakened(own: f64, target: f64) -> bool {
    target <= 0.5 + 1e-9 || target < own - 1e-9
}

impl Baseline {
    /// The baseline commanding `sides`.
    pub fn new(sides: Vec<usize>) -> Baseline {
        Baseline {
            sides,
            ..Baseline::default()
        }
    }

    /// The sides it commands.
    pub fn sides(&self) -> &[usize] {
        &self.sides
    }

    /// Whether it commands `side`.
    pub fn commands(&self, side: usize) -> bool {
        self.sides.contains(&side)
    }

    /// Every decision so far, oldest first.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// Note what decision `index`'s action did, a line an event.
    pub fn did(&mut self, index: usize, lines: Vec<String>) {
        if let Some(decision) = self.decisions.get_mut(index) {
            decision.did.extend(lines);
        }
    }

    fn decided(&mut self, game: &Game, unit: usize, why: String, stood: bool) -> usize {
        // The one name, not every unit's view (simulate decides often).
        let name = match game {
            Game::Rv(state) => state.units().get(unit).map(|u| u.name.clone()),
            Game::Acw(state) => state.units.get(unit).map(|u| u.name.clone()),
            Game::Awi(state) => state.units.get(unit).map(|u| u.name.clone()),
        }
        .unwrap_or_else(|| format!("#{unit}"));
        self.decisions.push(Decision {
            unit,
            name,
            turn: game.turn(),
            why,
            did: Vec::new(),
            stood,
        });
        self.decisions.len() - 1
    }

    /// The next action for the side to act, which the baseline commands;
    /// `None` when the game is over or under the seed-000 engine (which has
    /// its own baseline, [`crate::baseline`]).
    pub fn next_action(&mut self, game: &Game) -> Option<Action> {
        self.decide(game).map(|chosen| chosen.action)
    }

    /// [`Baseline::next_action`] with the decision it records: each unit's
    /// reason, and in seed 001's move phase why a unit stood.
    pub fn decide(&mut self, game: &Game) -> Option<Chosen> {
        let side = game.to_act()?;
        let key = (game.turn(), game.phase());
        if self.phase_key.as_ref() != Some(&key) {
            self.phase_key = Some(key);
            self.handled.clear();
        }
        let (action, reason) = match game {
            Game::Awi(_) => return None,
            Game::Rv(state) => {
                let (action, reason) = self.rv_next(game, state, side);
                (Action::Rv(action), reason)
            }
            Game::Acw(state) => match self
                .acw_next(state, side)
                .filter(|(action, _)| state.check(action).is_ok())
            {
                Some((action, reason)) => (Action::Acw(action), reason),
                None => (game.legal_actions().into_iter().next()?, None),
            },
        };
        let decision = reason.map(|(unit, why)| self.decided(game, unit, why, false));
        Some(Chosen { action, decision })
    }

    // ----- seed 001 ---------------------------------------------------------

    /// Seed 001's next action, and the unit it is for with why.
    fn rv_next(&mut self, game: &Game, state: &rv::GameState, side: usize) -> ForUnit<rv::Action> {
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
                    self.decided(game, unit, why, true);
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

fn nearest(enemies: &[Weighed]) -> Option<Weighed> {
    enemies.iter().copied().min_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then(a.strength.total_cmp(&b.strength))
            .then(a.index.cmp(&b.index))
    })
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
        (
            (enemy.distance - (range - INSIDE_RANGE).max(0.0)).min(allowance),
            format!(
                "advances on `{enemy_name}`, the nearest enemy, {} away: to the edge of its {} range (HO23)",
                inches(enemy.distance),
                inches(range)
            ),
        )
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

/// The first lawful straight move from `from` along `bearing` and then
/// 30° and 60° either side, at `wanted` inches, then two thirds and a
/// third of it (HO23).
fn advance_towards<A>(
    from: Point,
    bearing: f64,
    wanted: f64,
    lawful: &mut dyn FnMut(Point) -> Option<A>,
) -> Option<A> {
    if wanted <= 0.05 {
        return None;
    }
    for share in SHARES {
        for offset in FAN_DEGREES {
            let to = from + Vector::from_bearing(bearing + offset) * (wanted * share);
            if let Some(action) = lawful(to) {
                return Some(action);
            }
        }
    }
    None
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

/// Why a charge at the weakened enemy `e` (HO21, HO24).
fn charge_why(name: &str, own: f64, e: Weighed, defends: bool) -> String {
    let weakened = if e.strength <= 0.5 + 1e-9 {
        "half its strength gone".to_string()
    } else {
        format!("weaker than the charger's {}", percent(own))
    };
    let near = if defends {
        format!(", within the defender's {}", inches(DEFENDER_CHARGE_INCHES))
    } else {
        String::new()
    };
    format!(
        "charges `{name}`: weakened ({} left, {weakened}), the weakest it may charge, {} away{near} (HO21{})",
        percent(e.strength),
        inches(e.distance),
        if defends { ", HO24" } else { "" }
    )
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

// ----- seed 002 ---------------------------------------------------------------

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
    fn acw_next(&mut self, state: &acw::GameState, side: usize) -> Option<ForUnit<acw::Action>> {
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
fn acw_activate(state: &acw::GameState, unit: acw::UnitId) -> (acw::Action, String) {
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
            } => super::acw_formation(*formation),
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
        (
            (enemy.distance - (range - INSIDE_RANGE).max(0.0)).min(allowance),
            format!(
                "advances on `{enemy_name}`, the nearest enemy, {} away: to the edge of its {} range (HO23)",
                inches(enemy.distance),
                inches(range)
            ),
        )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::{Battlefield, DEFAULT_CELL};
    use crate::dice::Scripted;
    use crate::ruleset::Ruleset;
    use crate::scenario::Scenario;
    use crate::tables::Tables;
    use crate::yaml::Source;
    use std::sync::Arc;

    // ----- seed 001 -----------------------------------------------------------

    const BRITISH: usize = 0;
    const AMERICANS: usize = 1;

    fn rv_ruleset() -> Ruleset {
        Ruleset::builtin("ruinous-victory").unwrap().unwrap()
    }

    /// A unit of seed 001 in line, `bases` strong, at `(x, y)` facing `facing`.
    fn rv_unit(name: &str, side: usize, troop: &str, x: f64, y: f64, facing: f64) -> rv::UnitSetup {
        rv::UnitSetup {
            name: name.to_string(),
            side,
            troop: rv_ruleset().troop_type(troop).unwrap(),
            bases: 4,
            centre: Point::new(x, y),
            facing,
            formation: rv::Formation::Line,
            mounted: true,
            brigade: None,
        }
    }

    /// A seed-001 game on an open 48" table, at the British move phase.
    fn rv_game(units: Vec<rv::UnitSetup>) -> Game {
        let rules = rv_ruleset();
        let table = rv::RvTable::builtin("ruinous-victory", &rules)
            .unwrap()
            .unwrap();
        let setup = rv::GameSetup {
            battlefield: Arc::new(Battlefield::new(
                rules,
                48.0,
                48.0,
                DEFAULT_CELL,
                Vec::new(),
            )),
            sides: vec!["british".into(), "americans".into()],
            units,
            commanders: Vec::new(),
            turns: 3,
        };
        let (state, _) =
            rv::GameState::new(setup, Arc::new(table), &mut Scripted::new([])).unwrap();
        Game::Rv(Box::new(state))
    }

    /// End phases until `side`'s `kind` phase.
    fn rv_go_to(game: &mut Game, kind: rv::PhaseKind, side: usize) {
        for _ in 0..20 {
            if let Game::Rv(state) = game
                && state.phase().kind == kind
                && state.to_act() == Some(side)
            {
                return;
            }
            game.apply(&Action::Rv(rv::Action::EndPhase), &mut Scripted::new([]))
                .unwrap();
        }
        panic!("never reached {kind:?} for side {side}");
    }

    fn moved_to(action: Option<Action>) -> Point {
        match action {
            Some(Action::Rv(rv::Action::Move { to, .. })) => to,
            other => panic!("expected a move, got {other:?}"),
        }
    }

    #[test]
    fn seed_001_an_attacker_out_of_range_advances_to_the_edge_of_musket_range() {
        // 10" apart centre to centre: the musket reaches 6", so the line
        // stops half an inch inside it, short of a full move.
        let mut game = rv_game(vec![
            rv_unit("Guards", BRITISH, "guards", 24.0, 10.0, 0.0),
            rv_unit("Militia", AMERICANS, "militia", 24.0, 20.0, 180.0),
        ]);
        let Game::Rv(state) = &game else {
            unreachable!()
        };
        let gap = state.footprint(0).distance_to(&state.footprint(1));
        let allowance = state.allowance(0);
        assert!(
            gap - 5.5 < allowance,
            "the test wants a short advance: gap {gap}, allowance {allowance}"
        );
        let mut baseline = Baseline::new(vec![BRITISH]);
        let to = moved_to(baseline.next_action(&game));
        assert!((to.x - 24.0).abs() < 1e-6, "straight at the enemy: {to:?}");
        assert!(
            (to.y - 10.0 - (gap - 5.5)).abs() < 1e-6,
            "{to:?}, gap {gap}"
        );
        // In range now, it stands: the phase ends.
        game.apply(
            &Action::Rv(rv::Action::Move { unit: 0, to }),
            &mut Scripted::new([]),
        )
        .unwrap();
        assert_eq!(
            baseline.next_action(&game),
            Some(Action::Rv(rv::Action::EndPhase))
        );
    }

    #[test]
    fn seed_001_a_defender_holds_and_guns_stay_but_both_turn_to_face() {
        let mut game = rv_game(vec![
            rv_unit("Gun", BRITISH, "british-cannon", 10.0, 4.0, 0.0),
            rv_unit("Guards", BRITISH, "guards", 24.0, 4.0, 0.0),
            rv_unit("Militia", AMERICANS, "militia", 24.0, 40.0, 180.0),
        ]);
        // The gun, far out of its reach, stays; the Guards advance.
        let mut british = Baseline::new(vec![BRITISH]);
        match british.next_action(&game) {
            Some(Action::Rv(rv::Action::Move { unit: 1, .. })) => {}
            other => panic!("the Guards should advance first, got {other:?}"),
        }
        // The Americans defend (the rule set's defender): they do not move.
        rv_go_to(&mut game, rv::PhaseKind::Move, AMERICANS);
        let mut americans = Baseline::new(vec![AMERICANS]);
        assert_eq!(
            americans.next_action(&game),
            Some(Action::Rv(rv::Action::EndPhase))
        );
        // An enemy off the front: the unit pivots to face it instead.
        let game = rv_game(vec![
            rv_unit("Guards", BRITISH, "guards", 10.0, 10.0, 0.0),
            rv_unit("Militia", AMERICANS, "militia", 30.0, 10.0, 270.0),
        ]);
        match Baseline::new(vec![BRITISH]).next_action(&game) {
            Some(Action::Rv(rv::Action::Pivot { unit: 0, facing })) => {
                assert!((facing - 90.0).abs() < 1e-6, "{facing}");
            }
            other => panic!("expected a pivot, got {other:?}"),
        }
    }

    /// The reason of the decision `chosen` records.
    fn reason(baseline: &Baseline, chosen: &Chosen) -> String {
        let index = chosen.decision.expect("a unit's decision");
        baseline.decisions()[index].why.clone()
    }

    /// Each of seed 001's choices says why in words, naming the ruling; a
    /// unit that stands in the move phase says why too, and ending the
    /// phase is no one's decision.
    #[test]
    fn seed_001_the_baseline_says_why() {
        let mut game = rv_game(vec![
            rv_unit("Guards", BRITISH, "guards", 24.0, 10.0, 0.0),
            rv_unit("Militia", AMERICANS, "militia", 24.0, 20.0, 180.0),
        ]);
        let mut british = Baseline::new(vec![BRITISH]);
        let advance = british.decide(&game).unwrap();
        let why = reason(&british, &advance);
        assert!(
            why.starts_with("advances on `Militia`, the nearest enemy,")
                && why.ends_with("to the edge of its 6\" range (HO23)"),
            "{why}"
        );
        game.apply(&advance.action, &mut Scripted::new([])).unwrap();
        british.did(advance.decision.unwrap(), vec!["Guards move 3.5\".".into()]);
        let end = british.decide(&game).unwrap();
        assert_eq!(end.action, Action::Rv(rv::Action::EndPhase));
        assert_eq!(end.decision, None);
        assert_eq!(british.decisions()[0].did, ["Guards move 3.5\"."]);
        assert!(!british.decisions()[0].stood);
        // The defender's units stand, and say so.
        rv_go_to(&mut game, rv::PhaseKind::Move, AMERICANS);
        let mut americans = Baseline::new(vec![AMERICANS]);
        let end = americans.decide(&game).unwrap();
        assert_eq!(end.action, Action::Rv(rv::Action::EndPhase));
        let stood = &americans.decisions()[0];
        assert!(stood.stood);
        assert_eq!(stood.name, "Militia");
        assert!(
            stood
                .why
                .starts_with("stands: its side defends and never advances (HO24)"),
            "{}",
            stood.why
        );
        // In the shoot phase, it fires at the weakest in reach.
        rv_go_to(&mut game, rv::PhaseKind::Shoot, BRITISH);
        let fire = british.decide(&game).unwrap();
        assert!(matches!(
            fire.action,
            Action::Rv(rv::Action::Fire { unit: 0, target: 1 })
        ));
        let why = reason(&british, &fire);
        assert!(
            why.starts_with("fires at `Militia`, the weakest enemy it can fire at: 100% left,")
                && why.ends_with("(HO22)"),
            "{why}"
        );
        // An enemy off the front: a pivot, with the angle.
        let game = rv_game(vec![
            rv_unit("Guards", BRITISH, "guards", 10.0, 10.0, 0.0),
            rv_unit("Militia", AMERICANS, "militia", 30.0, 10.0, 270.0),
        ]);
        let mut baseline = Baseline::new(vec![BRITISH]);
        let pivot = baseline.decide(&game).unwrap();
        let why = reason(&baseline, &pivot);
        assert!(
            why.starts_with("turns to face `Militia`, the nearest enemy (")
                && why.ends_with("90° off its front (HO23)"),
            "{why}"
        );
    }

    #[test]
    fn seed_001_a_charge_says_why_the_target_is_weakened() {
        let e = Weighed {
            index: 1,
            strength: 0.5,
            distance: 2.0,
        };
        assert_eq!(
            charge_why("Militia", 1.0, e, false),
            "charges `Militia`: weakened (50% left, half its strength gone), the weakest it may charge, 2\" away (HO21)"
        );
        let e = Weighed { strength: 0.8, ..e };
        assert_eq!(
            charge_why("Militia", 1.0, e, true),
            "charges `Militia`: weakened (80% left, weaker than the charger's 100%), the weakest it may charge, 2\" away, within the defender's 6\" (HO21, HO24)"
        );
    }

    // ----- seed 002 -----------------------------------------------------------

    /// A seed-002 scenario: the union (north) must take the plateau in the
    /// middle; its infantry at `union`, the confederates' at `confederates`.
    fn acw_game(union: &[(f64, f64)], confederates: &[(f64, f64)]) -> Game {
        acw_game_on("", union, confederates)
    }

    /// [`acw_game`] with `terrain` (YAML list items) on the table.
    fn acw_game_on(terrain: &str, union: &[(f64, f64)], confederates: &[(f64, f64)]) -> Game {
        let unit = |side: &str, n: usize, (x, y): &(f64, f64), facing: &str| {
            format!(
                "      - {{ name: {side} {n}, troop_type: infantry, position: [{x}, {y}], facing: {facing} }}\n"
            )
        };
        let mut text = String::from(
            "name: test\ntitle: test\nruleset: ohw-acw\ntable: { width: 36, height: 36 }\nturns: 3\nfirst: union\n\
             areas:\n  - { name: the plateau, rect: [[12, 16], [24, 20]] }\n",
        );
        if !terrain.is_empty() {
            text.push_str("terrain:\n");
            text.push_str(terrain);
        }
        text.push_str("sides:\n  - name: union\n    edge: north\n    units:\n");
        for (n, at) in union.iter().enumerate() {
            text.push_str(&unit("Union", n, at, "south"));
        }
        text.push_str("  - name: confederates\n    edge: south\n    units:\n");
        for (n, at) in confederates.iter().enumerate() {
            text.push_str(&unit("Reb", n, at, "north"));
        }
        text.push_str(
            "victory:\n  - winner: union\n    when: { hold_area: { side: union, area: the plateau } }\n\
             \x20 - winner: confederates\n    when: { rout_fraction: { side: union, more_than: 0.5 } }\n",
        );
        let scenario: Scenario =
            crate::scenario::load(Source::new("test.yaml", &text), Ruleset::builtin).unwrap();
        let (game, _) =
            Game::start(&scenario, &Tables::embedded(), &mut Scripted::new([6; 40])).unwrap();
        game
    }

    fn acw_state(game: &mut Game) -> &mut acw::GameState {
        match game {
            Game::Acw(state) => state,
            _ => unreachable!(),
        }
    }

    /// Unit `unit` alone holds a die, and it is up.
    fn activate(game: &mut Game, unit: usize) {
        let state = acw_state(game);
        for (index, u) in state.units.iter_mut().enumerate() {
            u.die = (index == unit).then_some(6);
            u.activated = false;
            u.tie_rolls.clear();
        }
        state.phase = acw::Phase::Activating;
    }

    fn acted(game: &Game, side: usize) -> acw::Action {
        match Baseline::new(vec![side]).next_action(game) {
            Some(Action::Acw(action)) => action,
            other => panic!("expected a seed-002 action, got {other:?}"),
        }
    }

    #[test]
    fn seed_002_it_fires_at_the_most_hit_enemy_in_reach_not_the_nearest() {
        // Union 0 faces two enemies in musket range: Reb 0 nearer, Reb 1
        // farther.
        let mut game = acw_game(&[(18.0, 24.0)], &[(18.0, 18.0), (21.0, 16.5)]);
        activate(&mut game, 0);
        let fire = |target| acw::Action::Fire {
            unit: acw::UnitId(0),
            target: acw::UnitId(target),
        };
        assert_eq!(acted(&game, 0), fire(1), "both unhurt: the nearest");
        acw_state(&mut game).units[2].hits = 2;
        assert_eq!(acted(&game, 0), fire(2), "the most hit, though farther");
    }

    #[test]
    fn seed_002_it_charges_a_weakened_enemy_and_only_a_weakened_one() {
        let mut game = acw_game(&[(18.0, 21.0)], &[(18.0, 17.0)]);
        activate(&mut game, 0);
        let unhurt = acted(&game, 0);
        assert!(
            matches!(unhurt, acw::Action::Fire { .. }),
            "an unhurt enemy is shot at: {unhurt:?}"
        );
        let removed_at = acw_state(&mut game).table.removed_at;
        acw_state(&mut game).units[1].hits = removed_at / 2 + 1;
        assert_eq!(
            acted(&game, 0),
            acw::Action::Charge {
                unit: acw::UnitId(0),
                target: acw::UnitId(1)
            }
        );
    }

    /// Seed 002's choices say why too: the die given out, the shot, the
    /// charge at a weakened enemy.
    #[test]
    fn seed_002_the_baseline_says_why() {
        let mut game = acw_game(&[(18.0, 21.0)], &[(18.0, 17.0)]);
        activate(&mut game, 0);
        let mut baseline = Baseline::new(vec![0]);
        let fire = baseline.decide(&game).unwrap();
        let why = reason(&baseline, &fire);
        assert!(
            why.starts_with("fires at `Reb 0`, the weakest enemy it can fire at: 100% left,"),
            "{why}"
        );
        assert_eq!(baseline.decisions()[0].name, "Union 0");
        let removed_at = acw_state(&mut game).table.removed_at;
        acw_state(&mut game).units[1].hits = removed_at / 2 + 1;
        let charge = Baseline::new(vec![0]).decide(&game).unwrap();
        assert!(matches!(
            charge.action,
            Action::Acw(acw::Action::Charge { .. })
        ));
        let mut baseline = Baseline::new(vec![0]);
        let charge = baseline.decide(&game).unwrap();
        let why = reason(&baseline, &charge);
        assert!(why.starts_with("charges `Reb 0`: weakened ("), "{why}");
        assert!(why.ends_with("(HO21)"), "{why}");
    }

    #[test]
    fn seed_002_the_attacker_advances_to_the_edge_of_range_and_the_defender_holds() {
        // 14" apart: the union (which must take the plateau) closes to half
        // an inch inside its 12" musket range; the confederates hold.
        let mut game = acw_game(&[(18.0, 33.0)], &[(18.0, 19.0)]);
        activate(&mut game, 0);
        let gap = {
            let state = acw_state(&mut game);
            state.units[0].base.distance_to(&state.units[1].base)
        };
        match acted(&game, 0) {
            acw::Action::Move { to, .. } => {
                let closed = 33.0 - to.y;
                assert!((closed - (gap - 11.5)).abs() < 1e-6, "{to:?}, gap {gap}");
            }
            other => panic!("expected an advance, got {other:?}"),
        }
        activate(&mut game, 1);
        assert_eq!(
            acted(&game, 1),
            acw::Action::Hold {
                unit: acw::UnitId(1)
            }
        );
        // The reason says it had no shot first: a defender still fires.
        let (_, why) = acw_activate(acw_state(&mut game), acw::UnitId(1));
        assert!(
            why.starts_with("holds: no shot, and its side defends and never advances (HO24)")
                && why.ends_with("out of its 12\" range"),
            "{why}"
        );
    }

    #[test]
    fn seed_002_a_column_near_the_enemy_forms_line_to_fire() {
        let mut game = acw_game(&[(18.0, 30.0)], &[(18.0, 19.0)]);
        acw_state(&mut game).units[0].formation = acw::Formation::Column;
        activate(&mut game, 0);
        match acted(&game, 0) {
            acw::Action::Move {
                formation: Some(acw::Formation::Line),
                ..
            } => {}
            other => panic!("expected it to form line, got {other:?}"),
        }
        // Far off, the column marches on in column.
        let mut game = acw_game(&[(18.0, 34.0)], &[(18.0, 2.0)]);
        acw_state(&mut game).units[0].formation = acw::Formation::Column;
        activate(&mut game, 0);
        match acted(&game, 0) {
            acw::Action::Move {
                formation: None, ..
            } => {}
            other => panic!("expected it to march in column, got {other:?}"),
        }
    }

    #[test]
    fn seed_002_in_range_without_a_shot_the_attacker_closes_half_a_move() {
        // A wood between them hides the enemy, 8" off and in range.
        let woods = "  - { kind: woods, name: the wood, rect: [[10, 20], [26, 22]] }\n";
        let mut game = acw_game_on(woods, &[(18.0, 26.0)], &[(18.0, 17.0)]);
        activate(&mut game, 0);
        let fire = acw::Action::Fire {
            unit: acw::UnitId(0),
            target: acw::UnitId(1),
        };
        assert!(
            acw_state(&mut game).check(&fire).is_err(),
            "the wood hides it"
        );
        let half = {
            let state = acw_state(&mut game);
            state
                .table
                .move_of(state.units[0].troop, state.units[0].formation)
                .unwrap()
                / 2.0
        };
        match acted(&game, 0) {
            acw::Action::Move { to, .. } => {
                assert!((26.0 - to.y - half).abs() < 1e-6, "{to:?}");
            }
            other => panic!("expected it to close in, got {other:?}"),
        }
    }

    #[test]
    fn seed_002_the_highest_die_goes_to_the_unit_nearest_the_enemy() {
        let mut game = acw_game(&[(6.0, 33.0), (30.0, 25.0)], &[(30.0, 10.0)]);
        let state = acw_state(&mut game);
        state.phase = acw::Phase::Assigning { side: 0 };
        let best = state.dice_to_assign(0).iter().copied().max().unwrap();
        assert_eq!(
            acted(&game, 0),
            acw::Action::AssignDie {
                die: best,
                unit: acw::UnitId(1)
            }
        );
    }
}
