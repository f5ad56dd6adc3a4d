//! Seed 004's general officers under seed 001 (ruling HO14): a commander
//! of a side foe commands tests when one of the seed's three triggers
//! holds at the start of his side's bound (own troops routing or
//! withdrawing, the enemy attacking within 6", the enemy routing or
//! withdrawing: O16, once a bound, the first in the seed's order), rolling
//! d100 on his character's chart (a `rolled` character is rolled on d100
//! at his first test); he then carries out the reaction in his side's move
//! phase: A rides to the most stricken unit he may lead and joins it, B
//! rides to the centre of the front line, C and D stand (seed 001's
//! scenario gives no reinforcement table: O17), E rides to the rear and,
//! once at his own table edge, is out of the battle for good.

use super::Opponent;
use crate::battlefield::geometry::Vector;
use crate::battlefield::{Edge, Point};
use crate::dice::{Die, Roller};
use crate::rv;
use crate::scenario::{GeneralCharacter, Scenario};
use crate::tables::{Character, Reaction, Trigger};

/// How near his own edge, in inches, a commander riding to the rear is
/// off the table for good.
const AT_THE_EDGE: f64 = 0.5;

/// A commander's reaction test, with its reasons.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneralTest {
    /// The commander's index in the game.
    pub commander: usize,
    /// His name.
    pub name: String,
    /// The game turn.
    pub turn: u32,
    /// What made him test.
    pub trigger: Trigger,
    /// His character, and the d100 it was rolled with (for a `rolled` one,
    /// at his first test).
    pub character: (Character, Option<u8>),
    /// The d100 roll and the reaction it gives.
    pub roll: u8,
    /// The reaction.
    pub reaction: Reaction,
    /// What he did, in order.
    pub did: Vec<String>,
}

impl GeneralTest {
    /// The test in one line, as the report prints it.
    pub fn line(&self) -> String {
        let rolled = match self.character.1 {
            Some(roll) => format!(" (d100 {roll})"),
            None => String::new(),
        };
        format!(
            "{}: {}{rolled}, d100 {}: {}",
            self.trigger.id().replace('-', " "),
            self.character.0,
            self.roll,
            self.reaction
        )
    }
}

/// The scenario's generals' characters, in the engines' order of
/// commanders (each side's generals in turn): `None` for one to roll.
pub(super) fn characters(scenario: &Scenario) -> Vec<Option<Character>> {
    scenario
        .sides
        .iter()
        .flat_map(|side| &side.generals)
        .map(|general| match general.character {
            GeneralCharacter::Fixed(character) => Some(character),
            GeneralCharacter::Rolled => None,
        })
        .collect()
}

impl Opponent {
    /// Which of the seed's triggers holds for `side` at the start of its
    /// bound in turn `turn`, the first in the seed's order (O16).
    pub(super) fn rv_trigger(
        &self,
        state: &rv::GameState,
        side: usize,
        turn: u32,
    ) -> Option<Trigger> {
        let units = state.units();
        let in_play = |u: usize| !state.is_removed(u) || self.withdrew.contains_key(&u);
        let own_falling = (0..units.len()).any(|u| {
            units[u].side == side
                && in_play(u)
                && (self.fell_back_lately(u, turn) || state.is_reforming(u))
        });
        let attacked = self
            .attacked
            .get(&side)
            .is_some_and(|&when| when.saturating_add(1) >= turn);
        let enemy_falling = (0..units.len())
            .any(|u| units[u].side != side && in_play(u) && self.fell_back_lately(u, turn));
        [
            (own_falling, Trigger::OwnTroopsWithdrawing),
            (attacked, Trigger::EnemyAttackingWithin6),
            (enemy_falling, Trigger::EnemyWithdrawing),
        ]
        .into_iter()
        .find_map(|(holds, trigger)| holds.then_some(trigger))
    }

