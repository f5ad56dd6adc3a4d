//! The texts of the one `foe play` prompt that read a game and its
//! commanders, under any rule set: the record since it was last printed,
//! `status`, `what`, `why`, `why GENERAL`, `log`, the end-of-game summary
//! and the table's picture. A game told turn by turn (seed 000's) reads
//! its commanders' reports ([`super::play`]); the others read their
//! commanders' record line by line and foe's decisions
//! ([`crate::host::lines::LineCommanders`], [`super::prompt`],
//! [`crate::host::repl`]). The prompt asks [`Texts`] and never which rule
//! set a game is played under. Pure: strings out.

use super::play::{self, Detail, View};
use crate::host::lines::LineCommanders;
use crate::host::repl::{self, Names};
use crate::host::run::{HostMatch, Printed};
use crate::host::{Action, Refusal, Verdict};
use std::fmt::Write as _;

/// A game as the prompt's texts read it.
pub enum Texts<'a> {
    /// Told a side's turn at a time from its commanders' reports.
    Turns(View<'a>),
    /// Told line by line from the record of foe's boundary opponent and
    /// the baseline.
    Lines(&'a HostMatch, &'a LineCommanders, Names<'a>),
    /// Commanders that keep no record these texts read: the game alone.
    Bare(&'a HostMatch, Names<'a>),
}

/// How much of the record a print of it tells ([`Texts::told`]).
#[derive(Debug, Clone, Copy)]
pub struct Telling {
    /// How much a turn report says (seed 000's).
    pub detail: Detail,
    /// Only the events: no tests, no reasons.
    pub quiet: bool,
}

impl<'a> Texts<'a> {
    /// The texts of `runner`'s game.
    pub fn of(runner: &'a HostMatch) -> Texts<'a> {
        let names = || Names::new(&runner.game, &runner.scenario);
        match (View::of(runner), runner.lines()) {
            (Some(view), _) => Texts::Turns(view),
            (None, Some(lines)) => Texts::Lines(runner, lines, names()),
            (None, None) => Texts::Bare(runner, names()),
        }
    }

    /// What the record holds past `shown`, headed by each new turn after
    /// `turn_printed` (which it brings up to date).
    pub fn told(&self, shown: Printed, telling: Telling, turn_printed: &mut u32) -> String {
        match self {
            Texts::Turns(view) => play::told(view, shown.told, telling.detail),
            Texts::Lines(_, lines, _) => lines_told(lines, shown, telling.quiet, turn_printed),
            Texts::Bare(..) => String::new(),
        }
    }

    /// Why the rules refused the player's `action`: told turn by turn, in
    /// words that say what would do (how far the unit may go, what blocks
    /// it); else the rule broken.
    pub fn refused(&self, action: &Action, refusal: &Refusal) -> String {
        match self {
            Texts::Turns(view) => play::refused(view, action, refusal),
            Texts::Lines(..) | Texts::Bare(..) => None,
        }
        .unwrap_or_else(|| refusal.to_string())
    }

    /// `status`: the turn and phase, and each side's units.
    pub fn status(&self) -> String {
        match self {
            Texts::Turns(view) => {
                let game = &view.runner().game;
                let now = format!(
                    "Turn {} of {}: {}.\n",
                    game.turn(),
                    game.turns(),
                    game.phase()
                );
                (0..view.state().sides.len())
                    .map(|side| play::status(view, side))
                    .fold(now, |text, side| text + &side)
            }
            Texts::Lines(_, _, names) | Texts::Bare(_, names) => repl::status(names),
        }
    }

    /// `status UNIT`: one unit in detail.
    pub fn unit_status(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::unit_detail(view, unit),
            Texts::Lines(_, lines, names) => {
                super::prompt::unit_status(names, Some(&lines.opponent), unit)
            }
            Texts::Bare(_, names) => super::prompt::unit_status(names, None, unit),
        }
    }

    /// `what UNIT`: its situation and the odds of each order now.
    pub fn what(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::what(view, unit),
            Texts::Lines(_, lines, names) => super::prompt::what(names, &lines.opponent, unit),
            Texts::Bare(runner, _) => not_foes(runner, unit),
        }
    }

    /// `why UNIT`: the reasons behind its last order.
    pub fn why(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::why(view, unit),
            Texts::Lines(runner, lines, _) => repl::why_unit(
                &lines.opponent,
                lines.baseline.decisions(),
                runner.baseline_sides(),
                &runner.game,
                unit,
            ),
            Texts::Bare(runner, _) => not_foes(runner, unit),
        }
    }

    /// `why GENERAL`: the general's last reaction test.
    pub fn why_general(&self, general: &str) -> String {
        match self {
            Texts::Turns(view) => play::why_general(view, general),
            Texts::Lines(runner, lines, _) => {
                repl::why_general(&lines.opponent, &runner.game, general)
            }
            Texts::Bare(..) => format!("foe keeps no reaction tests of `{general}` here."),
        }
    }

    /// `log`: the whole record, as printed.
    pub fn log(&self) -> String {
        match self {
            Texts::Turns(view) => play::told(view, 0, Detail::Normal),
            Texts::Bare(..) => String::new(),
            Texts::Lines(_, lines, _) => lines.log.iter().fold(String::new(), |mut text, e| {
                let _ = writeln!(text, "  turn {}: {}", e.turn, e.text);
                text
            }),
        }
    }

    /// The end of the game: the verdict (and, told turn by turn, the
    /// armies at the end).
    pub fn summary(&self, verdict: &Verdict) -> String {
        match self {
            Texts::Turns(view) => play::summary(view),
            Texts::Lines(runner, ..) | Texts::Bare(runner, _) => {
                let sides = runner.game.sides();
                let winner = verdict
                    .winner
                    .and_then(|s| sides.get(s))
                    .map_or("A draw".to_string(), |s| format!("The {s} win"));
                format!(
                    "Game over on turn {}: {verdict}. {winner}.",
                    runner.game.turn()
                )
            }
        }
    }

    /// The table now, with the last phase's (told turn by turn: the last
    /// bound's) moves, shots and charges as arrows; a game told turn by
    /// turn shows its generals and the state foe's opponent keeps of its
    /// units too.
    pub fn scene(&self) -> super::scene::Scene<'a> {
        match self {
            Texts::Turns(view) => super::scene::Scene::of_view(*view),
            Texts::Lines(runner, ..) | Texts::Bare(runner, _) => super::game_scene::scene(
                &runner.game,
                &runner.scenario,
                &runner.scenario.title,
                runner.events(),
            ),
        }
    }
}

