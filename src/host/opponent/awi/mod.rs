//! The Lone Warrior opponent's part for seed 000 (seed 004 driving the
//! seed-000 rules engine), in the one opponent module: every unit of a commanded side takes the
//! reaction test each bound, reading its situation off the game state as a
//! player at the table would, and its order is carried out through legal
//! engine actions; generals react to the three triggers; reserves and
//! reinforcements are called up and enter at the centre of their edge.
//!
//! Every decision carries its reasons as data ([`Decision`],
//! [`GeneralDecision`]): the factors read off the map, the reaction test,
//! the target and why, the route, the actions sent and any refused. The
//! edges (`foe play`, logs, `foe simulate`) render these; they never
//! recompute them. The mapping of the seed's orders onto the seed-000 rules
//! is ruled in `docs/rulings.md`, "Opponent" (O1…).
//!
//! Pure: no I/O, no printing, no clock, no global RNG; dice come only from
//! the [`Roller`] passed in.

pub(crate) mod act;
mod command;
pub(crate) mod memo;
mod plan;
mod read;

#[cfg(test)]
mod tests;

use crate::battlefield::{Field, Point};
use crate::dice::Roller;
use crate::reaction::{self, Factor, Options, Outcome};
use crate::rules::{
    Action, Checked, Event, GameState, GeneralId, Outcome as GameOutcome, Refusal, UnitId,
};
use crate::ruleset::TroopTypeId;
use crate::scenario::Scenario;
use crate::tables::{Character, ClassKind, Formation, Order, Reaction, Tables, Trigger};
use memo::UnitMemo;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use crate::host::probe::{Probe, Probing, Stage, staged};
pub(crate) use command::entries;
pub use plan::{DefenceLine, SidePlan};
pub use read::{Reading, figures_lost, unit_ground};

/// Where a decision's accepted actions, refusals and events are recorded.
type Record<'a> = (
    &'a mut Vec<Action>,
    &'a mut Vec<(Action, Refusal)>,
    &'a mut Vec<Event>,
);

/// What the opponent remembers about one unit between bounds.
#[derive(Debug, Clone, PartialEq)]
struct Memory {
    /// Lone Warrior reaction class id.
    class: String,
    /// The class's kind on the chart (`None` for a class the chart does not
    /// have), kept so that it is not looked up by name every bound.
    kind: Option<ClassKind>,
    /// Unit character, for rated classes.
    character: Option<Character>,
    /// Formation (the seed-000 engine has none; the opponent keeps it for
    /// the order variants, ruling O6).
    formation: Formation,
    /// Disordered by a fire-and-withdraw in close order.
    disordered: bool,
    /// Figures at full strength (ruling O3).
    figures: u32,
    /// Fell back last bound (withdraw, rout, fire and withdraw that moved).
    withdrew: bool,
    /// Lost a melee (retreated) since its last test.
    lost_melee: bool,
    /// Hits when it last tested.
    hits_at_test: u32,
    /// Guns abandoned on a rout: never act again.
    abandoned: bool,
}

impl Memory {
    /// The part of the memory a player is shown.
    fn state(&self) -> UnitState {
        UnitState {
            formation: self.formation,
            disordered: self.disordered,
            withdrew: self.withdrew,
            abandoned: self.abandoned,
        }
    }
}

/// A unit's state as the opponent keeps it (the seed-000 engine has no
/// formations or disorder, ruling O6): what `status`, `what`, the maps and
/// the log show of a unit of foe's, all in [`UnitState`]'s words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitState {
    /// Its formation (line, column, skirmish, limbered…).
    pub formation: Formation,
    /// Disordered by a fire-and-withdraw in close order.
    pub disordered: bool,
    /// Fell back last bound (it tests in the withdrawing column).
    pub withdrew: bool,
    /// Its guns abandoned: it never acts again.
    pub abandoned: bool,
}

impl UnitState {
    /// The state in short words, formation first: `column, disordered,
    /// fell back`.
    pub fn words(&self) -> Vec<String> {
        let mut words = vec![formation_words(self.formation)];
        if self.disordered {
            words.push("disordered".into());
        }
        if self.withdrew {
            words.push("fell back".into());
        }
        if self.abandoned {
            words.push("guns abandoned".into());
        }
        words
    }

