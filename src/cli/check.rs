//! `foe check`: validate a scenario and list every problem at once.

use super::Context;
use crate::error::{Error, Result};
use crate::ruleset::Ruleset;
use crate::scenario::{self, Scenario};
use crate::yaml::{Problems, Source};
use std::path::{Path, PathBuf};

/// Arguments of `foe check`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  foe check guilford

    guilford: ok - Guilford Courthouse, 15 March 1781
      48\" x 48\" table, 7 terrain features, 15 turns, americans move first
      british: 7 units, 1 general
      americans: 12 units, 1 general

  foe check my-battle.yaml
    my-battle.yaml:14:13: unknown terrain kind `wods`; did you mean `woods`?")]
pub struct Args {
    /// A built-in scenario's name (guilford, guilford-rv, guilford-ruinous, henry-hill, learning, monongahela, stress) or a scenario file.
    #[arg(value_name = "FILE|NAME")]
    pub scenario: String,
}

/// Run `foe check`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    // The tables a game would be played with are checked as `play` checks
    // them: a scenario is not ok with tables that `play` refuses.
    let tables = context.tables()?;
    match load_scenario(&args.scenario, context.tables_dir.as_deref()) {
        Ok(scenario) => {
            // Nor with a rule set whose engine sections would not read: a
            // game is set up, as `play` would, and thrown away.
            if crate::host::engine_for(&scenario.battlefield.ruleset.name).is_some() {
                crate::host::Game::start(&scenario, &tables, &mut crate::dice::Seeded::new(0))
                    .map_err(|error| Error::Invalid(error.to_string()))?;
            }
            context.print(&summary(&scenario))
        }
        Err(Error::Problems(problems)) => {
            context.print(&format!("{problems}\n"))?;
            let n = problems.0.len();
            Err(Error::Invalid(format!(
                "`{}` has {n} problem{}",
                args.scenario,
                if n == 1 { "" } else { "s" }
            )))
        }
        Err(other) => Err(other),
    }
}

/// What `foe check` says about a good scenario.
pub fn summary(scenario: &Scenario) -> String {
    let field = &scenario.battlefield;
    let mut out = format!(
        "{}: ok - {}\n  {}\" x {}\" table, {} terrain features, {} turns, {} move first\n",
        scenario.name,
        scenario.title,
        crate::battlefield::geometry::trim(field.width()),
        crate::battlefield::geometry::trim(field.height()),
        field.features.len(),
        scenario.turns,
        scenario
            .sides
            .get(scenario.first)
            .map_or("?", |s| s.name.as_str()),
    );
    for side in &scenario.sides {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        out.push_str(&format!(
            "  {}: {}, {}",
            side.name,
            plural(side.units.len(), "unit"),
            plural(side.generals.len(), "general")
        ));
        if !side.reserves.is_empty() {
            out.push_str(&format!(", {} in reserve", side.reserves.len()));
        }
        out.push('\n');
    }
    out
}

/// Load a scenario named on the command line: a built-in short name (or a
/// unique prefix of one), or a path to a file. Rule sets come from
/// `tables_dir/rulesets/NAME.yaml` when that file exists, else built in.
pub fn load_scenario(argument: &str, tables_dir: Option<&Path>) -> Result<Scenario> {
    let (shown_as, text) = scenario_text(argument)?;
    load_scenario_text(&shown_as, &text, tables_dir)
}

/// A scenario named on the command line, read and validated once: what a
/// start needs of it, passed down rather than read again.
pub struct ReadScenario {
    /// As typed on the command line.
    pub argument: String,
    /// Its name in messages and reports.
    pub shown_as: String,
    /// Its text.
    pub text: String,
    /// Validated against its rule set.
    pub scenario: Scenario,
}

/// Read and validate the scenario `argument` names ([`scenario_text`],
/// [`load_scenario_text`]).
pub fn read_scenario(argument: &str, tables_dir: Option<&Path>) -> Result<ReadScenario> {
    let (shown_as, text) = scenario_text(argument)?;
    let scenario = load_scenario_text(&shown_as, &text, tables_dir)?;
    Ok(ReadScenario {
        argument: argument.to_string(),
        shown_as,
        text,
        scenario,
    })
}

/// The name to show and the text of a scenario named on the command line.
pub fn scenario_text(argument: &str) -> Result<(String, String)> {
    let path = PathBuf::from(argument);
    let looks_like_path = argument.ends_with(".yaml")
        || argument.ends_with(".yml")
        || argument.contains('/')
        || argument.contains('\\');
    if looks_like_path || path.is_file() {
        return Ok((argument.to_string(), super::read_text(&path)?));
    }
    match crate::suggest::resolve(argument, scenario::builtin_names()) {
        Ok(name) => {
            let (file, text) = scenario::builtin(name)
                .ok_or_else(|| Error::unknown("scenario", argument, scenario::builtin_names()))?;
            Ok((file.to_string(), text.to_string()))
        }
        Err(_) => Err(Error::unknown(
            "scenario",
            argument,
            scenario::builtin_names(),
        )),
    }
}

/// Validate a scenario's text against its rule set: the player's
/// `tables_dir/rulesets/NAME.yaml` when there is one (anything there that
/// is not a regular file is an error, [`super::table_override`]), else the
/// built-in one.
pub fn load_scenario_text(
    shown_as: &str,
    text: &str,
    tables_dir: Option<&Path>,
) -> Result<Scenario> {
    let source = Source::new(shown_as, text);
    let mut io_error = None;
    let loaded = scenario::load(source, |name| {
        match super::table_override(tables_dir, &format!("rulesets/{name}.yaml")) {
            Ok(Some((shown, text))) => Some(Ruleset::parse(Source::new(&shown, &text))),
            Ok(None) => Ruleset::builtin(name),
            Err(error) => {
                io_error = Some(error);
                Some(Err(Problems(Vec::new())))
            }
        }
    });
    if let Some(error) = io_error {
        return Err(error);
    }
    Ok(loaded?)
}