    /// At the start of `side`'s bound, each of its commanders still in the
    /// battle tests if a trigger holds (rolling his character first if it
    /// is to be rolled); the reactions are carried out in the move phase.
    pub(super) fn rv_general_tests(
        &mut self,
        state: &rv::GameState,
        side: usize,
        roller: &mut dyn Roller,
    ) {
        self.reactions.clear();
        let turn = state.turn();
        let Some(trigger) = self.rv_trigger(state, side, turn) else {
            return;
        };
        for (index, commander) in state.commanders().iter().enumerate() {
            if commander.side != side || commander.lost || self.gone.contains(&index) {
                continue;
            }
            let known = self.characters.get(index).copied().flatten();
            let character = match known {
                Some(character) => (character, None),
                None => {
                    let roll =
                        roller.roll_for(Die::D100, format_args!("{}'s character", commander.name));
                    let character = self.tables.characters.roll(roll);
                    if let Some(slot) = self.characters.get_mut(index) {
                        *slot = Some(character);
                    }
                    (character, Some(roll))
                }
            };
            let roll = roller.roll_for(Die::D100, format_args!("{}'s reaction", commander.name));
            let reaction = self.tables.generals.reaction(character.0, roll);
            self.reactions.insert(index, self.general_tests.len());
            self.general_tests.push(GeneralTest {
                commander: index,
                name: commander.name.clone(),
                turn,
                trigger,
                character,
                roll,
                reaction,
                did: Vec::new(),
            });
        }
    }

    /// The next action of a commander carrying out his reaction this
    /// bound, if any; each is asked once (`handled_commanders`).
    pub(super) fn rv_general_reactions(
        &mut self,
        state: &rv::GameState,
        side: usize,
    ) -> Option<rv::Action> {
        let reacting: Vec<(usize, usize)> = self.reactions.iter().map(|(&c, &t)| (c, t)).collect();
        for (index, test) in reacting {
            let commander = &state.commanders()[index];
            if commander.side != side
                || commander.lost
                || commander.acted
                || !self.handled_commanders.insert(index)
            {
                continue;
            }
            let reaction = self.general_tests[test].reaction;
            let chosen = match reaction {
                Reaction::A => Self::rv_to_stricken(state, index),
                Reaction::B => Self::rv_to_front(state, index, self.rear(side)),
                Reaction::C => None,
                Reaction::D => {
                    self.general_tests[test]
                        .did
                        .push("no reinforcements to call: he stands (ruling O17)".into());
                    None
                }
                Reaction::E => self.rv_to_rear(state, index),
            };
            if let Some((action, what)) = chosen {
                self.general_tests[test].did.push(what);
                return Some(action);
            }
        }
        None
    }