    /// What changed from `before` to this state that a bound's report
    /// tells (a fall back is told by the move itself): `now in column`,
    /// `disordered`, `reformed`, `guns abandoned`.
    pub fn changes_since(&self, before: &UnitState) -> Vec<String> {
        let mut changes = Vec::new();
        if self.formation != before.formation {
            changes.push(format!("now in {}", formation_words(self.formation)));
        }
        match (before.disordered, self.disordered) {
            (false, true) => changes.push("disordered".into()),
            (true, false) => changes.push("reformed".into()),
            _ => {}
        }
        if self.abandoned && !before.abandoned {
            changes.push("guns abandoned".into());
        }
        changes
    }
}

impl std::fmt::Display for UnitState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words().join(", "))
    }
}

/// A formation in words: its id with spaces (`close order`).
fn formation_words(formation: Formation) -> String {
    formation.id().replace('-', " ")
}

/// What the opponent remembers about one of its generals.
#[derive(Debug, Clone, Default, PartialEq)]
struct GeneralMemory {
    /// Where he is riding to take his start position, until he is there.
    post: Option<Point>,
    /// The start position has been rolled.
    placed: bool,
    /// Rode off the table for good (reaction E at the baseline).
    left: bool,
}

/// What a distance field leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum FieldGoal {
    /// A table edge.
    Edge(crate::battlefield::Edge),
    /// The nearest natural or hard cover.
    Cover,
}

/// Computed fields by goal and troop type.
type FieldMap = HashMap<(FieldGoal, TroopTypeId), Arc<Field>>;

/// Distance fields that never change on a table (to cover, to an edge), per
/// troop type: computed once and shared by both sides and by every game on
/// the same scenario (pass one cache to each game's opponents, e.g. in
/// `foe simulate`). Only the table's terrain decides them.
#[derive(Debug, Default, Clone)]
pub struct FieldCache {
    fields: Arc<std::sync::Mutex<FieldMap>>,
}

impl FieldCache {
    /// The field for `goal` and `troop`, computed by `make` the first time.
    pub(crate) fn get(
        &self,
        goal: FieldGoal,
        troop: TroopTypeId,
        make: impl FnOnce() -> Field,
    ) -> Arc<Field> {
        // A poisoned lock only means another game panicked mid-insert; the
        // map is still sound.
        let mut fields = self.fields.lock().unwrap_or_else(|e| e.into_inner());
        fields
            .entry((goal, troop))
            .or_insert_with(|| Arc::new(make()))
            .clone()
    }
}

/// Where the opponent is in a phase of its side's turn
/// ([`Opponent::step`]): whom the phase has still to see to.
#[derive(Debug, Clone)]
enum Cursor {
    /// The phase has just begun.
    Start,
    /// The Movement phase's generals still to act, and the triggers that
    /// hold this bound.
    Generals(VecDeque<GeneralId>, Vec<Trigger>),
    /// The reserves still to take their test.
    Reserves(VecDeque<UnitId>),
    /// The units still to take their reaction test.
    Units(VecDeque<UnitId>),
    /// The units whose orders fire, still to shoot.
    Shots(VecDeque<UnitId>),
    /// The generals still to be asked whether they rally (by index).
    Rallies(VecDeque<usize>),
    /// Everyone has been seen to: the phase ends.
    Done,
}

/// The opponent commanding one side. Cloning is cheap enough for undo:
/// the distance fields are shared.
#[derive(Debug, Clone)]
pub struct Opponent {
    tables: Arc<Tables>,
    side: usize,
    /// The side's plan (rulings PL1–PL7).
    plan: SidePlan,
    /// The side's reinforcement table (`french`, `british`), if any.
    army: Option<String>,
    /// By unit id (all units of both sides; only own are used).
    units: Vec<Option<Memory>>,
    /// By general id.
    generals: Vec<GeneralMemory>,
    /// The last decision about each unit, by unit id (shared with the
    /// turn report it came in).
    last: Vec<Option<Arc<Decision>>>,
    /// The turn whose tests have been taken.
    tested_turn: Option<u32>,
    /// The phase the side's turn is in, as (turn, side, phase index), and
    /// whom that phase has still to see to ([`Opponent::step`]).
    phase_key: Option<(u32, usize, usize)>,
    cursor: Cursor,
    /// Enemy units seen falling back since our last bound.
    enemy_retreating: Vec<UnitId>,
    /// An enemy attacked within 6" since our last bound.
    enemy_attacking: bool,
    /// Own units routed or driven off since our last bound.
    own_lost: Vec<UnitId>,
    /// Reinforcements called up so far (for their names).
    called_up: u32,
    /// Units whose orders fire, for the Shooting phase.
    pending_fire: Vec<UnitId>,
    fields: FieldCache,
    /// Shared by the opponents of one game ([`Opponent::sharing_memo`]).
    pub(crate) memo: Rc<UnitMemo>,
    probe: Probing,
}

