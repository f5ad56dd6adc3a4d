//! Seed 001 *Melee*: fought in the melee phase, each side a die with its
//! modifiers, high roll wins; the loser removes a base and retreats 12".
//! Ruling RV15.

use crate::dice::{Die, Roller};
use crate::rv::event::{Event, MeleeSide, Modifier, Removal};
use crate::rv::state::{GameState, MAX_BASES, Melee};
use crate::rv::table::Kind;

impl GameState {
    /// Fight every melee in the order the charges reached their targets.
    pub(super) fn fight_melees(&mut self, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let melees = std::mem::take(&mut self.melees);
        for melee in melees {
            self.fight(melee, roller, events);
        }
    }

    fn fight(&mut self, melee: Melee, roller: &mut dyn Roller, events: &mut Vec<Event>) {
        let (charger, defender) = (melee.charger, melee.defender);
        if !self.units[charger].in_play() || !self.units[defender].in_play() {
            return;
        }
        let exposed: Vec<usize> = [charger, defender]
            .iter()
            .filter_map(|&unit| self.commander_of(unit))
            .collect();
        // Each tie costs both a base, so this ends; the bound is a guard.
        for _ in 0..=(2 * MAX_BASES) {
            let ours = self.melee_side(charger, defender, true, melee, roller);
            let theirs = self.melee_side(defender, charger, false, melee, roller);
            let winner = match ours.total.cmp(&theirs.total) {
                std::cmp::Ordering::Greater => Some(charger),
                std::cmp::Ordering::Less => Some(defender),
                std::cmp::Ordering::Equal => None,
            };
            events.push(Event::MeleeRound {
                charger: ours,
                defender: theirs,
                winner,
            });
            match winner {
                None => {
                    self.lose_bases(charger, 1, false, roller, events);
                    self.lose_bases(defender, 1, false, roller, events);
                    if self.units[charger].in_play() && self.units[defender].in_play() {
                        continue;
                    }
                }
                Some(winner) => {
                    let loser = if winner == charger { defender } else { charger };
                    if self.units[loser].rules(&self.table).militia {
                        self.remove(loser, Removal::RanAway, events);
                    } else {
                        self.lose_bases(loser, 1, false, roller, events);
                        if self.units[loser].in_play() {
                            let from = self.units[winner].centre;
                            self.retreat(loser, from, self.table.melee_retreat, events);
                        }
                        if self.units[loser].in_play() {
                            let last = self.turn.saturating_add(self.table.reform_turns);
                            self.units[loser].reforming = Some(last);
                            events.push(Event::Reforming {
                                unit: self.who(loser),
                                turn: self.turn.saturating_add(1),
                            });
                        }
                    }
                }
            }
            break;
        }
        for commander in exposed {
            if !self.commanders[commander].lost {
                self.commander_risk(commander, roller, events);
            }
        }
    }

    fn melee_side(
        &self,
        unit: usize,
        opponent: usize,
        charging: bool,
        melee: Melee,
        roller: &mut dyn Roller,
    ) -> MeleeSide {
        let u = &self.units[unit];
        let them = &self.units[opponent];
        let rules = u.rules(&self.table);
        let t = &self.table;
        let mut modifiers = Vec::new();
        let mut add = |label: &str, value: i32| {
            if value != 0 {
                modifiers.push(Modifier {
                    label: label.to_string(),
                    value,
                });
            }
        };
        if u.fighting_bases() > them.fighting_bases() {
            add("more stands than the opponent", t.more_stands);
        }
        if charging && melee.flank {
            add("hitting the flank or rear", t.flank_or_rear);
        }
        if self.commander_of(unit).is_some() {
            add("commander with the unit", t.commander_melee);
        }
        add(&self.battlefield.ruleset.troop(u.troop).name, rules.melee);
        if u.kind == Kind::Dragoons && u.mounted {
            add("mounted dragoons", rules.melee_mounted);
        }
        if !charging
            && !melee.counter
            && self
                .battlefield
                .terrain_at(u.centre)
                .iter()
                .any(|kind| t.woods.contains(kind))
        {
            add("defending woods", t.defending_woods);
        }
        let roll = roller.roll_for(Die::D6, format_args!("{}'s melee", u.name));
        let total = modifiers
            .iter()
            .fold(i32::from(roll), |total, m| total.saturating_add(m.value));
        MeleeSide {
            unit: self.who(unit),
            roll,
            modifiers,
            total,
        }
    }
}
