//! The house mapping and the plan rules of the host opponent
//! (`tables/opponent-other-rules.yaml`, rulings HO3–HO5 and HO8–HO12).
//!
//! Every departure from seed 004 is a named rule with a switch. The CLI's
//! `--rule NAME=off` knows seed 000's rule names only, so each rule here
//! names the seed-000 switch it follows (`switch:`): `--rule
//! close-to-range=off` turns off every host rule whose switch it is, and
//! `--rule all=off` leaves the host opponent pure Lone Warrior.

use crate::host::Engine;
use crate::tables::{PlanRules, Tables};
use crate::yaml::{Problems, Source};
use serde::Deserialize;

/// The numbers of the house mapping and the plan rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Figures a seed-001 base counts for in the reaction test (HO3).
    pub rv_figures_per_base: u32,
    /// A unit whose nearest enemy is more than this far off its front
    /// turns to face it (HO4).
    pub turn_to_face_degrees: f64,
    /// The plan rules, each with its switch.
    pub rules: HostRules,
}

/// One plan rule: whether it is on, and the `--rule` switch that can turn
/// it off.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// On in the file.
    pub on: bool,
    /// The seed-000 rule name `--rule NAME=off` turns it off with.
    pub switch: String,
    /// The engines whose games it shapes (`rv` seed 001, `acw` seed 002).
    pub engines: Vec<crate::host::Engine>,
}

/// The host opponent's plan rules (rulings HO5, HO8–HO12).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct HostRules {
    /// HO5: an attacker with no shot moves up until it has one.
    pub close_to_range: Rule,
    /// HO8: an attacker's advance goes for the objective.
    pub advance_on_objective: Rule,
    /// HO9: a defender holds its ground and fights where it stands.
    pub hold_the_line: Rule,
    /// HO10: an attacker ordered to advance charges when the rules let it.
    pub press_home: Rule,
    /// HO11: seed-001 commanders ride with the unit nearest the enemy.
    pub general_leads: Rule,
    /// HO12: seed-002 units that cannot fire for want of sight or arc
    /// shift or turn to where they can.
    pub find_a_shot: Rule,
}

/// The rule names as the file writes them, in file order.
pub const RULE_NAMES: [&str; 6] = [
    "close-to-range",
    "advance-on-objective",
    "hold-the-line",
    "press-home",
    "general-leads",
    "find-a-shot",
];

/// Which rules are on for a game: the file's, less those whose switch is
/// off in the tables (`--rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RulesOn {
    /// HO5.
    pub close_to_range: bool,
    /// HO8.
    pub advance_on_objective: bool,
    /// HO9.
    pub hold_the_line: bool,
    /// HO10.
    pub press_home: bool,
    /// HO11.
    pub general_leads: bool,
    /// HO12.
    pub find_a_shot: bool,
}

impl RulesOn {
    /// Every rule off: pure Lone Warrior.
    pub fn none() -> RulesOn {
        RulesOn::default()
    }

    /// Switch the rule named `name` (one of [`RULE_NAMES`]); `false` for
    /// an unknown name.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        let switch = match name {
            "close-to-range" => &mut self.close_to_range,
            "advance-on-objective" => &mut self.advance_on_objective,
            "hold-the-line" => &mut self.hold_the_line,
            "press-home" => &mut self.press_home,
            "general-leads" => &mut self.general_leads,
            "find-a-shot" => &mut self.find_a_shot,
            _ => return false,
        };
        *switch = on;
        true
    }
}

/// The settings file as shipped.
pub const SETTINGS_FILE: (&str, &str) = (
    "tables/opponent-other-rules.yaml",
    include_str!("../../../tables/opponent-other-rules.yaml"),
);

impl Settings {
    /// The shipped settings. The file is embedded and a test reads it, so
    /// this cannot fail in a released binary.
    pub fn builtin() -> Settings {
        // Read once a run: every game's opponent starts from them.
        static SHIPPED: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                serde_yaml::from_str(SETTINGS_FILE.1)
                    .expect("the shipped opponent settings are valid")
            })
            .clone()
    }

    /// The settings of a game played with `tables`: their
    /// `opponent-other-rules.yaml` (the shipped one, or a player's under
    /// `--tables`), with every problem located.
    pub fn of(tables: &Tables) -> Result<Settings, Problems> {
        let file = &tables.other_rules;
        if file.text == SETTINGS_FILE.1 {
            return Ok(Settings::builtin());
        }
        Source::new(&file.shown_as, &file.text).parse()
    }

    /// Each rule by name with its file setting, in file order.
    pub fn rules(&self) -> [(&'static str, &Rule); 6] {
        let rules = &self.rules;
        [
            (RULE_NAMES[0], &rules.close_to_range),
            (RULE_NAMES[1], &rules.advance_on_objective),
            (RULE_NAMES[2], &rules.hold_the_line),
            (RULE_NAMES[3], &rules.press_home),
            (RULE_NAMES[4], &rules.general_leads),
            (RULE_NAMES[5], &rules.find_a_shot),
        ]
    }

    /// Whether every plan rule switched off in `tables` (`--rule`) is one
    /// a rule of `engine` follows (ruling HO8): a switch none follows would
    /// change nothing, so it is an error naming the switches that do.
    /// Every rule off (`all=off`, pure Lone Warrior) is always taken.
    pub fn check_switches(
        &self,
        tables: &Tables,
        engine: Engine,
        ruleset: &str,
    ) -> Result<(), String> {
        let rules = &tables.opponent.rules;
        // Switched from the shipped tables: a rule the shipped tables leave
        // off (`cavalry-reserve`, ruling PL9) was not switched off by the
        // player, and one switched on was.
        let (switched_off, switched_on) = PlanRules::changed_from_shipped(&rules.off());
        // Every rule that ships on is off: `all=off`, pure Lone Warrior.
        let shipped_on = rules.list().len() - PlanRules::changed_from_shipped(&[]).1.len();
        let every_rule_off = switched_off.len() == shipped_on;
        let mut followed: Vec<&str> = self
            .rules()
            .iter()
            .filter(|(_, rule)| rule.engines.contains(&engine))
            .map(|(_, rule)| rule.switch.as_str())
            .collect();
        followed.sort_unstable();
        followed.dedup();
        let not_followed = |setting: &str, alone: &str| {
            format!(
                "--rule {alone}={setting}: rule set `{ruleset}` ({}) is played by the opponent of rulings HO2-HO13, which has no `{alone}` there; its rules follow {} (or all)",
                engine.seed(),
                followed.join(", ")
            )
        };
        if let Some(alone) = switched_on
            .iter()
            .find(|name| !followed.contains(&name.as_str()))
        {
            return Err(not_followed("on", alone));
        }
        if every_rule_off {
            // `all=off`, pure Lone Warrior, is always taken.
            return Ok(());
        }
        match switched_off
            .iter()
            .find(|name| !followed.contains(&name.as_str()))
        {
            None => Ok(()),
            Some(alone) => Err(not_followed("off", alone)),
        }
    }

    /// The rules on for a game played with `tables`: on in the file, and
    /// not switched off by `--rule` (the tables' seed-000 switches).
    pub fn rules_on(&self, tables: &Tables) -> RulesOn {
        let mut on = RulesOn::none();
        for (name, rule) in self.rules() {
            let switched_off = tables.opponent.rules.is_on(&rule.switch) == Some(false);
            on.set(name, rule.on && !switched_off);
        }
        on
    }
}