/// The route a move follows, in words and numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteNote {
    /// Where the unit's centre starts.
    pub from: Point,
    /// Where it ends this bound.
    pub to: Point,
    /// What it was heading for.
    pub goal: String,
    /// Movement cost of this bound's part, inches of open ground.
    pub length: f64,
    /// Legs (straight lines or road stretches) this bound.
    pub legs: usize,
    /// Whether the straight line served (no search was needed).
    pub straight: bool,
}

/// Why a unit has no way to go that is no fault of the plan: the rules
/// or its own side leave it none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hemmed {
    /// Within 6" of an enemy, no move directly towards or away from one
    /// brings it nearer its goal (seed 000 Enemy Presence).
    ByEnemy,
    /// Units of either side stand across every way there (units may not
    /// pass through one another, seed 000); over bare ground it would have
    /// one.
    ByUnits,
}

/// [`Decision::by`] when the order's own instruction (`tables/orders.yaml`)
/// carried it out rather than a plan rule.
pub const ORDER: &str = "order";

/// One unit's decision this bound, with every reason.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The unit.
    pub unit: UnitId,
    /// Its name.
    pub name: String,
    /// Game turn.
    pub turn: u32,
    /// The situation read off the map.
    pub reading: Reading,
    /// The reaction test: factors, die, total, order, variant.
    pub outcome: Outcome,
    /// What the order meant for it here, in words (the mapping onto the
    /// seed-000 rules, ruling numbers included).
    pub plan: String,
    /// The candidate that carried the order out: the name of the plan rule
    /// that acted (as in `tables/opponent.yaml`, e.g. `press-home`), or
    /// [`ORDER`] when the order's own instruction did.
    pub by: &'static str,
    /// The enemy it aimed at and why that one.
    pub target: Option<(UnitId, String)>,
    /// The route of its move, if it moved.
    pub route: Option<RouteNote>,
    /// Actions sent to the rules engine and accepted, in order.
    pub actions: Vec<Action>,
    /// Actions refused, with the rule that refused them.
    pub refused: Vec<(Action, Refusal)>,
    /// The engine events its actions caused (moves, shots, hits).
    pub events: Vec<Event>,
    /// Whether it fell back this bound (counts as withdrawing next bound).
    pub withdrew: bool,
    /// Whether its order moved it and no lawful way was found, so it stayed
    /// where it was (counted per troop type by `foe simulate`).
    pub stuck: bool,
    /// Whether its order moved it but the rules or its own side left it no
    /// way (hemmed in by the enemy-presence rule, or held up behind its
    /// other units), so it stayed; not counted as `stuck`.
    pub hemmed: Option<Hemmed>,
    /// Whether a plan rule turned its advance into a charge on a wavering
    /// enemy (ruling PL11, `press-home`): the turn report says so in words.
    pub pressed_home: bool,
    /// Its state before and after the bound, when the bound changed its
    /// formation, disorder or guns (for the log's `(now in column)`).
    pub state_change: Option<(UnitState, UnitState)>,
}

impl Decision {
    /// The decision of unit `unit`, named `name`, in turn `turn`, from its
    /// `reading` and reaction test, before anything is carried out: the
    /// order's own instruction, no action yet.
    fn new(unit: UnitId, name: String, turn: u32, reading: Reading, outcome: Outcome) -> Decision {
        Decision {
            unit,
            name,
            turn,
            reading,
            outcome,
            plan: String::new(),
            by: ORDER,
            target: None,
            route: None,
            actions: Vec::new(),
            refused: Vec::new(),
            events: Vec::new(),
            withdrew: false,
            stuck: false,
            hemmed: None,
            pressed_home: false,
            state_change: None,
        }
    }

    /// Where the actions sent for it, their refusals and events are kept.
    fn record(&mut self) -> Record<'_> {
        (&mut self.actions, &mut self.refused, &mut self.events)
    }
}

/// A general's decision this bound.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneralDecision {
    /// The general.
    pub general: GeneralId,
    /// His name.
    pub name: String,
    /// His character.
    pub character: Character,
    /// The start position rolled at his first bound: d100, letter, point.
    pub start: Option<(u8, Reaction, Point)>,
    /// The triggers that held this bound.
    pub triggers: Vec<Trigger>,
    /// The reaction test, if a trigger made him test.
    pub reaction: Option<crate::general::GeneralReaction>,
    /// What he did, in words.
    pub does: String,
    /// A reinforcement called up: d100, troop called.
    pub called_up: Option<(u8, String)>,
    /// Actions sent and accepted.
    pub actions: Vec<Action>,
    /// Actions refused.
    pub refused: Vec<(Action, Refusal)>,
}

