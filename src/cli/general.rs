//! `foe general`: random general personalities, and a general's reaction.

use super::Context;
use super::react::forced;
use crate::dice::{Die, Roller, Scripted};
use crate::error::{Error, Result};
use crate::general;
use crate::render::text;
use crate::tables::{Character, Trigger};

/// Arguments of `foe general`.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "\
Examples:
  foe general --nation french --count 2     two French generals with their characters
  foe general react --character cautious --trigger own-troops-withdrawing"
)]
pub struct Args {
    /// How many generals to roll.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub count: u32,
    /// Draw names from this nation: french, british, american.
    #[arg(long, value_name = "NAME", default_value = "french")]
    pub nation: String,
    /// Seed for the rolls, to repeat them exactly.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(subcommand)]
    pub command: Option<GeneralCommand>,
}

/// Subcommands of `foe general`.
#[derive(Debug, clap::Subcommand)]
pub enum GeneralCommand {
    /// A general's reaction test (A-E) to a trigger.
    #[command(after_help = "\
Example:
  foe general react --character rash --trigger enemy-withdrawing --roll 40

    Trigger: Enemy troops routing or withdrawing.
    Rash general, d100 40: reaction B (36-60)
    -> Advances to the centre of the front line (no change if already there).")]
    React(ReactArgs),
}

/// Arguments of `foe general react`.
#[derive(Debug, clap::Args)]
pub struct ReactArgs {
    /// The general's character: rash, brave, average, cautious, timid.
    #[arg(long, value_name = "C")]
    pub character: String,
    /// What made him test: own-troops-withdrawing, enemy-attacking-within-6, enemy-withdrawing.
    #[arg(long, value_name = "T")]
    pub trigger: Option<String>,
    /// Use this d100 roll instead of rolling.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub roll: Option<i64>,
    /// Seed for the roll.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show the exact chance of each reaction over the d100.
    #[arg(long)]
    pub odds: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `foe general`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    if let Some(GeneralCommand::React(react_args)) = &args.command {
        return run_react(react_args, context);
    }
    let tables = context.tables()?;
    if args.count == 0 || args.count > 1000 {
        return Err(Error::Invalid(format!(
            "--count must be from 1 to 1000, not {}",
            args.count
        )));
    }
    let mut dice = context.dice(args.seed);
    let mut generals = Vec::new();
    for index in 0..args.count {
        let general = if context.asks() {
            // Names come from the seeded dice; the character and start
            // position from the player's own rolls.
            let rank = dice.seeded().roll(Die::D100);
            let surname = dice.seeded().roll(Die::D100);
            let character = dice.roll(Die::D100, &format!("general {} character", index + 1))?;
            let start = dice.roll(Die::D100, &format!("general {} start position", index + 1))?;
            general::roll_general(
                &tables,
                &args.nation,
                &mut Scripted::new([rank, surname, character, start]),
            )?
        } else {
            general::roll_general(&tables, &args.nation, dice.seeded())?
        };
        generals.push(general);
    }
    if args.json {
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&generals).unwrap_or_default()
        ));
    }
    let mut out = String::new();
    for general in &generals {
        out.push_str(&text::general(general));
    }
    if !context.asks() && args.seed.is_none() {
        out.push_str(&format!(
            "(rolled with seed {}; --seed {} repeats it)\n",
            dice.seed, dice.seed
        ));
    }
    context.print(&out)
}

fn run_react(args: &ReactArgs, context: &mut Context<'_>) -> Result<()> {
    let tables = context.tables()?;
    let character: Character = args.character.parse()?;
    let trigger = args
        .trigger
        .as_deref()
        .map(str::parse::<Trigger>)
        .transpose()?;
    let roll = match forced(args.roll, Die::D100, "--roll")? {
        Some(roll) => roll,
        None => context
            .dice(args.seed)
            .roll(Die::D100, "general's reaction")?,
    };
    let reaction = general::react(&tables, character, trigger, roll)?;
    if args.json {
        let mut value = serde_json::to_value(&reaction).unwrap_or_default();
        if args.odds {
            let odds: serde_json::Map<String, serde_json::Value> = tables
                .generals
                .odds(character)
                .into_iter()
                .map(|(letter, p)| (letter.to_string(), serde_json::json!(p)))
                .collect();
            value["odds"] = serde_json::Value::Object(odds);
        }
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = text::general_reaction(&tables, &reaction);
    if args.odds {
        out.push_str(&text::general_odds(&tables, character));
    }
    context.print(&out)
}