    /// Reaction A: join the most stricken unit he may lead (most bases
    /// lost, then nearest the enemy), or ride towards it.
    fn rv_to_stricken(state: &rv::GameState, index: usize) -> Option<(rv::Action, String)> {
        let commander = &state.commanders()[index];
        let units = state.units();
        let stricken = (0..units.len())
            .filter(|&u| {
                let unit = &units[u];
                unit.side == commander.side
                    && !state.is_removed(u)
                    && (commander.overall
                        || unit.brigade.as_deref() == Some(commander.name.as_str()))
            })
            .map(|u| {
                let lost = units[u].start_bases.saturating_sub(units[u].bases);
                let near = Self::rv_enemy_distance(state, u).unwrap_or(f64::INFINITY);
                (u, lost, near)
            })
            .min_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)))?
            .0;
        if commander.attached == Some(stricken) {
            return None;
        }
        let name = &units[stricken].name;
        let join = rv::Action::Join {
            commander: index,
            unit: stricken,
        };
        if commander.attached.is_none() && state.check(&join).is_ok() {
            return Some((join, format!("joined `{name}`, his most stricken unit")));
        }
        Self::rv_ride(state, index, units[stricken].centre, 1.0).map(|(action, gone)| {
            (
                action,
                format!("rode {gone:.1}\" towards `{name}`, his most stricken unit"),
            )
        })
    }

    /// Reaction B: ride to the centre of the front line: the mean of his
    /// side's units within 4" (towards the enemy) of the most advanced
    /// (O15).
    fn rv_to_front(state: &rv::GameState, index: usize, rear: f64) -> Option<(rv::Action, String)> {
        let commander = &state.commanders()[index];
        let units = state.units();
        let forward = Vector::from_bearing(rear + 180.0);
        let own: Vec<Point> = (0..units.len())
            .filter(|&u| units[u].side == commander.side && !state.is_removed(u))
            .map(|u| units[u].centre)
            .collect();
        let ahead = |p: Point| (p - Point::new(0.0, 0.0)).dot(forward);
        let front = own
            .iter()
            .map(|p| ahead(*p))
            .fold(f64::NEG_INFINITY, f64::max);
        let line: Vec<Point> = own
            .into_iter()
            .filter(|p| ahead(*p) >= front - 4.0)
            .collect();
        if line.is_empty() {
            return None;
        }
        let n = line.len() as f64;
        let centre = Point::new(
            line.iter().map(|p| p.x).sum::<f64>() / n,
            line.iter().map(|p| p.y).sum::<f64>() / n,
        );
        if commander.at.distance(centre) < 1.0 {
            return None;
        }
        Self::rv_ride(state, index, centre, 0.0).map(|(action, gone)| {
            (
                action,
                format!("rode {gone:.1}\" to the centre of the front line"),
            )
        })
    }

    /// Reaction E: ride to the rear, straight back to his own edge; there,
    /// he is out of the battle for good.
    fn rv_to_rear(&mut self, state: &rv::GameState, index: usize) -> Option<(rv::Action, String)> {
        let commander = &state.commanders()[index];
        let rear = self.rear(commander.side);
        let field = state.battlefield();
        let edge = Edge::ALL
            .iter()
            .copied()
            .find(|e| (e.bearing() - rear).abs() < 1e-6)?;
        let (at, width, height) = (commander.at, field.width(), field.height());
        let goal = match edge {
            Edge::North => Point::new(at.x, height - AT_THE_EDGE),
            Edge::South => Point::new(at.x, AT_THE_EDGE),
            Edge::East => Point::new(width - AT_THE_EDGE, at.y),
            Edge::West => Point::new(AT_THE_EDGE, at.y),
        };
        let riding = Self::rv_ride(state, index, goal, 0.0);
        let reaches = riding.as_ref().is_none_or(|(action, _)| match action {
            rv::Action::MoveCommander { to, .. } | rv::Action::Leave { to, .. } => {
                to.distance(goal) < 1e-6
            }
            _ => false,
        });
        if reaches {
            self.gone.insert(index);
        }
        let off = if reaches {
            ": at his own edge, he leaves the battle and will not return"
        } else {
            ""
        };
        match riding {
            Some((action, gone)) => Some((action, format!("rode {gone:.1}\" to the rear{off}"))),
            None => {
                if let Some(&test) = self.reactions.get(&index) {
                    self.general_tests[test]
                        .did
                        .push(format!("already at the rear{off}"));
                }
                None
            }
        }
    }

    /// A ride of at most a commander's move towards `goal`, stopping
    /// `short` of it: a move, or leaving the unit he is with; with the
    /// inches ridden. `None` when he is there or cannot go.
    fn rv_ride(
        state: &rv::GameState,
        index: usize,
        goal: Point,
        short: f64,
    ) -> Option<(rv::Action, f64)> {
        let commander = &state.commanders()[index];
        let gap = commander.at.distance(goal) - short;
        if gap <= 1e-6 {
            return None;
        }
        let step = state.table().commander_move.min(gap);
        let to = commander.at + (goal - commander.at) * (step / commander.at.distance(goal));
        let action = match commander.attached {
            Some(_) => rv::Action::Leave {
                commander: index,
                to,
            },
            None => rv::Action::MoveCommander {
                commander: index,
                to,
            },
        };
        state.check(&action).is_ok().then_some((action, step))
    }
}