/// A rally attempt and why.
#[derive(Debug, Clone, PartialEq)]
pub struct RallyDecision {
    /// The general.
    pub general: GeneralId,
    /// The units named, most urgent first.
    pub units: Vec<UnitId>,
    /// Why (the policy, ruling O14).
    pub why: String,
    /// The engine's events (the roll and hits removed).
    pub events: Vec<Event>,
}

/// Everything the opponent did in one player turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TurnReport {
    /// The side.
    pub side: usize,
    /// Game turn.
    pub turn: u32,
    /// Generals' decisions, in general order.
    pub generals: Vec<GeneralDecision>,
    /// Reserves' tests and entries (a decision with an off-table reading).
    /// Shared, not copied, with the opponent's memory of each unit's last
    /// decision (for `why`).
    pub reserves: Vec<Arc<Decision>>,
    /// Units' decisions, in unit order (shared as `reserves` are).
    pub decisions: Vec<Arc<Decision>>,
    /// Rally attempts.
    pub rallies: Vec<RallyDecision>,
    /// Every action sent and accepted, in order.
    pub actions: Vec<Action>,
    /// Every engine event, in order.
    pub events: Vec<Event>,
}

/// A unit's situation now and the exact odds of each order (`what UNIT`).
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// The unit.
    pub unit: UnitId,
    /// Its name.
    pub name: String,
    /// The situation read off the map.
    pub reading: Reading,
    /// Every factor except the die.
    pub factors: Vec<Factor>,
    /// Their sum.
    pub modifier: i32,
    /// Its state as the opponent keeps it.
    pub state: UnitState,
    /// Each possible order and its probability, boldest first.
    pub odds: Vec<(Order, f64)>,
}

/// A whole game played by opponents.
#[derive(Debug, Clone, Default)]
pub struct GameRecord {
    /// Every action accepted, in order (with the scenario and seed, the game).
    pub actions: Vec<Action>,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Each player turn's report.
    pub reports: Vec<TurnReport>,
    /// How it ended (`None` if no opponent commanded the side to act).
    pub outcome: Option<GameOutcome>,
    /// Game turns played.
    pub turns: u32,
}

impl Opponent {
    /// An opponent for `side` with the defaults of the rule set: each
    /// unit's reaction class from its troop type, its formation the class's
    /// usual one, no unit characters, no posture, no reinforcement table.
    /// Use [`Opponent::with_scenario`] to read those from the scenario.
    pub fn new(tables: Arc<Tables>, state: &GameState, side: usize) -> Opponent {
        let mut opponent = Opponent {
            tables,
            side,
            plan: SidePlan::default(),
            army: None,
            units: Vec::new(),
            generals: vec![GeneralMemory::default(); state.generals.len()],
            last: Vec::new(),
            tested_turn: None,
            phase_key: None,
            cursor: Cursor::Start,
            enemy_retreating: Vec::new(),
            enemy_attacking: false,
            own_lost: Vec::new(),
            called_up: 0,
            pending_fire: Vec::new(),
            fields: FieldCache::default(),
            memo: Rc::default(),
            probe: None,
        };
        opponent.sync(state);
        opponent
    }

    /// Read what the scenario says about the side: reaction classes,
    /// formations, unit characters and strengths, the side's posture and
    /// reinforcement table. Units are matched by name.
    pub fn with_scenario(mut self, scenario: &Scenario, state: &GameState) -> Opponent {
        let Some(side) = scenario.sides.get(self.side) else {
            return self;
        };
        self.plan = SidePlan::resolve(scenario, state, self.side);
        self.army = side.reinforcements.map(|table| match table {
            crate::scenario::ReinforcementTable::French => "french".to_string(),
            crate::scenario::ReinforcementTable::British => "british".to_string(),
        });
        for unit in side.units.iter().chain(&side.reserves) {
            let Some(id) = state.find_unit(&unit.name) else {
                continue;
            };
            let class = unit
                .reaction_class
                .clone()
                .unwrap_or_else(|| self.default_class(state, id));
            let memory = self.memory_for(
                state,
                id,
                class,
                Some(unit.formation),
                unit.character,
                unit.strength,
            );
            self.units[id.0] = Some(memory);
        }
        self
    }

    /// Share distance fields with other opponents on the same table.
    pub fn with_fields(mut self, cache: &FieldCache) -> Opponent {
        self.fields = cache.clone();
        self
    }

