//! Seed 002's dice driven initiative, in place of the sequence of play: a
//! die per unit thrown and assigned by each side (optional rules #1
//! initiative, #2 drafting, #3 good commanders' extra dice), units acting
//! from the highest die down, equal opposed dice thrown again, and the
//! turn ending when every die is used. Rulings AC2, AC3.

use crate::acw::event::Event;
use crate::acw::state::{GameState, Outcome, Phase, UnitId};
use crate::dice::Roller;

/// Most throws to settle the initiative or a tie before a fixed order
/// decides (ruling AC2): a forced die could repeat for ever.
const MAX_THROWS: usize = 100;

impl GameState {
    /// The side to act, `None` when the game is over.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            Phase::Assigning { side } => Some(side),
            Phase::Activating => self.up_next().first().map(|id| self.unit(*id).side),
            Phase::ChargeResponse { target, .. } => Some(self.unit(target).side),
            Phase::Over => None,
        }
    }

    /// The units whose die is up: the highest unused die (with its tie
    /// re-rolls). They all belong to one side; that side picks which acts.
    pub fn up_next(&self) -> Vec<UnitId> {
        if self.phase != Phase::Activating {
            return Vec::new();
        }
        let pending = || {
            self.units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.has_unused_die())
        };
        let Some(best) = pending().map(|(_, u)| u.key()).max() else {
            return Vec::new();
        };
        pending()
            .filter(|(_, u)| u.key() == best)
            .map(|(i, _)| UnitId(i))
            .collect()
    }

    pub(super) fn activate(&mut self, id: UnitId, events: &mut Vec<Event>) {
        let unit = &mut self.units[id.0];
        unit.activated = true;
        events.push(Event::Activated {
            unit: id,
            die: unit.die.unwrap_or(0),
        });
    }

    pub(super) fn do_assign(&mut self, die: u8, id: UnitId, events: &mut Vec<Event>) {
        let side = self.unit(id).side;
        let pool = if self.optional.draft {
            &mut self.pile
        } else {
            &mut self.pools[side]
        };
        if let Some(position) = pool.iter().position(|d| *d == die) {
            pool.remove(position);
        }
        self.units[id.0].die = Some(die);
        events.push(Event::DieAssigned {
            side,
            unit: id,
            die,
        });
        let other = 1 - side;
        let waiting = |s: usize| self.unassigned(s).next().is_some();
        let next = if self.optional.draft {
            // Optional rule #2: the sides take dice in turn.
            if waiting(other) {
                Some(other)
            } else if waiting(side) {
                Some(side)
            } else {
                None
            }
        } else if waiting(side) {
            Some(side)
        } else if waiting(other) {
            Some(other)
        } else {
            None
        };
        match next {
            Some(side) => self.phase = Phase::Assigning { side },
            None => self.start_activation(events),
        }
    }

    fn start_activation(&mut self, events: &mut Vec<Event>) {
        if self.optional.draft && !self.pile.is_empty() {
            events.push(Event::DiceDiscarded {
                side: None,
                dice: std::mem::take(&mut self.pile),
            });
        }
        for side in 0..2 {
            if !self.pools[side].is_empty() {
                events.push(Event::DiceDiscarded {
                    side: Some(side),
                    dice: std::mem::take(&mut self.pools[side]),
                });
            }
        }
        self.phase = Phase::Activating;
    }

    pub(super) fn begin_turn(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            self.phase = Phase::Over;
            return;
        }
        // A table with nobody left on it has nothing more to play (and no
        // die to throw): the game ends as it would at the last turn.
        if self.turn >= self.turns || self.units.iter().all(|u| u.removed) {
            self.finish_at_time(events);
            return;
        }
        self.turn += 1;
        events.push(Event::TurnBegan { turn: self.turn });
        for unit in &mut self.units {
            unit.die = None;
            unit.tie_rolls.clear();
            unit.activated = false;
        }
        let counts: [usize; 2] = [0, 1].map(|side| self.active_units(side).count());
        let extra: [usize; 2] = [0, 1].map(|side| {
            if self.optional.good_commanders {
                self.sides[side].extra_dice as usize
            } else {
                0
            }
        });
        // Optional rule #1: the initiative; the loser assigns first.
        let mut first = self.first;
        let mut winner = None;
        if self.optional.initiative {
            let mut rolls = Vec::new();
            for _ in 0..MAX_THROWS {
                let a = roller.roll_for(
                    self.table.initiative_die,
                    format_args!("{}'s initiative", self.sides[0].name),
                );
                let b = roller.roll_for(
                    self.table.initiative_die,
                    format_args!("{}'s initiative", self.sides[1].name),
                );
                rolls.push([a, b]);
                if a != b {
                    winner = Some(usize::from(b > a));
                    break;
                }
            }
            let won = winner.unwrap_or(self.first);
            events.push(Event::InitiativeRolled { rolls, winner: won });
            winner = Some(won);
            first = 1 - won;
        }
        let die = self.table.activation_die;
        if self.optional.draft {
            // Optional rule #2: one pile, taken in turn; ruling AC2: the
            // initiative winner takes first.
            let n = counts[0] + counts[1] + extra[0] + extra[1];
            let mut pile = roller.roll_many(die, n, format_args!("the activation pile"));
            pile.sort_unstable_by(|a, b| b.cmp(a));
            events.push(Event::DiceRolled {
                side: None,
                dice: pile.clone(),
            });
            self.pile = pile;
            if let Some(won) = winner {
                first = won;
            }
        } else {
            for side in 0..2 {
                let mut dice = roller.roll_many(
                    die,
                    counts[side] + extra[side],
                    format_args!("{}'s activation dice", self.sides[side].name),
                );
                dice.sort_unstable_by(|a, b| b.cmp(a));
                events.push(Event::DiceRolled {
                    side: Some(side),
                    dice: dice.clone(),
                });
                // Optional rule #3: the worst are discarded.
                let discarded = dice.split_off(counts[side]);
                if !discarded.is_empty() {
                    events.push(Event::DiceDiscarded {
                        side: Some(side),
                        dice: discarded,
                    });
                }
                self.pools[side] = dice;
            }
        }
        let waiting = |s: usize| self.unassigned(s).next().is_some();
        if waiting(first) {
            self.phase = Phase::Assigning { side: first };
        } else if waiting(1 - first) {
            self.phase = Phase::Assigning { side: 1 - first };
        } else {
            self.start_activation(events);
            self.advance(roller, events);
        }
    }

    /// After an action: break opposed ties at the top, or end the turn.
    pub(super) fn advance(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            self.phase = Phase::Over;
            return;
        }
        if self.phase != Phase::Activating {
            return;
        }
        for _ in 0..MAX_THROWS {
            let up = self.up_next();
            if up.is_empty() {
                events.push(Event::TurnEnded { turn: self.turn });
                self.begin_turn(roller, events);
                return;
            }
            let sides: Vec<usize> = up.iter().map(|id| self.unit(*id).side).collect();
            if !sides.contains(&0) || !sides.contains(&1) {
                return;
            }
            // Seed 002: opposed units with the same die throw again, the
            // higher going first. Ruling AC2: the order always matters.
            for id in up {
                let roll = roller.roll_for(
                    self.table.roll_off_die,
                    format_args!("{}'s re-roll of equal dice", self.unit(id).name),
                );
                self.units[id.0].tie_rolls.push(roll);
                events.push(Event::TieRolled { unit: id, roll });
            }
        }
        // Still tied after every throw: side order decides (unit ids).
        let up = self.up_next();
        for id in up {
            let side = self.unit(id).side as u8;
            self.units[id.0]
                .tie_rolls
                .push(if side == self.first as u8 { 1 } else { 0 });
        }
    }
}
