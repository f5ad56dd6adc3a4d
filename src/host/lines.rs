//! The commanders of a rule set whose sides foe commands an action at a
//! time through the commander boundary (seeds 001 and 002): foe's
//! boundary [`Opponent`] and the scripted [`Baseline`], each asked for
//! its next action by the engine's adapter
//! ([`super::command::Command::foe_next`], `baseline_next`), and the
//! game's record line by line ([`Entry`]). The runner
//! ([`super::run::HostMatch`]) holds them as it holds any engine's
//! [`Commanders`].
//!
//! Pure: no I/O, dice only through the `Roller` passed in.

use super::baseline::Baseline;
use super::command::{Bound, CommandSetup, Commanders, Conduct, ConductTally, SideStep};
use super::opponent::Opponent;
use super::opponent::carry::kept_in_column;
use super::probe::{Probing, Stage, staged};
use super::run::{Entry, Printed};
use super::save::Watched;
use super::{Action, Event, Game};
use crate::dice::Roller;
use std::any::Any;

/// foe's boundary opponent, the baseline and the record line by line.
#[derive(Debug)]
pub struct LineCommanders {
    /// foe's opponent.
    pub opponent: Opponent,
    /// The scripted baseline and the sides it commands.
    pub baseline: Baseline,
    /// The record, line by line.
    pub log: Vec<Entry>,
}

impl LineCommanders {
    /// The commanders of the game `setup` describes.
    pub fn new(setup: &CommandSetup<'_>) -> LineCommanders {
        LineCommanders {
            opponent: Opponent::new(setup.tables.clone(), setup.scenario),
            baseline: Baseline::new(setup.baseline_sides.to_vec()),
            log: Vec::new(),
        }
    }

    /// `commanders` as line commanders (`None` where the engine's
    /// commanders are its own).
    pub fn of(commanders: &dyn Commanders) -> Option<&LineCommanders> {
        commanders.as_any().downcast_ref()
    }

    /// Show the opponent `events` and write them into the record as lines,
    /// `player`'s or foe's. An action can end one turn and begin the next
    /// (the melee phase runs when the last charge is declared): each event
    /// is filed under the turn it happened in, which the turns' first
    /// events say.
    fn noted(&mut self, game: &Game, player: bool, events: &[Event]) {
        self.opponent.observe(game, events);
        let mut turn = self.log.last().map_or(game.turn(), |e| e.turn);
        for event in events {
            if let Some(began) = game.event_facts(event).turn_began {
                turn = began;
            }
            self.log.push(Entry {
                turn,
                player,
                text: game.event_line(event),
            });
        }
    }

    /// [`Commanders::conduct`]: the opponent's orders, and each unit's
    /// bound as the one [`ConductTally`] counts it.
    fn opponent_conduct(&self, game: &Game) -> Conduct {
        let opponent = &self.opponent;
        let units = game.units();
        let mut conduct = Conduct::default();
        let mut tally = ConductTally::default();
        for decision in opponent.decisions() {
            if let Some(outcome) = &decision.outcome {
                *conduct
                    .orders
                    .entry(outcome.order.id().to_string())
                    .or_insert(0) += 1;
            }
            tally.bound(Bound {
                unit: decision.unit,
                turn: decision.turn,
                order: decision.order(),
                moves: &decision.moves,
                rear: units
                    .get(decision.unit)
                    .map_or(0.0, |u| opponent.rear(u.side)),
                routed: decision.routed,
                column: decision
                    .column_in_sight
                    .then(|| kept_in_column(decision.outcome.as_ref(), decision.no_room, true)),
            });
        }
        tally.general_tests(opponent.general_tests().len());
        conduct.counts = tally.counts();
        conduct
    }
}

impl Commanders for LineCommanders {
    fn set_up(&mut self, game: &Game, events: &[Event]) {
        self.noted(game, false, events);
    }

    fn player_acted(&mut self, game: &Game, _action: &Action, events: &[Event]) {
        self.noted(game, true, events);
    }

    fn step_side(
        &mut self,
        game: &mut Game,
        roller: &mut dyn Roller,
        probe: &Probing,
    ) -> Result<SideStep, String> {
        let baseline = game
            .to_act()
            .is_some_and(|side| self.baseline.commands(side));
        let (action, decision) = staged(probe, Stage::Deciding, || {
            if baseline {
                self.baseline
                    .decide(game)
                    .map(|chosen| (chosen.action, chosen.decision))
            } else {
                self.opponent
                    .next_action(game, roller)
                    .map(|action| (action, None))
            }
        })
        .ok_or_else(|| "foe's opponent does not play this game's rules".to_string())?;
        let events = staged(probe, Stage::Rules, || game.apply(&action, roller))
            .map_err(|refusal| format!("foe's own move was refused ({refusal}); this is a bug"))?;
        staged(probe, Stage::Records, || {
            let first = self.log.len();
            self.noted(game, false, &events);
            if let Some(decision) = decision {
                let lines = self.log[first..].iter().map(|e| e.text.clone()).collect();
                self.baseline.did(decision, lines);
            }
        });
        Ok(SideStep {
            actions: vec![action],
            events,
            told: true,
            moved_on: true,
        })
    }

    fn conduct(&self, game: &Game) -> Conduct {
        self.opponent_conduct(game)
    }

    fn plans(&self, _game: &Game) -> Vec<String> {
        Vec::new()
    }

    fn printed(&self) -> Printed {
        Printed {
            log: self.log.len(),
            decisions: self.opponent.decisions().len(),
            general_tests: self.opponent.general_tests().len(),
            baseline: self.baseline.decisions().len(),
            told: 0,
        }
    }

    fn watched(&self, steps: usize) -> Watched {
        Watched::Actions(steps)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