    /// Share what `other` has worked out about the units of this game
    /// (distances, arcs, ground: answers that do not depend on who asks),
    /// so that each side need not work out again what the other already
    /// has. Only for opponents of the same game.
    pub fn sharing_memo(mut self, other: &Opponent) -> Opponent {
        self.memo = other.memo.clone();
        self
    }

    /// Tell `probe` each stage of the opponent's work as it is entered
    /// (a profiler's clock lives there; see [`Probe`]).
    pub fn with_probe(mut self, probe: Arc<dyn Probe>) -> Opponent {
        self.probe = Some(probe);
        self
    }

    /// The side commanded.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The side's plan (rulings PL1–PL7).
    pub fn plan(&self) -> &SidePlan {
        &self.plan
    }

    /// Set the side's plan (e.g. for a scenario built in code).
    pub fn set_plan(&mut self, plan: SidePlan) {
        self.plan = plan;
    }

    /// Set the side's reinforcement table (`french` or `british`).
    pub fn set_reinforcements(&mut self, army: Option<&str>) {
        self.army = army.map(str::to_string);
    }

    /// Set a unit's character (rated classes only count it).
    pub fn set_character(&mut self, unit: UnitId, character: Option<Character>) {
        if let Some(Some(memory)) = self.units.get_mut(unit.0) {
            memory.character = character;
        }
    }

    /// The last decision about a unit (for `why UNIT`).
    pub fn last_decision(&self, unit: UnitId) -> Option<&Decision> {
        self.last.get(unit.0).and_then(Option::as_deref)
    }

    /// Before any roll: a unit's situation now and the exact odds of each
    /// order this bound (for `what UNIT`). `None` for a unit that is not
    /// the side's or not on the table.
    pub fn preview(&self, state: &GameState, unit: UnitId) -> Option<Preview> {
        let u = state.units.get(unit.0)?;
        if u.side != self.side || !u.is_active() {
            return None;
        }
        let memory = self.memory(state, unit);
        let reading = self.read(state, unit, &memory);
        let (factors, modifier) =
            reaction::modifiers(&self.tables, &reading.situation, Options::default()).ok()?;
        let odds = reaction::odds(&self.tables, &reading.situation, Options::default()).ok()?;
        Some(Preview {
            unit,
            name: u.name.clone(),
            reading,
            factors,
            modifier,
            state: memory.state(),
            odds,
        })
    }

    /// A unit's state as the opponent keeps it (formation, disorder, fell
    /// back, guns abandoned), for `status`, the maps and the log. `None`
    /// for a unit that is not the side's or not on the table (a routed or
    /// driven-off unit is shown as that by the engine's status).
    pub fn unit_state(&self, state: &GameState, unit: UnitId) -> Option<UnitState> {
        let u = state.units.get(unit.0)?;
        if u.side != self.side || !u.is_active() {
            return None;
        }
        Some(self.memory(state, unit).state())
    }

    /// Take note of engine events the opponent did not cause (the other
    /// side's turn): melees lost, enemies falling back or attacking, own
    /// units lost. [`Opponent::play_turn`] notes its own events itself;
    /// a driver passes the other side's events here ([`self_play`] does).
    pub fn observe(&mut self, state: &GameState, events: &[Event]) {
        self.sync(state);
        for event in events {
            match event {
                Event::Retreated { unit, .. } => {
                    if state.unit(*unit).side == self.side {
                        if let Some(Some(memory)) = self.units.get_mut(unit.0) {
                            memory.lost_melee = true;
                        }
                    } else if !self.enemy_retreating.contains(unit) {
                        self.enemy_retreating.push(*unit);
                    }
                }
                Event::Moved { unit, from, to, .. } => {
                    if state.unit(*unit).side == self.side {
                        continue;
                    }
                    let nearest =
                        |point: Point| state.units.least_centre_distance(self.side, point);
                    let (before, after) = (nearest(*from), nearest(*to));
                    // Ruling O12: an enemy that ends a move farther from our
                    // nearest unit by an inch or more is falling back; one
                    // that ends within 6" of ours, closer than it was, is
                    // attacking within 6".
                    if after >= before + 1.0 && !self.enemy_retreating.contains(unit) {
                        self.enemy_retreating.push(*unit);
                    }
                    let within = self.tables.reaction.distances.enemy_within + 1e-6;
                    let close = || {
                        // `distance <= within` holds only for bases not surely
                        // farther apart than `within`.
                        state
                            .units
                            .any_near(&state.unit(*unit).base, within, |index, own| {
                                own.side == self.side
                                    && own.is_active()
                                    && self.memo.distance(state, UnitId(index), *unit) <= within
                            })
                    };
                    if after < before && close() {
                        self.enemy_attacking = true;
                    }
                }
                Event::Charged { target, .. } if state.unit(*target).side == self.side => {
                    self.enemy_attacking = true;
                }
                Event::Routed { unit, .. } | Event::Exited { unit } => {
                    if state.unit(*unit).side == self.side {
                        self.own_lost.push(*unit);
                    } else if !self.enemy_retreating.contains(unit) {
                        self.enemy_retreating.push(*unit);
                    }
                }
                _ => {}
            }
        }
    }

