//! Seed 002's words at the prompt: its own verbs (`assign DIE to UNIT`,
//! `auto`, `hold`, `respond fire|hold`), how a line becomes one of its
//! actions, and the words that type each action back.

use crate::acw::{self, GameState};
use crate::battlefield::Point;
use crate::host::Game;
use crate::host::acw_formation;
use crate::host::complete::{DIRECTED_MOVES, Item::*, Shapes};
use crate::host::position::Position;
use crate::host::repl::{
    Names, Words, degrees, lost_of, point, split_word, trim, unit_at_target, unit_name,
    unknown_verb, victory_words, xy,
};
use std::fmt::Write as _;

impl Words for GameState {
    const COMMANDS: &'static [(&'static str, &'static str)] = &[
        (
            "assign",
            "assign DIE to UNIT       give one of your activation dice to a unit",
        ),
        (
            "auto",
            "auto                     give out the rest of your dice as foe would",
        ),
        (
            "fire",
            "fire UNIT at TARGET      the unit whose die is up shoots",
        ),
        ("charge", "charge UNIT at TARGET    it charges"),
        ("hold", "hold UNIT                it does nothing this turn"),
        (
            "respond",
            "respond fire|hold        answer a charge before your unit has acted",
        ),
    ];

    fn not_here(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "pivot" | "face" | "about" => {
                "seed 002 turns a unit as it moves: `move UNIT to X,Y facing DEGREES`"
            }
            "form" => {
                "seed 002 changes formation as it moves: `move UNIT form line|column|dismounted to X,Y`"
            }
            "mount" | "dismount" => {
                "seed 002 mounts and dismounts as it moves: `move UNIT form dismounted to X,Y`"
            }
            "join" | "leave" => "seed 002 has no commanders on the table",
            _ => return None,
        })
    }

    fn more_on(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "fire" => {
                "When its die comes up a unit may fire at an enemy in range and sight (tables/rulesets/ohw-acw.yaml)."
            }
            "charge" => {
                "When its die comes up a unit may charge an enemy it can reach; the target may answer with fire first (`respond fire|hold`)."
            }
            "move" => {
                "When its die comes up a unit moves, changing formation if told (`form line|column|dismounted`) and ending with the facing given; `end turn` holds the rest of your units this turn."
            }
            "end" => "`end turn` holds every one of your units still to act this turn.",
            _ => return None,
        })
    }

    fn read(&self, names: &Names<'_>, verb: &str, rest: &str) -> Result<acw::Action, String> {
        let game = names.game();
        let two = |word: &str, usage: &str| {
            split_word(rest, word).ok_or_else(|| format!("expected `{usage}`"))
        };
        let id = |text: &str| names.unit(text).map(acw::UnitId);
        match verb {
        "assign" => {
            let (die, who) = two("to", "assign DIE to UNIT")?;
            let die: u8 = die
                .parse()
                .ok()
                .filter(|d| (1..=6).contains(d))
                .ok_or_else(|| format!("expected a die from 1 to 6, not `{die}`"))?;
            Ok(acw::Action::AssignDie { die, unit: id(who)? })
        }
        "hold" => Ok(acw::Action::Hold { unit: id(rest)? }),
        "fire" | "charge" => {
            let (unit, target) = unit_at_target(names, verb, rest)?;
            let (unit, target) = (acw::UnitId(unit), acw::UnitId(target));
            Ok(if verb == "fire" {
                acw::Action::Fire { unit, target }
            } else {
                acw::Action::Charge { unit, target }
            })
        }
        "move" => {
            // move UNIT [form F] to X,Y [facing D]
            let (head, place) = two("to", "move UNIT [form line|column|dismounted] to X,Y [facing DEGREES]")?;
            let (place, facing) = match split_word(&format!(" {place} "), "facing") {
                Some((place, facing)) => (place.to_string(), Some(degrees(facing)?)),
                None => (place.to_string(), None),
            };
            let (who, formation) = match split_word(&format!("{head} "), "form") {
                Some((who, formation)) => {
                    let formation = match formation.to_lowercase().as_str() {
                        "line" => acw::Formation::Line,
                        "column" => acw::Formation::Column,
                        "dismounted" => acw::Formation::Dismounted,
                        other => {
                            return Err(format!(
                                "expected a formation line, column or dismounted, not `{other}`"
                            ));
                        }
                    };
                    (who.to_string(), Some(formation))
                }
                None => (head.to_string(), None),
            };
            let unit = id(&who)?;
            let facing = facing.unwrap_or_else(|| game.units()[unit.0].facing);
            Ok(acw::Action::Move {
                unit,
                formation,
                to: point(&place)?,
                facing,
            })
        }
        "respond" => {
            let acw::Phase::ChargeResponse { target, .. } = GameState::phase(self) else {
                return Err("no charge is waiting for an answer".into());
            };
            match rest.to_lowercase().as_str() {
                "fire" => Ok(acw::Action::Respond {
                    unit: target,
                    fire: true,
                }),
                "hold" | "stand" => Ok(acw::Action::Respond {
                    unit: target,
                    fire: false,
                }),
                other => Err(format!("expected `respond fire|hold`, not `{other}`")),
            }
        }
        "end" => Err(
            "seed 002 has no phases to end: `end turn` holds your units still to act this turn; give out your dice with `assign 6 to UNIT` or `auto`, and act with each unit as its die comes up (`hold UNIT` to do nothing)".into(),
        ),
        _ => Err(unknown_verb(names.game(), verb)),
    }
    }

    fn move_to(unit: usize, to: Point, facing: f64) -> acw::Action {
        acw::Action::Move {
            unit: acw::UnitId(unit),
            formation: None,
            to,
            facing,
        }
    }

    fn say(&self, action: &acw::Action) -> String {
        match action {
            acw::Action::AssignDie { die, unit } => {
                format!("assign {die} to {}", unit_name(self, unit.0))
            }
            acw::Action::Move {
                unit,
                formation,
                to,
                facing,
            } => {
                let form =
                    formation.map_or(String::new(), |f| format!(" form {}", acw_formation(f)));
                format!(
                    "move {}{form} to {} facing {}",
                    unit_name(self, unit.0),
                    xy(*to),
                    trim(*facing)
                )
            }
            acw::Action::Fire { unit, target } => {
                format!(
                    "fire {} at {}",
                    unit_name(self, unit.0),
                    unit_name(self, target.0)
                )
            }
            acw::Action::Charge { unit, target } => {
                format!(
                    "charge {} at {}",
                    unit_name(self, unit.0),
                    unit_name(self, target.0)
                )
            }
            acw::Action::Hold { unit } => format!("hold {}", unit_name(self, unit.0)),
            acw::Action::Rout { unit } => format!("rout {}", unit_name(self, unit.0)),
            acw::Action::Respond { fire, .. } => {
                format!("respond {}", if *fire { "fire" } else { "hold" })
            }
        }
    }

    fn unit_of(action: &acw::Action) -> Option<usize> {
        match action {
            acw::Action::AssignDie { unit, .. }
            | acw::Action::Move { unit, .. }
            | acw::Action::Fire { unit, .. }
            | acw::Action::Charge { unit, .. }
            | acw::Action::Hold { unit }
            | acw::Action::Rout { unit }
            | acw::Action::Respond { unit, .. } => Some(unit.0),
        }
    }

    fn passes(action: &acw::Action) -> bool {
        matches!(action, acw::Action::Hold { .. })
    }

    const FIRST_WORDS: &'static [&'static str] = &[
        "assign", "auto", "move", "fire", "charge", "hold", "respond",
    ];

    fn shapes(verb: &str) -> Shapes {
        match verb {
            "assign" => &[&[Die, Word(&["to"]), Own]],
            "hold" => &[&[Own]],
            "respond" => &[&[Word(&["fire", "hold"])]],
            "move" => &[
                &[
                    Own,
                    Word(&["form"]),
                    Word(&["line", "column", "dismounted"]),
                    Word(&["to"]),
                    Free,
                    Word(&["facing"]),
                    Free,
                ],
                &[Own, Word(&["to"]), Free, Word(&["facing"]), Free],
                DIRECTED_MOVES[0],
                DIRECTED_MOVES[1],
            ],
            _ => &[],
        }
    }

    fn dice_typed(&self, player_sides: &[usize]) -> Vec<String> {
        let mut dice: Vec<String> = player_sides
            .iter()
            .flat_map(|&side| self.dice_to_assign(side).iter())
            .map(|die| die.to_string())
            .collect();
        dice.sort_by(|a, b| b.cmp(a));
        dice.dedup();
        dice
    }

    fn rules_lines(&self, game: &Game) -> String {
        let state = self;
        let mut text = String::new();
        for victory in &state.victory {
            let _ = writeln!(text, "Victory: {}.", victory_words(game, victory));
        }
        let _ = writeln!(
            text,
            "Each turn both sides throw a die per unit and give them out (`assign 6 to UNIT`, or `auto`); units act from the highest die down."
        );
        text
    }

    fn dice_lines(&self) -> String {
        let (state, sides) = (self, Position::sides(self));
        let mut text = String::new();
        for (side, name) in sides.iter().enumerate() {
            let dice = state.dice_to_assign(side);
            if !dice.is_empty() {
                let unassigned: Vec<String> = state
                    .unassigned(side)
                    .map(|id| state.unit(id).name.clone())
                    .collect();
                let _ = writeln!(
                    text,
                    "{name}: dice {:?} to give to {}",
                    dice,
                    unassigned.join(", ")
                );
            }
        }
        text
    }

    fn dice_to_give(&self) -> Option<String> {
        let state = self;
        let acw::Phase::Assigning { side } = state.phase() else {
            return None;
        };
        let waiting: Vec<String> = state
            .unassigned(side)
            .map(|id| state.unit(id).name.clone())
            .collect();
        Some(format!(
            "Your dice to give: {:?}; waiting for a die: {}.",
            state.dice_to_assign(side),
            waiting.join(", ")
        ))
    }

    fn auto_die(
        &self,
        player_sides: &[usize],
    ) -> Result<Option<(acw::Action, String)>, &'static str> {
        let state = self;
        let acw::Phase::Assigning { side } = state.phase() else {
            return Err("no dice to give out now");
        };
        if !player_sides.contains(&side) {
            return Err("it is foe's turn to give out its dice");
        }
        Ok(crate::host::opponent::dice::assign(state, side, &[])
            .into_iter()
            .next()
            .map(|assignment| {
                let said = format!(
                    "auto: die {} to `{}`: {}",
                    assignment.die,
                    state.unit(assignment.unit).name,
                    assignment.reason
                );
                (assignment.action(), said)
            }))
    }

    fn activation_die(&self, unit: usize) -> String {
        let state = self;
        let u = state.unit(acw::UnitId(unit));
        u.die.map_or(String::new(), |d| {
            format!(", die {d}{}", if u.activated { " used" } else { "" })
        })
    }

    fn victory_lines(&self, names: &Names<'_>) -> String {
        let (state, game) = (self, names.game());
        let sides = game.sides();
        let side = |i: usize| sides.get(i).cloned().unwrap_or_default();
        let gone = |side: usize| lost_of(names, side);
        let mut text = String::new();
        use crate::scenario::Condition;
        for victory in &state.victory {
            let _ = writeln!(text, "  {}.", victory_words(game, victory));
            let now = match &victory.when {
                Condition::RoutFraction { side: loser, .. } => {
                    let (lost, all) = gone(*loser);
                    format!("{lost} of the {all} units of the {} are gone", side(*loser))
                }
                Condition::RoutOrExit {
                    side: loser,
                    troop_type,
                    ..
                } => {
                    let lost = names
                        .units()
                        .iter()
                        .filter(|u| {
                            u.side == *loser
                                && u.removed
                                && game.footing(u.index).map(|(t, _)| t) == Some(*troop_type)
                        })
                        .count();
                    format!(
                        "{lost} {} of the {} are gone",
                        game.battlefield().ruleset.troop(*troop_type).name,
                        side(*loser)
                    )
                }
                Condition::HoldArea { area, .. } => {
                    let inside: Vec<String> = names
                        .units()
                        .iter()
                        .filter(|u| !u.removed && area.contains(u.position))
                        .map(|u| format!("{} of the {}", names.both(u.index), side(u.side)))
                        .collect();
                    if inside.is_empty() {
                        format!("nobody stands in {}", area.name)
                    } else {
                        format!("in {}: {}", area.name, inside.join(", "))
                    }
                }
            };
            let _ = writeln!(text, "    now: {now}.");
        }
        let _ = writeln!(text, "  Otherwise a draw after turn {}.", game.turns());
        text
    }
}
