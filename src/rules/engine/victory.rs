//! The scenario's *Victory Conditions* and *Game Length*: rout and exit
//! conditions checked after every phase, areas held deciding at the end of
//! the last turn, else a draw; both sides meeting theirs at once is a draw.
//! Ruling "Victory".

use crate::rules::event::Event;
use crate::rules::state::{Condition, GameState, Outcome, Unit};

impl GameState {
    /// The last turn is over: areas held decide, else a draw.
    pub(super) fn finish(&mut self, events: &mut Vec<Event>) {
        let held: Vec<(usize, usize)> = self
            .victory
            .iter()
            .enumerate()
            .filter_map(|(index, victory)| match &victory.when {
                Condition::HoldArea { side, min, max, .. } => {
                    let inside = |u: &&Unit| {
                        u.is_active()
                            && (min.x..=max.x).contains(&u.base.centre.x)
                            && (min.y..=max.y).contains(&u.base.centre.y)
                    };
                    let ours = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side)
                        .any(|u| inside(&u));
                    let theirs = self
                        .units
                        .iter()
                        .filter(|u| u.side != *side)
                        .any(|u| inside(&u));
                    (ours && !theirs).then_some((victory.winner, index))
                }
                _ => None,
            })
            .collect();
        self.declare(&held, events);
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::Draw);
            events.push(Event::GameEnded { draw: true });
        }
    }

    /// Declare the result of the conditions met: one side, or a draw if both.
    fn declare(&mut self, met: &[(usize, usize)], events: &mut Vec<Event>) -> bool {
        let Some(&(winner, condition)) = met.first() else {
            return false;
        };
        if met.iter().any(|(side, _)| *side != winner) {
            self.outcome = Some(Outcome::Draw);
            events.push(Event::GameEnded { draw: true });
        } else {
            self.outcome = Some(Outcome::Won {
                side: winner,
                condition,
            });
            events.push(Event::Victory { winner, condition });
            events.push(Event::GameEnded { draw: false });
        }
        true
    }

    /// Check the rout and exit conditions (after every phase).
    pub(super) fn check_victory(&mut self, events: &mut Vec<Event>) -> bool {
        let met: Vec<(usize, usize)> = self
            .victory
            .iter()
            .enumerate()
            .filter(|(_, victory)| match &victory.when {
                Condition::RoutFraction { side, more_than } => {
                    let starting = self.sides[*side].starting_units as f64;
                    starting > 0.0 && self.lost(*side) as f64 > more_than * starting + 1e-9
                }
                Condition::RoutOrExit { side, troop, count } => {
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.troop == *troop && !u.is_active())
                        .count();
                    lost as u32 >= *count
                }
                Condition::HoldArea { .. } => false,
            })
            .map(|(index, victory)| (victory.winner, index))
            .collect();
        self.declare(&met, events)
    }
}