    /// Play the side's whole player turn: from the current phase (the
    /// state's active side must be `side`) through the end of its Rallying
    /// phase, via legal engine actions only, a step at a time
    /// ([`Opponent::step`]). Never panics; a refused action is recorded and
    /// the unit falls back to a simpler action or nothing.
    pub fn play_turn(&mut self, state: &mut GameState, roller: &mut dyn Roller) -> TurnReport {
        let mut report = TurnReport {
            side: self.side,
            turn: state.turn,
            ..TurnReport::default()
        };
        let side = self.side;
        turn_by_steps(state, side, |state| self.step(state, roller, &mut report));
        self.remember(&report);
        report
    }

    /// Keep each decision of a finished turn's `report` as its unit's last
    /// (what `why UNIT` shows).
    pub fn remember(&mut self, report: &TurnReport) {
        for decision in report.decisions.iter().chain(&report.reserves) {
            let slot = decision.unit.0;
            if slot < self.last.len() {
                self.last[slot] = Some(decision.clone());
            }
        }
    }

    /// The side's next step in its turn, on `state`, whose active side it
    /// must be: in the Movement phase (once a bound) each general, each
    /// reserve waiting off table, then each unit in unit order; in the
    /// Shooting phase each unit whose order fires; in the Rallying phase
    /// each general with someone to rally; then the end of the phase. The
    /// step's actions are applied to `state` and recorded in `report` with
    /// its decision. A step of a phase the side has begun goes on where the
    /// last left off.
    pub fn step(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut TurnReport,
    ) {
        let key = (state.turn, state.active, state.phase_index);
        if self.phase_key != Some(key) {
            self.phase_key = Some(key);
            self.cursor = Cursor::Start;
        }
        if !self.see_to_next(state, roller, report) && !state.is_over() && state.active == self.side
        {
            self.send(state, roller, Action::EndPhase, report, None);
        }
    }

    /// See to the next unit or general the phase has still to see to (the
    /// first, when it has just begun); `false` when there is no one left.
    fn see_to_next(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut TurnReport,
    ) -> bool {
        loop {
            match std::mem::replace(&mut self.cursor, Cursor::Done) {
                Cursor::Start => {
                    self.sync(state);
                    self.cursor = match state.phase() {
                        crate::rules::Phase::Movement if self.tested_turn != Some(state.turn) => {
                            self.tested_turn = Some(state.turn);
                            self.begin_movement(state)
                        }
                        crate::rules::Phase::Shooting => {
                            Cursor::Shots(std::mem::take(&mut self.pending_fire).into())
                        }
                        crate::rules::Phase::Rallying => {
                            Cursor::Rallies((0..state.generals.len()).collect())
                        }
                        _ => Cursor::Done,
                    };
                }
                Cursor::Generals(mut generals, triggers) => {
                    if let Some(id) = generals.pop_front() {
                        let decision = self.general(state, roller, id, &triggers, report);
                        report.generals.push(decision);
                        self.cursor = Cursor::Generals(generals, triggers);
                        return true;
                    }
                    self.cursor = Cursor::Reserves(self.waiting(state));
                }
                Cursor::Reserves(mut waiting) => {
                    if let Some(id) = waiting.pop_front() {
                        self.reserve(state, roller, id, report);
                        self.cursor = Cursor::Reserves(waiting);
                        return true;
                    }
                    self.pending_fire.clear();
                    self.cursor = Cursor::Units(active_ids(state, self.side).into());
                }
                Cursor::Units(mut own) => {
                    while let Some(id) = own.pop_front() {
                        if self.tests(state, id) {
                            self.unit_bound(state, roller, id, report);
                            self.cursor = Cursor::Units(own);
                            return true;
                        }
                    }
                    // What was seen falling back counted for this bound's
                    // tests.
                    self.enemy_retreating.clear();
                }
                Cursor::Shots(mut firing) => {
                    if let Some(id) = firing.pop_front() {
                        self.unit_shot(state, roller, id, report);
                        self.cursor = Cursor::Shots(firing);
                        return true;
                    }
                }
                Cursor::Rallies(mut generals) => {
                    while let Some(index) = generals.pop_front() {
                        if self.rally(state, roller, index, report) {
                            self.cursor = Cursor::Rallies(generals);
                            return true;
                        }
                    }
                }
                Cursor::Done => return false,
            }
        }
    }

