//! The unchecked shape of a scenario file, exactly as serde reads it.
//! Field names here are the file format documented in `docs/scenarios.md`.
#![allow(missing_docs)]

use serde::Deserialize;

/// A point written `[x, y]` in inches.
pub type RawPoint = [f64; 2];

/// A whole scenario file, before validation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    pub title: String,
    #[serde(default)]
    pub history: String,
    pub ruleset: String,
    pub table: RawTable,
    #[serde(default)]
    pub cell: Option<f64>,
    pub turns: u32,
    pub first: String,
    #[serde(default)]
    pub optional_rules: Vec<String>,
    #[serde(default)]
    pub terrain: Vec<RawFeature>,
    #[serde(default)]
    pub areas: Vec<RawArea>,
    pub sides: Vec<RawSide>,
    #[serde(default)]
    pub victory: Vec<RawVictory>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
    pub width: f64,
    pub height: f64,
}

/// One terrain feature; exactly one of the four shape keys.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeature {
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub height: Option<f64>,
    #[serde(default)]
    pub polygon: Option<Vec<RawPoint>>,
    #[serde(default)]
    pub rect: Option<[RawPoint; 2]>,
    #[serde(default)]
    pub circle: Option<RawCircle>,
    #[serde(default)]
    pub line: Option<Vec<RawPoint>>,
    #[serde(default)]
    pub width: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCircle {
    pub centre: RawPoint,
    pub radius: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArea {
    pub name: String,
    pub rect: [RawPoint; 2],
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSide {
    pub name: String,
    pub edge: String,
    #[serde(default)]
    pub generals: Vec<RawGeneral>,
    #[serde(default)]
    pub reinforcements: Option<String>,
    #[serde(default)]
    pub posture: Option<String>,
    #[serde(default)]
    pub plan: Option<RawPlan>,
    #[serde(default)]
    pub zones: Vec<RawArea>,
    #[serde(default)]
    pub units: Vec<RawUnit>,
    #[serde(default)]
    pub reserves: Vec<RawUnit>,
}

/// `plan: free` (or `attack`, `defend` with what they take worked out),
/// `plan: { attack: TARGET }`, `plan: { defend: [LINES] }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RawPlan {
    Name(String),
    Given(RawPlanGiven),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlanGiven {
    #[serde(default)]
    pub attack: Option<String>,
    #[serde(default)]
    pub defend: Option<Vec<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum RawFacing {
    Degrees(f64),
    Edge(String),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGeneral {
    pub name: String,
    pub character: String,
    #[serde(default)]
    pub rallies: Option<u32>,
    #[serde(default)]
    pub position: Option<RawPoint>,
    #[serde(default)]
    pub facing: Option<RawFacing>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub name: String,
    pub troop_type: String,
    #[serde(default)]
    pub reaction_class: Option<String>,
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub character: Option<String>,
    #[serde(default)]
    pub position: Option<RawPoint>,
    #[serde(default)]
    pub facing: Option<RawFacing>,
    #[serde(default)]
    pub zone: Option<String>,
    #[serde(default)]
    pub strength: Option<u32>,
    #[serde(default)]
    pub group: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawVictory {
    pub winner: String,
    #[serde(with = "serde_yaml::with::singleton_map")]
    pub when: RawCondition,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum RawCondition {
    RoutFraction {
        side: String,
        more_than: f64,
    },
    RoutOrExit {
        side: String,
        troop_type: String,
        count: u32,
    },
    HoldArea {
        side: String,
        area: String,
    },
}
