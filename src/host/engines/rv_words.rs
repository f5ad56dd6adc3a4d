//! Seed 001's words at the prompt: its own verbs (`pivot`, `form`,
//! `respond fire|counter|stand`, a commander's `join` and `leave`), how a
//! line becomes one of its actions, and the words that type each action
//! back.

use crate::battlefield::Point;
use crate::host::Game;
use crate::host::complete::{DIRECTED_MOVES, Item::*, Shapes};
use crate::host::repl::{
    Names, Words, degrees, lost_of, point, split_word, strip_word, trim, unit_at_target, unit_name,
    unknown_verb, xy,
};
use crate::rv::{self, GameState};
use crate::suggest::resolve;
use std::fmt::Write as _;

/// The commander a name (or unique part of one) means.
fn commander(state: &GameState, text: &str) -> Option<usize> {
    let names: Vec<&str> = state.commanders().iter().map(|c| c.name.as_str()).collect();
    let name = resolve(text.trim(), names.iter().copied()).ok()?;
    state.commanders().iter().position(|c| c.name == name)
}

impl Words for GameState {
    const COMMANDS: &'static [(&'static str, &'static str)] = &[
        ("pivot", "pivot UNIT to DEGREES    turn on the spot"),
        ("about", "about face UNIT          turn about"),
        ("form", "form UNIT line|column|open order"),
        ("mount", "mount UNIT / dismount UNIT   dragoons"),
        ("dismount", "dismount UNIT            dragoons on foot"),
        ("fire", "fire UNIT at TARGET      (shoot phase)"),
        ("charge", "charge UNIT at TARGET    (charge phase)"),
        ("respond", "respond fire|counter|stand   answer a charge"),
        ("join", "join COMMANDER to UNIT   a commander joins a unit"),
        ("leave", "leave COMMANDER to X,Y   a commander leaves it"),
    ];

    fn not_here(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "assign" | "auto" => "seed 001 has no activation dice: units act phase by phase",
            "hold" => "seed 001 units hold by doing nothing: `end` ends the phase",
            _ => return None,
        })
    }

    fn more_on(verb: &str) -> Option<&'static str> {
        Some(match verb {
            "fire" => {
                "In the shoot phase each of your units in range and sight of an enemy may fire once; the rule set's to-hit table (tables/rulesets/ruinous-victory.yaml) gives the bases lost."
            }
            "charge" => {
                "In the charge phase a unit may charge an enemy it can reach; the target answers (`respond fire|counter|stand`) and melee follows."
            }
            "move" => {
                "In the move phase each unit moves straight up to its allowance (less in rough ground); `end` ends the phase, `end turn` your turn."
            }
            _ => return None,
        })
    }

    fn read(&self, names: &Names<'_>, verb: &str, rest: &str) -> Result<rv::Action, String> {
        let unit = |text: &str| names.unit(text);
        let two = |word: &str, usage: &str| {
            split_word(rest, word).ok_or_else(|| format!("expected `{usage}`"))
        };
        match verb {
            "end" => Ok(rv::Action::EndPhase),
            "move" => {
                let (who, to) = two("to", "move UNIT to X,Y")?;
                if split_word(&format!("{to} "), "facing").is_some() {
                    return Err(
                        "seed 001 moves keep a unit's facing: `move UNIT to X,Y`; `pivot UNIT to DEGREES` turns it (as its move)"
                            .into(),
                    );
                }
                let to = point(to)?;
                match unit(who) {
                    Ok(unit) => Ok(rv::Action::Move { unit, to }),
                    Err(problem) => match commander(self, who) {
                        Some(commander) => Ok(rv::Action::MoveCommander { commander, to }),
                        None => Err(problem),
                    },
                }
            }
            "pivot" | "face" => {
                // `pivot UNIT to 90`, or Guilford's `pivot UNIT 90` / `ne`.
                let (who, facing) = two("to", "pivot UNIT to DEGREES").or_else(|problem| {
                    rest.trim()
                        .rsplit_once(char::is_whitespace)
                        .filter(|(_, last)| degrees(last).is_ok())
                        .ok_or(problem)
                })?;
                Ok(rv::Action::Pivot {
                    unit: unit(who)?,
                    facing: degrees(facing)?,
                })
            }
            "about" => Ok(rv::Action::AboutFace {
                unit: unit(strip_word(rest, "face"))?,
            }),
            "fire" | "charge" => {
                let (unit, target) = unit_at_target(names, verb, rest)?;
                Ok(if verb == "fire" {
                    rv::Action::Fire { unit, target }
                } else {
                    rv::Action::Charge { unit, target }
                })
            }
            "form" => {
                let ends_with = |name: &str| {
                    rest.len() >= name.len()
                        && rest.as_bytes()[rest.len() - name.len()..]
                            .eq_ignore_ascii_case(name.as_bytes())
                };
                let (formation, name) = [
                    (rv::Formation::OpenOrder, "open order"),
                    (rv::Formation::Column, "column"),
                    (rv::Formation::Line, "line"),
                ]
                .into_iter()
                .find(|(_, name)| ends_with(name))
                .ok_or_else(|| "expected `form UNIT line|column|open order`".to_string())?;
                Ok(rv::Action::ChangeFormation {
                    unit: unit(&rest[..rest.len() - name.len()])?,
                    formation,
                })
            }
            "mount" | "dismount" => Ok(rv::Action::Mount {
                unit: unit(rest)?,
                mounted: verb == "mount",
            }),
            "join" => {
                let (who, to) = two("to", "join COMMANDER to UNIT")?;
                let commander =
                    commander(self, who).ok_or_else(|| format!("no commander `{who}`"))?;
                Ok(rv::Action::Join {
                    commander,
                    unit: unit(to)?,
                })
            }
            "leave" => {
                let (who, to) = two("to", "leave COMMANDER to X,Y")?;
                let commander =
                    commander(self, who).ok_or_else(|| format!("no commander `{who}`"))?;
                Ok(rv::Action::Leave {
                    commander,
                    to: point(to)?,
                })
            }
            "respond" => {
                let response = match rest.to_lowercase().as_str() {
                    "fire" => rv::Response::Fire,
                    "counter" | "counter-charge" | "countercharge" => rv::Response::CounterCharge,
                    "stand" => rv::Response::Stand,
                    other => {
                        return Err(format!(
                            "expected `respond fire|counter|stand`, not `{other}`"
                        ));
                    }
                };
                Ok(rv::Action::Respond { response })
            }
            _ => Err(unknown_verb(names.game(), verb)),
        }
    }

    fn move_to(unit: usize, to: Point, _facing: f64) -> rv::Action {
        rv::Action::Move { unit, to }
    }

    fn say(&self, action: &rv::Action) -> String {
        let commander = |c: usize| self.commanders()[c].name.clone();
        match action {
            rv::Action::ChangeFormation { unit, formation } => {
                format!("form {} {formation}", unit_name(self, *unit))
            }
            rv::Action::Mount { unit, mounted } => format!(
                "{} {}",
                if *mounted { "mount" } else { "dismount" },
                unit_name(self, *unit)
            ),
            rv::Action::AboutFace { unit } => format!("about face {}", unit_name(self, *unit)),
            rv::Action::Pivot { unit, facing } => {
                format!("pivot {} to {}", unit_name(self, *unit), trim(*facing))
            }
            rv::Action::Move { unit, to } => {
                format!("move {} to {}", unit_name(self, *unit), xy(*to))
            }
            rv::Action::MoveCommander { commander: c, to } => {
                format!("move {} to {}", commander(*c), xy(*to))
            }
            rv::Action::Join { commander: c, unit } => {
                format!("join {} to {}", commander(*c), unit_name(self, *unit))
            }
            rv::Action::Leave { commander: c, to } => {
                format!("leave {} to {}", commander(*c), xy(*to))
            }
            rv::Action::Fire { unit, target } => {
                format!(
                    "fire {} at {}",
                    unit_name(self, *unit),
                    unit_name(self, *target)
                )
            }
            rv::Action::HastyFire { unit, target } => {
                format!(
                    "fire {} at {} at -1",
                    unit_name(self, *unit),
                    unit_name(self, *target)
                )
            }
            rv::Action::Charge { unit, target } => {
                format!(
                    "charge {} at {}",
                    unit_name(self, *unit),
                    unit_name(self, *target)
                )
            }
            rv::Action::Rout { unit } => format!("rout {}", unit_name(self, *unit)),
            rv::Action::Respond { response } => format!(
                "respond {}",
                match response {
                    rv::Response::Fire => "fire",
                    rv::Response::CounterCharge => "counter",
                    rv::Response::Stand => "stand",
                }
            ),
            rv::Action::EndPhase => "end".to_string(),
        }
    }

    fn unit_of(action: &rv::Action) -> Option<usize> {
        match action {
            rv::Action::ChangeFormation { unit, .. }
            | rv::Action::Mount { unit, .. }
            | rv::Action::AboutFace { unit }
            | rv::Action::Pivot { unit, .. }
            | rv::Action::Move { unit, .. }
            | rv::Action::Fire { unit, .. }
            | rv::Action::HastyFire { unit, .. }
            | rv::Action::Rout { unit }
            | rv::Action::Charge { unit, .. } => Some(*unit),
            _ => None,
        }
    }

    fn passes(action: &rv::Action) -> bool {
        matches!(action, rv::Action::EndPhase)
    }

    const FIRST_WORDS: &'static [&'static str] = &[
        "move", "pivot", "about", "form", "mount", "dismount", "fire", "charge", "respond", "join",
        "leave",
    ];

    fn shapes(verb: &str) -> Shapes {
        match verb {
            "move" => &[
                DIRECTED_MOVES[0],
                DIRECTED_MOVES[1],
                &[OwnOrCommander, Word(&["to"]), Free],
            ],
            "pivot" | "face" => &[&[Own, Word(&["to"]), Free]],
            "about" => &[&[Word(&["face"]), Own]],
            "form" => &[&[Own, Word(&["line", "column", "open order"])]],
            "mount" | "dismount" => &[&[Own]],
            "join" => &[&[Commander, Word(&["to"]), Own]],
            "leave" => &[&[Commander, Word(&["to"]), Free]],
            "respond" => &[&[Word(&["fire", "counter", "stand"])]],
            _ => &[],
        }
    }

    fn own_commanders(&self, player_sides: &[usize]) -> Vec<String> {
        self.commanders()
            .iter()
            .filter(|c| !c.lost && player_sides.contains(&c.side))
            .map(|c| c.name.clone())
            .collect()
    }

    fn rules_lines(&self, game: &Game) -> String {
        let (state, sides) = (self, game.sides());
        let mut text = String::new();
        let (attacker, defender) = state.attacker_defender();
        let table = state.table();
        let _ = writeln!(
            text,
            "Victory: the {} must drive the {} from the field; an army with fewer than {}% of its units left is broken and loses. The margin is the defender's losses less the attacker's, in percent of bases (house rule RV10): a win with a negative margin is a ruinous victory.",
            sides[attacker], sides[defender], table.broken_below_percent
        );
        text
    }

    fn victory_lines(&self, names: &Names<'_>) -> String {
        let (state, game) = (self, names.game());
        let sides = game.sides();
        let side = |i: usize| sides.get(i).cloned().unwrap_or_default();
        let gone = |side: usize| lost_of(names, side);
        let mut text = String::new();
        let (attacker, defender) = state.attacker_defender();
        let below = state.table().broken_below_percent;
        let _ = writeln!(
            text,
            "  the {} win by driving the {} from the field; an army with fewer than {below}% of its units left is broken and loses; at the end of turn {} with the {} still on the field, they win.",
            side(attacker),
            side(defender),
            game.turns(),
            side(defender),
        );
        for s in [attacker, defender] {
            let (lost, all) = gone(s);
            let left = all - lost;
            let _ = writeln!(
                text,
                "  now: the {} have {left} of {all} units left ({:.0}%; broken below {below}%).",
                side(s),
                if all == 0 {
                    0.0
                } else {
                    left as f64 * 100.0 / all as f64
                },
            );
        }
        if let Some(margin) = game.margin() {
            let _ = writeln!(
                text,
                "  the margin so far is {margin:+} (the defender's losses less the attacker's, in percent of bases; house rule RV10)."
            );
        }
        text
    }
}