    /// The Movement phase of the bound, whatever was tested before, up to
    /// (not including) its end: the generals, the reserves, then every
    /// unit. For the tests of its parts.
    #[cfg(test)]
    fn movement(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        report: &mut TurnReport,
    ) {
        self.cursor = self.begin_movement(state);
        while self.see_to_next(state, roller, report) {}
    }

    /// The phase the side is in from its start, up to (not including) its
    /// end, as [`Opponent::step`] sees to it. For the tests of its parts.
    #[cfg(test)]
    fn phase(&mut self, state: &mut GameState, roller: &mut dyn Roller, report: &mut TurnReport) {
        self.cursor = Cursor::Start;
        self.phase_key = Some((state.turn, state.active, state.phase_index));
        while self.see_to_next(state, roller, report) {}
    }

    /// Make room in the memories for units the state has and we have not
    /// seen (reinforcements called up), with rule-set defaults.
    fn sync(&mut self, state: &GameState) {
        while self.units.len() < state.units.len() {
            let id = UnitId(self.units.len());
            let memory = (state.unit(id).side == self.side).then(|| {
                let class = self.default_class(state, id);
                self.memory_for(state, id, class, None, None, None)
            });
            self.units.push(memory);
        }
        self.last.resize(state.units.len(), None);
        self.generals
            .resize(state.generals.len(), GeneralMemory::default());
    }

    /// The troop type's reaction class (rule set), or `british-regulars`
    /// for a type with none.
    fn default_class(&self, state: &GameState, id: UnitId) -> String {
        let troop = state.battlefield.ruleset.troop(state.unit(id).troop);
        troop
            .reaction_class
            .clone()
            .unwrap_or_else(|| "british-regulars".to_string())
    }

    fn memory_for(
        &self,
        state: &GameState,
        id: UnitId,
        class: String,
        formation: Option<crate::scenario::Formation>,
        character: Option<Character>,
        strength: Option<u32>,
    ) -> Memory {
        let (kind, rated) = match self.tables.reaction.class(&class) {
            Ok((_, row)) => (row.kind, row.rated),
            Err(_) => (ClassKind::Line, false),
        };
        let class = match self.tables.reaction.class(&class) {
            Ok((id, _)) => id.to_string(),
            Err(_) => "british-regulars".to_string(),
        };
        let class_kind = self
            .tables
            .reaction
            .class(&class)
            .ok()
            .map(|(_, row)| row.kind);
        let wanted = formation.map(|f| match f {
            crate::scenario::Formation::Line => Formation::Line,
            crate::scenario::Formation::Column => Formation::Column,
            crate::scenario::Formation::Skirmish => Formation::Skirmish,
            crate::scenario::Formation::Limbered => Formation::Limbered,
        });
        let formation = wanted
            .filter(|f| f.fits(kind))
            .unwrap_or(Formation::default_for(kind));
        let unit = state.unit(id);
        let threshold = state.rules.rout_threshold(unit.category).unwrap_or(13);
        Memory {
            class,
            kind: class_kind,
            character: if rated { character } else { None },
            formation,
            disordered: false,
            figures: strength.unwrap_or(threshold).max(1),
            withdrew: false,
            lost_melee: false,
            hits_at_test: unit.hits,
            abandoned: false,
        }
    }

    /// A unit's memory (a default for one we have not seen).
    fn memory(&self, state: &GameState, id: UnitId) -> Memory {
        match self.units.get(id.0) {
            Some(Some(memory)) => memory.clone(),
            _ => self.memory_for(state, id, self.default_class(state, id), None, None, None),
        }
    }

    /// Send one action; note its events; record it in `decision` if given.
    fn send(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        action: Action,
        report: &mut TurnReport,
        decision: Option<Record<'_>>,
    ) -> bool {
        match staged(&self.probe, Stage::Rules, || state.apply(&action, roller)) {
            Ok(events) => {
                self.sent(state, action, events, report, decision);
                true
            }
            Err(refusal) => {
                if let Some((_, refused, _)) = decision {
                    refused.push((action, refusal));
                }
                false
            }
        }
    }

    /// Carry out `checked`, an action just checked against `state` as it
    /// is: the same as [`Opponent::send`] accepting it, without the engine
    /// checking it a second time.
    fn send_checked(
        &mut self,
        state: &mut GameState,
        roller: &mut dyn Roller,
        checked: Checked,
        report: &mut TurnReport,
        decision: Option<Record<'_>>,
    ) {
        let action = checked.action().clone();
        let events = staged(&self.probe, Stage::Rules, || {
            state.apply_checked(checked, roller)
        });
        self.sent(state, action, events, report, decision);
    }