/// The name of `unit`'s record that foe keeps none of here.
fn not_foes(runner: &HostMatch, unit: usize) -> String {
    let name = runner
        .game
        .unit_name(unit)
        .unwrap_or_else(|| format!("#{unit}"));
    format!("foe keeps no decisions of `{name}` here.")
}

/// The line commanders' record past `shown`: foe's reaction tests and its
/// generals', the baseline's reasons (unless `quiet`) and the lines of
/// the events, each new turn headed.
fn lines_told(
    lines: &LineCommanders,
    shown: Printed,
    quiet: bool,
    turn_printed: &mut u32,
) -> String {
    let mut text = String::new();
    let mut head = |text: &mut String, turn: u32| {
        if turn != *turn_printed {
            *turn_printed = turn;
            let _ = writeln!(text, "-- turn {turn} --");
        }
    };
    if !quiet {
        for d in &lines.opponent.decisions()[shown.decisions..] {
            head(&mut text, d.turn);
            let test = match &d.outcome {
                Some(o) => format!("die {}, total {}: {}", o.die, o.total, o.order.title()),
                None => "no class, stands".to_string(),
            };
            let _ = writeln!(text, "  foe tests `{}`: {test}", d.name);
        }
        for test in &lines.opponent.general_tests()[shown.general_tests..] {
            head(&mut text, test.turn);
            let _ = writeln!(text, "  foe tests general `{}`: {}", test.name, test.line());
        }
        // A unit that stood is told by `why`, not in the report.
        for d in lines.baseline.decisions()[shown.baseline..]
            .iter()
            .filter(|d| !d.stood)
        {
            head(&mut text, d.turn);
            let _ = writeln!(text, "  baseline `{}`: {}", d.name, d.why);
        }
    }
    for entry in &lines.log[shown.log..] {
        head(&mut text, entry.turn);
        let who = if entry.player { "you" } else { "foe" };
        let _ = writeln!(text, "  [{who}] {}", entry.text);
    }
    text
}
