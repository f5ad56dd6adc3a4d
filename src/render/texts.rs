//! The texts of the one `foe play` prompt that read a game and its
//! commanders, under any rule set: the record since it was last printed,
//! `status`, `what`, `why`, `why GENERAL`, `log`, the end-of-game summary
//! and the table's picture. A game told turn by turn (seed 000's) reads
//! its commanders' reports ([`super::play`]); the others read the
//! runner's record line by line and foe's decisions ([`super::prompt`],
//! [`crate::host::repl`]). The prompt asks [`Texts`] and never which rule
//! set a game is played under. Pure: strings out.

use super::play::{self, Detail, View};
use crate::host::repl::{self, Names};
use crate::host::run::{HostMatch, Printed};
use crate::host::{Action, Refusal, Verdict};
use std::fmt::Write as _;

/// A game as the prompt's texts read it.
pub enum Texts<'a> {
    /// Told a side's turn at a time from its commanders' reports.
    Turns(View<'a>),
    /// Told line by line from the runner's record.
    Lines(&'a HostMatch, Names<'a>),
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
        match View::of(runner) {
            Some(view) => Texts::Turns(view),
            None => Texts::Lines(runner, Names::new(&runner.game, &runner.scenario)),
        }
    }

    /// What the record holds past `shown`, headed by each new turn after
    /// `turn_printed` (which it brings up to date).
    pub fn told(&self, shown: Printed, telling: Telling, turn_printed: &mut u32) -> String {
        let (runner, text) = match self {
            Texts::Turns(view) => (view.runner(), play::told(view, shown.told, telling.detail)),
            Texts::Lines(runner, _) => (*runner, String::new()),
        };
        text + &lines_told(runner, shown, telling.quiet, turn_printed)
    }

    /// Why the rules refused the player's `action`: told turn by turn, in
    /// words that say what would do (how far the unit may go, what blocks
    /// it); else the rule broken.
    pub fn refused(&self, action: &Action, refusal: &Refusal) -> String {
        match self {
            Texts::Turns(view) => play::refused(view, action, refusal),
            Texts::Lines(..) => None,
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
            Texts::Lines(_, names) => repl::status(names),
        }
    }

    /// `status UNIT`: one unit in detail.
    pub fn unit_status(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::unit_detail(view, unit),
            Texts::Lines(runner, names) => {
                super::prompt::unit_status(names, &runner.opponent, unit)
            }
        }
    }

    /// `what UNIT`: its situation and the odds of each order now.
    pub fn what(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::what(view, unit),
            Texts::Lines(runner, names) => super::prompt::what(names, &runner.opponent, unit),
        }
    }

    /// `why UNIT`: the reasons behind its last order.
    pub fn why(&self, unit: usize) -> String {
        match self {
            Texts::Turns(view) => play::why(view, unit),
            Texts::Lines(runner, _) => repl::why_unit(
                &runner.opponent,
                runner.baseline_decisions(),
                runner.baseline_sides(),
                &runner.game,
                unit,
            ),
        }
    }

    /// `why GENERAL`: the general's last reaction test.
    pub fn why_general(&self, general: &str) -> String {
        match self {
            Texts::Turns(view) => play::why_general(view, general),
            Texts::Lines(runner, _) => repl::why_general(&runner.opponent, &runner.game, general),
        }
    }

    /// `log`: the whole record, as printed.
    pub fn log(&self) -> String {
        match self {
            Texts::Turns(view) => play::told(view, 0, Detail::Normal),
            Texts::Lines(runner, _) => runner.log.iter().fold(String::new(), |mut text, e| {
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
            Texts::Lines(runner, _) => {
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
            Texts::Lines(runner, _) => super::game_scene::scene(
                &runner.game,
                &runner.scenario,
                &runner.scenario.title,
                runner.events(),
            ),
        }
    }
}

/// The runner's own record past `shown`: foe's reaction tests and its
/// generals', the baseline's reasons (unless `quiet`) and the lines of
/// the events, each new turn headed.
fn lines_told(runner: &HostMatch, shown: Printed, quiet: bool, turn_printed: &mut u32) -> String {
    let mut text = String::new();
    let mut head = |text: &mut String, turn: u32| {
        if turn != *turn_printed {
            *turn_printed = turn;
            let _ = writeln!(text, "-- turn {turn} --");
        }
    };
    if !quiet {
        for d in &runner.opponent.decisions()[shown.decisions..] {
            head(&mut text, d.turn);
            let test = match &d.outcome {
                Some(o) => format!("die {}, total {}: {}", o.die, o.total, o.order.title()),
                None => "no class, stands".to_string(),
            };
            let _ = writeln!(text, "  foe tests `{}`: {test}", d.name);
        }
        for test in &runner.opponent.general_tests()[shown.general_tests..] {
            head(&mut text, test.turn);
            let _ = writeln!(text, "  foe tests general `{}`: {}", test.name, test.line());
        }
        // A unit that stood is told by `why`, not in the report.
        for d in runner.baseline_decisions()[shown.baseline..]
            .iter()
            .filter(|d| !d.stood)
        {
            head(&mut text, d.turn);
            let _ = writeln!(text, "  baseline `{}`: {}", d.name, d.why);
        }
    }
    for entry in &runner.log[shown.log..] {
        head(&mut text, entry.turn);
        let who = if entry.player { "you" } else { "foe" };
        let _ = writeln!(text, "  [{who}] {}", entry.text);
    }
    text
}
