//! `foe reinforce`: call up a unit of reinforcements.

use super::Context;
use super::react::forced;
use crate::dice::Die;
use crate::error::Result;
use crate::reinforce;
use crate::render::text;
use crate::tables::Character;

/// Arguments of `foe reinforce`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Example:
  foe reinforce --army french --roll 50 --die 2

    French reinforcements, d100 50: Canadian Militia
      Reaction test as an encamped reserve:
      Canadian Militia and Indians in open ground  -1
      No enemy in sight                            +3
      Die                                          +2
      TOTAL                                        +4: Stand and fire
      -> No enemy in sight, stand fast.
      => Stays off table, encamped")]
pub struct Args {
    /// The army's table: french or british.
    #[arg(long, value_name = "ARMY")]
    pub army: String,
    /// Use this d100 roll for the selection instead of rolling.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub roll: Option<i64>,
    /// Use this D6 for the reserve's reaction test instead of rolling.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub die: Option<i64>,
    /// The unit's character, for militia and provincial troops.
    #[arg(long, value_name = "C")]
    pub character: Option<String>,
    /// Seed for the rolls.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Show the exact odds of every call-up over the d100 and the D6.
    #[arg(long)]
    pub odds: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Run `foe reinforce`.
pub fn run(args: &Args, context: &mut Context<'_>) -> Result<()> {
    let tables = context.tables()?;
    tables.reinforcements.army(&args.army)?;
    let character = args
        .character
        .as_deref()
        .map(str::parse::<Character>)
        .transpose()?;
    let forced_roll = forced(args.roll, Die::D100, "--roll")?;
    let forced_die = forced(args.die, Die::D6, "--die")?;
    let mut dice = context.dice(args.seed);
    let roll = match forced_roll {
        Some(roll) => roll,
        None => dice.roll(Die::D100, "reinforcement table")?,
    };
    let die = match forced_die {
        Some(die) => die,
        None => dice.roll(Die::D6, "reserve's reaction test")?,
    };
    let rolled = (forced_roll.is_none() || forced_die.is_none()) && !context.asks();
    let called = reinforce::call_up(&tables, &args.army, roll, die, character)?;
    let odds = if args.odds {
        Some(reinforce::odds(&tables, &args.army, character)?)
    } else {
        None
    };
    if args.json {
        let mut value = serde_json::to_value(&called).unwrap_or_default();
        value["order"] = serde_json::json!(called.test.order.id());
        if let Some(odds) = &odds {
            value["odds"] = serde_json::to_value(odds).unwrap_or_default();
        }
        if rolled {
            value["seed"] = serde_json::json!(dice.seed);
        }
        return context.print(&format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        ));
    }
    let mut out = text::reinforcement(&called);
    if let Some(odds) = &odds {
        out.push_str(&text::reinforcement_odds(odds));
    }
    if rolled {
        out.push_str(&format!(
            "  (rolled with seed {}; --seed {} repeats it)\n",
            dice.seed, dice.seed
        ));
    }
    context.print(&out)
}
