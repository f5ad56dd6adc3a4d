//! The scripted baseline of every rule set (rulings B1–B9 for seed 000,
//! HO20–HO25 for seeds 001 and 002): a deliberately simple player to
//! measure foe's Lone Warrior opponent against. It is not
//! Lone Warrior: no reaction test, no dice, nothing remembered between
//! phases but which units it has already seen to in this one (and, under
//! seed 000, how its defence lines stand). Every
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
//! The policy is one; each engine's reading of it is its own module,
//! deciding a step at a time: [`awi`] for seed 000 (with its reserves,
//! generals and defence lines), whose commanders (`super::awi`) take
//! its steps as the runner asks; `rv` for seed 001 and `acw`
//! for seed 002, which the engine's adapter calls through the commander
//! boundary ([`super::command::Command::baseline_next`]).
//!
//! Pure: no dice, no clock, no I/O.

mod acw;
pub mod awi;
mod rv;

use super::{Action, Game};
use crate::battlefield::Point;
use crate::battlefield::geometry::{Vector, inches};
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

    /// Record a decision about `unit`, named `name`, in turn `turn`.
    fn decided(
        &mut self,
        (turn, name): (u32, Option<String>),
        unit: usize,
        why: String,
        stood: bool,
    ) -> usize {
        let name = name.unwrap_or_else(|| format!("#{unit}"));
        self.decisions.push(Decision {
            unit,
            name,
            turn,
            why,
            did: Vec::new(),
            stood,
        });
        self.decisions.len() - 1
    }

    /// The next action for the side to act, which the baseline commands;
    /// `None` when the game is over or under the seed-000 engine (whose
    /// sides its own commanders play, with [`awi::AwiBaseline`]).
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
        let (action, reason) = game.baseline_next(self, side)?;
        let decision = reason.map(|(unit, why)| {
            // The one name, not every unit's view (simulate decides often).
            let named = (game.turn(), game.unit_name(unit));
            self.decided(named, unit, why, false)
        });
        Some(Chosen { action, decision })
    }
}

fn nearest(enemies: &[Weighed]) -> Option<Weighed> {
    enemies.iter().copied().min_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then(a.strength.total_cmp(&b.strength))
            .then(a.index.cmp(&b.index))
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

/// An advance on the nearest enemy, `enemy_name` at `distance`, out of
/// `range`: how far (to just inside the range, at most `allowance`) and
/// why (HO23).
fn to_the_edge_of_range(
    enemy_name: &str,
    distance: f64,
    range: f64,
    allowance: f64,
) -> (f64, String) {
    (
        (distance - (range - INSIDE_RANGE).max(0.0)).min(allowance),
        format!(
            "advances on `{enemy_name}`, the nearest enemy, {} away: to the edge of its {} range (HO23)",
            inches(distance),
            inches(range)
        ),
    )
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

#[cfg(test)]
mod tests;
