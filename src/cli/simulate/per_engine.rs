//! What `foe simulate` asks of the rule set a scenario is played under,
//! through the boundary: the `--set` keys its engine reads, and seed 001's
//! victory margin under a report. Everything else (the study, `--replay`,
//! `--bench`) is the same for every rule set.

use crate::error::{Error, Result};
use crate::host::Engine;
use crate::simulate::Aggregate;
use crate::simulate::set::Assignment;

/// Seed 001's victory margin under a report (nothing for rules without
/// one, so seed 000's reports are unchanged).
pub(super) fn margin_text(aggregate: &Aggregate) -> String {
    let margins = &aggregate.margins;
    if margins.is_empty() {
        return String::new();
    }
    format!(
        "\nVictory margin (house rule RV10: the defender's losses less the attacker's, % of bases)\n  mean {:+.1}, sd {:.1}, from {:+} to {:+} ({} games)\n",
        margins.mean(),
        margins.sd(),
        margins.low,
        margins.high,
        margins.games
    )
}

/// Refuse, in one line, a `--set` key that means nothing under the
/// engine's rules (a general's `rallies` under seed 001, a unit's
/// `strength` under seed 002), naming the valid keys there and the nearest
/// to a typo.
pub(super) fn check_sets(engine: Engine, ruleset: &str, sets: &[Assignment]) -> Result<()> {
    // Seed 000's keys are checked by validating the changed scenario.
    let Some(keys) = engine.scenario_keys() else {
        return Ok(());
    };
    for assignment in sets {
        let steps: Vec<&str> = assignment.key.split('.').collect();
        let (step, valid, what) = match steps.as_slice() {
            ["sides"] | ["sides", _] => continue,
            ["sides", _, field] => (*field, keys.side, "a side's"),
            ["sides", _, "units", _] | ["sides", _, "generals", _] => continue,
            ["sides", _, "units", _, field, ..] => (*field, keys.unit, "a unit's"),
            ["sides", _, "generals", _, field, ..] => (*field, keys.general, "a general's"),
            ["sides", _, field, ..] => (*field, keys.side, "a side's"),
            [top, ..] => (*top, keys.top, "the scenario's"),
            [] => continue,
        };
        if valid.contains(&step) {
            continue;
        }
        let hint = match crate::suggest::nearest(step, valid.iter().copied()) {
            Some(near) => format!("did you mean `{near}`? "),
            None => String::new(),
        };
        return Err(Error::Invalid(format!(
            "--set `{}`: `{step}` means nothing under rule set `{ruleset}` ({}); {hint}{what} keys there: {}",
            assignment.key,
            engine.seed(),
            valid.join(", ")
        )));
    }
    Ok(())
}