    /// Record an action the engine carried out, and its events.
    fn sent(
        &mut self,
        state: &GameState,
        action: Action,
        events: Vec<Event>,
        report: &mut TurnReport,
        decision: Option<Record<'_>>,
    ) {
        self.observe_own(state, &events);
        if let Some((actions, _, decision_events)) = decision {
            actions.push(action.clone());
            decision_events.extend(events.iter().cloned());
        }
        report.actions.push(action);
        report.events.extend(events);
    }

    /// Own-turn events: the same notes as [`Opponent::observe`].
    fn observe_own(&mut self, state: &GameState, events: &[Event]) {
        let interesting = events.iter().any(|e| {
            matches!(
                e,
                Event::Retreated { .. } | Event::Routed { .. } | Event::Exited { .. }
            )
        });
        if interesting {
            let notes: Vec<Event> = events
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Retreated { .. } | Event::Routed { .. } | Event::Exited { .. }
                    )
                })
                .cloned()
                .collect();
            self.observe(state, &notes);
        } else {
            self.sync(state);
        }
    }
}

/// The most steps a commander may take in one side's turn: every phase of
/// it, each with a step for every unit and general (and its end). A guard
/// against a turn that never ends, never reached in a sound game.
pub(crate) fn steps_a_turn_at_most(state: &GameState) -> usize {
    16 * (state.units.len() + state.generals.len() + 1)
}

/// Take `step` while it is `side`'s turn, this turn, and the game goes on,
/// at most [`steps_a_turn_at_most`] times.
pub(crate) fn turn_by_steps(
    state: &mut GameState,
    side: usize,
    mut step: impl FnMut(&mut GameState),
) {
    let turn = state.turn;
    for _ in 0..steps_a_turn_at_most(state) {
        if state.is_over() || state.active != side || state.turn != turn {
            break;
        }
        step(state);
    }
}

/// The active units of `side`, in unit order, in a list sized for every
/// unit at once (the filter gives no length, so collecting would grow it).
pub(super) fn active_ids(state: &GameState, side: usize) -> Vec<UnitId> {
    let mut ids = Vec::with_capacity(state.units.len());
    ids.extend(state.active_units(side));
    ids
}

/// Opponents for both sides of a scenario (watch mode, `foe simulate`),
/// sharing one distance-field cache.
pub fn opponents_for(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    state: &GameState,
) -> Vec<Opponent> {
    opponents_sharing(tables, scenario, state, &FieldCache::default())
}

/// Opponents for both sides, sharing `cache` with other games on the same
/// scenario (so static fields are computed once per run, not per game).
pub fn opponents_sharing(
    tables: &Arc<Tables>,
    scenario: &Scenario,
    state: &GameState,
    cache: &FieldCache,
) -> Vec<Opponent> {
    let mut opponents: Vec<Opponent> = Vec::with_capacity(state.sides.len());
    for side in 0..state.sides.len() {
        let mut opponent = Opponent::new(tables.clone(), state, side)
            .with_scenario(scenario, state)
            .with_fields(cache);
        if let Some(first) = opponents.first() {
            opponent = opponent.sharing_memo(first);
        }
        opponents.push(opponent);
    }
    opponents
}

/// Play a whole game with opponents commanding the given sides (both =
/// self-play), returning every action and event. Stops when the game is
/// over or when the side to act has no opponent here.
pub fn self_play(
    state: &mut GameState,
    opponents: &mut [Opponent],
    roller: &mut dyn Roller,
) -> GameRecord {
    let mut record = GameRecord::default();
    let limit = (state.turns as usize + 1) * 2 + 2;
    for _ in 0..limit {
        if state.is_over() {
            break;
        }
        let Some(index) = opponents.iter().position(|o| o.side == state.active) else {
            break;
        };
        let before = (state.turn, state.active, state.phase_index);
        let report = opponents[index].play_turn(state, roller);
        for (other, opponent) in opponents.iter_mut().enumerate() {
            if other != index {
                opponent.observe(state, &report.events);
            }
        }
        record.actions.extend(report.actions.iter().cloned());
        record.events.extend(report.events.iter().cloned());
        record.reports.push(report);
        if (state.turn, state.active, state.phase_index) == before {
            break;
        }
    }
    record.outcome = state.outcome.clone();
    record.turns = state.turn;
    record
}
