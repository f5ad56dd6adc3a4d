//! Seed 000's earlier save format (versions 1 to 3, before one format
//! served every rule set), read into today's [`GameSave`].

use crate::dice::Scheme;
use crate::host::save::{self, About, GameSave, Watched};
use crate::host::{Action, Engine};
use crate::save::{Made, ScenarioFile};
use serde::Deserialize;

/// Seed 000's saves, versions 1 to 3: no format name, sides by index,
/// seed 000's actions; version 2 added `steps`, `started` and `about`,
/// version 3 `made`.
#[derive(Deserialize)]
struct PlaySave {
    #[allow(dead_code)]
    version: u32,
    scenario: ScenarioFile,
    seed: u64,
    player_sides: Vec<usize>,
    actions: Vec<crate::rules::Action>,
    #[serde(default)]
    baseline_sides: Vec<usize>,
    #[serde(default)]
    rules_off: Vec<String>,
    #[serde(default)]
    asked: bool,
    #[serde(default)]
    rolls: Vec<u8>,
    #[serde(default)]
    steps: usize,
    #[serde(default)]
    started: Option<u64>,
    #[serde(default)]
    about: Option<About>,
    #[serde(default)]
    made: Option<Made>,
}

/// Read a seed-000 save of versions 1 to 3.
pub(crate) fn earlier_seed_000_save(value: serde_json::Value) -> Result<GameSave, String> {
    let version = save::version(&value, save::VERSION)?;
    if version > 3 {
        return Err(format!(
            "is not a foe play save: a version {version} save names its `format`"
        ));
    }
    let save: PlaySave = serde_json::from_value(value)
        .map_err(|error| format!("is not a foe play save: {error}"))?;
    Ok(GameSave {
        player_sides: Vec::new(),
        baseline_sides: Vec::new(),
        rules_off: save.rules_off,
        actions: save.actions.into_iter().map(Action::Awi).collect(),
        asked: save.asked,
        rolls: save.rolls,
        watched: (save.steps > 0).then_some(Watched::Turns(save.steps)),
        started: save.started,
        about: save.about,
        made: save.made,
        side_indices: Some((save.player_sides, save.baseline_sides)),
        dice: Scheme::earlier(),
        ..GameSave::new(Engine::Awi, save.scenario, save.seed)
    })
}
