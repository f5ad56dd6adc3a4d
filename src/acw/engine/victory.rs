//! The scenario's victory conditions, checked after every action, and the
//! game ending at its last turn.

use crate::acw::event::Event;
use crate::acw::state::{GameState, Outcome, Phase};
use crate::scenario::Condition;

impl GameState {
    pub(super) fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome != Outcome::Playing {
            return;
        }
        for (condition, victory) in self.victory.iter().enumerate() {
            let won = match &victory.when {
                Condition::RoutFraction { side, more_than } => {
                    let total = self.units.iter().filter(|u| u.side == *side).count();
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.removed)
                        .count();
                    total > 0 && (lost as f64) > more_than * total as f64
                }
                Condition::RoutOrExit {
                    side,
                    troop_type,
                    count,
                } => {
                    let lost = self
                        .units
                        .iter()
                        .filter(|u| u.side == *side && u.removed && u.troop == *troop_type)
                        .count();
                    lost as u64 >= u64::from(*count)
                }
                Condition::HoldArea { .. } => false,
            };
            if won {
                let reason = match &victory.when {
                    Condition::RoutFraction { side, more_than } => format!(
                        "{} lost more than {}% of its units",
                        self.sides[*side].name,
                        (more_than * 100.0).round()
                    ),
                    Condition::RoutOrExit { side, count, .. } => {
                        format!(
                            "{} lost {count} of the units that mattered",
                            self.sides[*side].name
                        )
                    }
                    Condition::HoldArea { .. } => String::new(),
                };
                self.outcome = Outcome::Won {
                    side: victory.winner,
                    condition,
                    reason: reason.clone(),
                };
                events.push(Event::GameOver {
                    winner: Some(victory.winner),
                    reason,
                });
                self.phase = Phase::Over;
                return;
            }
        }
    }

    pub(super) fn finish_at_time(&mut self, events: &mut Vec<Event>) {
        for (condition, victory) in self.victory.iter().enumerate() {
            if let Condition::HoldArea { side, area } = &victory.when {
                let holds = |s: usize| {
                    self.units
                        .iter()
                        .any(|u| u.side == s && !u.removed && area.holds(&u.base))
                };
                if holds(*side) && !holds(1 - *side) {
                    let reason = format!("{} holds {}", self.sides[*side].name, area.name);
                    self.outcome = Outcome::Won {
                        side: victory.winner,
                        condition,
                        reason: reason.clone(),
                    };
                    events.push(Event::GameOver {
                        winner: Some(victory.winner),
                        reason,
                    });
                    self.phase = Phase::Over;
                    return;
                }
            }
        }
        self.outcome = Outcome::Draw;
        events.push(Event::GameOver {
            winner: None,
            reason: "the last turn is over and nobody has won".to_string(),
        });
        self.phase = Phase::Over;
    }
}
