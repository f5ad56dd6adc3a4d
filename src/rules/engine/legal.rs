//! The actions the side to act may take now, in a fixed order: moves are
//! continuous, so a sample of them (ruling "Enumerated moves"), each
//! accepted by the same checks as any action.

use super::quick_moves::{
    Heading, Listed, Moves, Neighbourhood, RoadMove, remembered_moves, remembered_road,
    remembered_way, with_key_buffer,
};
use crate::battlefield::geometry::{EPSILON, turn_between};
use crate::battlefield::{Point, Vector};
use crate::rules::event::{Action, Volley};
use crate::rules::id::{GeneralId, UnitId};
use crate::rules::state::{GameState, Unit};
use crate::rules::table::ActionKind;
use crate::ruleset::Category;

impl GameState {
    /// The actions the side to act may take now, in a fixed order. Moves
    /// are continuous, so a sample is enumerated (see `docs/rulings.md`):
    /// charges, pivots to face the nearest enemies, straight moves towards
    /// the three nearest enemies, directly away from the nearest, straight
    /// ahead and straight back (the longest legal of a full, three-quarter,
    /// half and quarter move), road moves towards the two nearest enemies
    /// along the pathing route, generals riding towards their most damaged
    /// units; every legal shot; one rally per general over his damaged
    /// units, most hits first; and ending the phase, always last. Each
    /// shot is listed as a single volley and, where the rule set allows
    /// one, a double.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        // Room for a usual listing (some two dozen actions), so that it is
        // not grown a push at a time.
        let mut actions = Vec::with_capacity(64);
        let allowed = &self.rules.phases[self.phase_index].actions;
        let own: Vec<UnitId> = self.active_units(self.active).collect();
        let enemies: Vec<UnitId> = self
            .active_units(GameState::enemy_of(self.active))
            .collect();
        // `allows` is exactly `check(..).is_ok()`, quicker for a refusal.
        // An action equal to one already listed names the same unit or
        // general, so it was listed since `from`, where that one's began.
        let push = |actions: &mut Vec<Action>, from: usize, action: Action| {
            if !actions[from..].contains(&action) && self.allows(&action) {
                actions.push(action);
            }
        };
        // An action naming a pair (or one) that is offered once at most
        // cannot have been listed already.
        let push_once = |actions: &mut Vec<Action>, action: Action| {
            if self.allows(&action) {
                actions.push(action);
            }
        };
        // One neighbourhood's room, for each unit in turn.
        let mut neighbourhood = Neighbourhood::empty();
        for &id in &own {
            let unit = &self.units[id.0];
            if unit.moved {
                continue;
            }
            let from = actions.len();
            let moving =
                allowed.contains(&ActionKind::Move) || allowed.contains(&ActionKind::MoveRoad);
            let pivoting = allowed.contains(&ActionKind::Pivot) && !unit.pivoted;
            // Only the three nearest enemies are used, and only by pivots
            // and moves.
            let nearest = if moving || pivoting {
                self.nearest_three(unit.base.centre, &enemies)
            } else {
                Nearest::default()
            };
            let nearest = nearest.as_slice();
            let near = (moving || pivoting).then(|| {
                self.fill_neighbourhood(id, &mut neighbourhood);
                &neighbourhood
            });
            if allowed.contains(&ActionKind::Charge) {
                let screen = self.charge_screen(unit);
                for &target in &enemies {
                    if !self.charge_surely_refused(&screen, target) {
                        push_once(&mut actions, Action::Charge { unit: id, target });
                    }
                }
            }
            // The unit's pivots and moves depend only on what the key
            // holds, and equal none of its charges listed before them.
            let moving_straight = allowed.contains(&ActionKind::Move);
            if let Some(near) = near
                && (pivoting || moving_straight)
            {
                with_key_buffer(|key| {
                    self.moves_key(near, nearest, pivoting, moving_straight, key);
                    let listed = || Listed {
                        pivots: if pivoting {
                            self.listed_pivots(unit, near, nearest)
                        } else {
                            Vec::new()
                        },
                        moves: if moving_straight {
                            self.listed_moves(unit, near, nearest)
                        } else {
                            Vec::new()
                        },
                    };
                    remembered_moves(&self.battlefield, key, listed, |listed| {
                        actions.extend(
                            listed
                                .pivots
                                .iter()
                                .map(|&facing| Action::Pivot { unit: id, facing }),
                        );
                        actions.extend(listed.moves.iter().map(|&(to, facing)| Action::Move {
                            unit: id,
                            to,
                            facing,
                        }));
                    });
                });
            }
            // A road move is refused whatever its path while an enemy is
            // within the enemy presence distance: no route is asked for.
            if allowed.contains(&ActionKind::MoveRoad)
                && near.is_some_and(|near| !near.enemy_present())
                && let Some(cell) = self.battlefield.grid.cell_at(unit.base.centre)
                && self.battlefield.on_road(cell)
            {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                for &enemy in nearest.iter().take(2) {
                    let goal = self.units[enemy.0].base.centre;
                    let Some((path, facing)) =
                        remembered_road(&self.battlefield, unit, goal, || {
                            self.road_move(unit, goal, allowance)
                        })
                    else {
                        continue;
                    };
                    push(
                        &mut actions,
                        from,
                        Action::MoveRoad {
                            unit: id,
                            path,
                            facing,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Enter) {
            for (index, unit) in self.units.iter().enumerate() {
                if unit.side == self.active && unit.is_reserve() {
                    push_once(
                        &mut actions,
                        Action::Enter {
                            unit: UnitId(index),
                            to: unit.base.centre,
                            facing: unit.base.facing,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::MoveGeneral) {
            for (index, general) in self.generals.iter().enumerate() {
                if general.side != self.active || general.moved {
                    continue;
                }
                let from = actions.len();
                let mut damaged: Vec<UnitId> = own.clone();
                damaged.sort_by_key(|id| (std::cmp::Reverse(self.units[id.0].hits), id.0));
                let allowance = self.battlefield.ruleset.move_inches[Category::General.index()];
                for id in damaged.into_iter().take(2) {
                    let target = self.units[id.0].base.centre;
                    let line = target - general.base.centre;
                    let length = line.length();
                    if length < 3.0 {
                        continue;
                    }
                    let travel = (length - 3.0).min(allowance);
                    let to = round_point(general.base.centre + line * (travel / length));
                    let action = Action::MoveGeneral {
                        general: GeneralId(index),
                        to,
                    };
                    if !actions[from..].contains(&action)
                        && self.allows_listed_general_move(GeneralId(index), to)
                    {
                        actions.push(action);
                    }
                }
            }
        }
        if allowed.contains(&ActionKind::Fire) {
            for &unit in &own {
                let shooter = &self.units[unit.0];
                let Some(most) = self.shot_reach(shooter) else {
                    continue;
                };
                for &target in &enemies {
                    if self.shot_surely_refused(shooter, most, target) {
                        continue;
                    }
                    // A single volley, then a double one where the rule
                    // set allows it (either side may fire it).
                    for volley in [Volley::Single, Volley::Double] {
                        push_once(
                            &mut actions,
                            Action::Fire {
                                unit,
                                target,
                                volley,
                            },
                        );
                    }
                }
            }
        }
        if allowed.contains(&ActionKind::Rally) {
            for action in self.rallies(&own) {
                push_once(&mut actions, action);
            }
        }
        actions.push(Action::EndPhase);
        actions
    }

    /// [`GameState::legal_actions`] worked out the plain way, every
    /// candidate through [`GameState::allows`] with nothing shared between
    /// them: the same list, in the same order, many times slower. Kept as
    /// the oracle the quick listing is tested against.
    #[doc(hidden)]
    pub fn legal_actions_plain(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let allowed = &self.rules.phases[self.phase_index].actions;
        let own: Vec<UnitId> = self.active_units(self.active).collect();
        let enemies: Vec<UnitId> = self
            .active_units(GameState::enemy_of(self.active))
            .collect();
        // `allows` is exactly `check(..).is_ok()`, quicker for a refusal.
        let push = |actions: &mut Vec<Action>, action: Action| {
            if !actions.contains(&action) && self.allows(&action) {
                actions.push(action);
            }
        };
        for &id in &own {
            let unit = &self.units[id.0];
            if unit.moved {
                continue;
            }
            let nearest = self.nearest(unit.base.centre, &enemies);
            if allowed.contains(&ActionKind::Charge) {
                for &target in &enemies {
                    push(&mut actions, Action::Charge { unit: id, target });
                }
            }
            if allowed.contains(&ActionKind::Pivot) && !unit.pivoted {
                for &enemy in nearest.iter().take(2) {
                    let facing = (self.units[enemy.0].base.centre - unit.base.centre).bearing();
                    if turn_between(unit.base.facing, facing) > 1.0 {
                        push(&mut actions, Action::Pivot { unit: id, facing });
                    }
                }
            }
            if allowed.contains(&ActionKind::Move) {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                for (direction, facing) in self.move_directions(unit, &nearest) {
                    let length = direction.length();
                    if length < EPSILON {
                        continue;
                    }
                    let direction = direction * (1.0 / length);
                    for fraction in [1.0, 0.75, 0.5, 0.25] {
                        let to = round_point(unit.base.centre + direction * (allowance * fraction));
                        let action = Action::Move {
                            unit: id,
                            to,
                            facing: round(facing),
                        };
                        if self.allows(&action) {
                            if !actions.contains(&action) {
                                actions.push(action);
                            }
                            break;
                        }
                    }
                }
            }
            if allowed.contains(&ActionKind::MoveRoad)
                && let Some(cell) = self.battlefield.grid.cell_at(unit.base.centre)
                && self.battlefield.on_road(cell)
            {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                for &enemy in nearest.iter().take(2) {
                    let goal = self.units[enemy.0].base.centre;
                    let blocked = crate::battlefield::CellSet::none();
                    let Some(route) =
                        self.battlefield
                            .route(unit.troop, unit.base.centre, goal, &blocked)
                    else {
                        continue;
                    };
                    let clipped = route.clip(allowance * 0.98);
                    let Some(leg) = clipped.legs().first() else {
                        continue;
                    };
                    if !leg.along_road || leg.points.len() < 2 {
                        continue;
                    }
                    let path: Vec<Point> =
                        leg.points[1..].iter().map(|p| round_point(*p)).collect();
                    let facing = match path.len() {
                        1 => (path[0] - unit.base.centre).bearing(),
                        n => (path[n - 1] - path[n - 2]).bearing(),
                    };
                    push(
                        &mut actions,
                        Action::MoveRoad {
                            unit: id,
                            path,
                            facing: round(facing),
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Enter) {
            for (index, unit) in self.units.iter().enumerate() {
                if unit.side == self.active && unit.is_reserve() {
                    push(
                        &mut actions,
                        Action::Enter {
                            unit: UnitId(index),
                            to: unit.base.centre,
                            facing: unit.base.facing,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::MoveGeneral) {
            for (index, general) in self.generals.iter().enumerate() {
                if general.side != self.active || general.moved {
                    continue;
                }
                let mut damaged: Vec<UnitId> = own.clone();
                damaged.sort_by_key(|id| (std::cmp::Reverse(self.units[id.0].hits), id.0));
                let allowance = self.battlefield.ruleset.move_inches[Category::General.index()];
                for id in damaged.into_iter().take(2) {
                    let target = self.units[id.0].base.centre;
                    let line = target - general.base.centre;
                    let length = line.length();
                    if length < 3.0 {
                        continue;
                    }
                    let travel = (length - 3.0).min(allowance);
                    let to = round_point(general.base.centre + line * (travel / length));
                    push(
                        &mut actions,
                        Action::MoveGeneral {
                            general: GeneralId(index),
                            to,
                        },
                    );
                }
            }
        }
        if allowed.contains(&ActionKind::Fire) {
            for &unit in &own {
                for &target in &enemies {
                    for volley in [Volley::Single, Volley::Double] {
                        push(
                            &mut actions,
                            Action::Fire {
                                unit,
                                target,
                                volley,
                            },
                        );
                    }
                }
            }
        }
        if allowed.contains(&ActionKind::Rally) {
            for action in self.rallies(&own) {
                push(&mut actions, action);
            }
        }
        actions.push(Action::EndPhase);
        actions
    }

    /// The pivots `legal_actions` lists for `unit` (of the side to act, on
    /// the table, not moved nor pivoted, in a phase that allows pivots)
    /// with the neighbourhood `near` and its enemies `nearest`, nearest
    /// first: to face each of the two nearest, when that is a turn of over
    /// a degree and allowed, each facing once, in that order.
    fn listed_pivots(&self, unit: &Unit, near: &Neighbourhood, nearest: &[UnitId]) -> Vec<f64> {
        let mut pivots: Vec<f64> = Vec::new();
        for &enemy in nearest.iter().take(2) {
            let facing = (self.units[enemy.0].base.centre - unit.base.centre).bearing();
            if turn_between(unit.base.facing, facing) > 1.0
                // As `Action::Pivot`'s equality (`==`).
                && !pivots.contains(&facing)
                && self.allows_listed_pivot(near, facing)
            {
                pivots.push(facing);
            }
        }
        pivots
    }

    /// The straight moves `legal_actions` lists for `unit` (of the side
    /// to act, on the table, not moved, in a phase that allows moves) with
    /// the neighbourhood `near` and its enemies `nearest`, nearest first:
    /// along each of its [`GameState::move_directions`], the longest
    /// allowed of a full, three-quarter, half and quarter move, where each
    /// goes and the facing it ends at, each once, in that order.
    fn listed_moves(&self, unit: &Unit, near: &Neighbourhood, nearest: &[UnitId]) -> Moves {
        let mut moves: Moves = Vec::new();
        for (direction, facing) in self.move_directions(unit, nearest) {
            let length = direction.length();
            if length < EPSILON {
                continue;
            }
            let direction = direction * (1.0 / length);
            let facing = round(facing);
            // As `Action::Move`'s equality: the same points and facings
            // (`==`, so 0 and -0 are one).
            if let Some(to) = self.listed_way(unit, near, direction, facing)
                && !moves.iter().any(|&(t, f)| t == to && f == facing)
            {
                moves.push((to, facing));
            }
        }
        moves
    }

    /// Where the longest allowed of a full, three-quarter, half and
    /// quarter move of `unit` (with the neighbourhood `near`) along
    /// `direction` (of length one) ending at `facing` goes, if any is
    /// allowed. Remembered by all it depends on ([`GameState::way_key`]):
    /// a unit whose nearest enemy moved is offered the same moves the
    /// other ways, and those ways' answers are not worked out again.
    fn listed_way(
        &self,
        unit: &Unit,
        near: &Neighbourhood,
        direction: Vector,
        facing: f64,
    ) -> Option<Point> {
        with_key_buffer(|key| {
            self.way_key(near, direction, facing, key);
            remembered_way(&self.battlefield, key, || {
                let allowance = self.battlefield.ruleset.move_inches[unit.category.index()];
                let heading = Heading::new(facing);
                [1.0, 0.75, 0.5, 0.25].into_iter().find_map(|fraction| {
                    let to = round_point(unit.base.centre + direction * (allowance * fraction));
                    self.allows_listed_move(near, &heading, to).then_some(to)
                })
            })
        })
    }

    /// The straight lines both listings offer `unit` a move along, each
    /// with the facing it ends in: towards each of its three nearest
    /// enemies (`nearest`, nearest first) facing them, directly away from
    /// the nearest, and straight ahead and back, keeping its facing.
    fn move_directions(&self, unit: &Unit, nearest: &[UnitId]) -> Vec<(Vector, f64)> {
        let mut directions: Vec<(Vector, f64)> = Vec::new();
        for &enemy in nearest.iter().take(3) {
            let line = self.units[enemy.0].base.centre - unit.base.centre;
            directions.push((line, line.bearing()));
        }
        if let Some(&enemy) = nearest.first() {
            let line = unit.base.centre - self.units[enemy.0].base.centre;
            directions.push((line, unit.base.facing));
        }
        directions.push((unit.base.forward(), unit.base.facing));
        directions.push((unit.base.forward() * -1.0, unit.base.facing));
        directions
    }

    /// The rallies open to the active side's generals: each with the
    /// units of `own` within his range that have hits and may be rallied,
    /// most hits first (both listings offer the same).
    fn rallies(&self, own: &[UnitId]) -> Vec<Action> {
        let mut rallies = Vec::new();
        for (index, general) in self.generals.iter().enumerate() {
            if general.side != self.active {
                continue;
            }
            let mut units: Vec<UnitId> = own
                .iter()
                .copied()
                .filter(|id| self.may_rally(general, &self.units[id.0]))
                .collect();
            units.sort_by_key(|id| (std::cmp::Reverse(self.units[id.0].hits), id.0));
            if !units.is_empty() {
                rallies.push(Action::Rally {
                    general: GeneralId(index),
                    units,
                });
            }
        }
        rallies
    }

    /// The road move `legal_actions` offers `unit` towards `goal`: the
    /// first leg of its route clipped to a little under its allowance,
    /// when that leg follows the road, as the path (rounded) and facing.
    /// The route's legs are pulled only as far as that clip
    /// ([`crate::battlefield::Battlefield::route_within`], the same clipped
    /// route as the whole one's), not all the way to the far goal.
    fn road_move(&self, unit: &Unit, goal: Point, allowance: f64) -> Option<RoadMove> {
        let blocked = crate::battlefield::CellSet::none();
        let limit = allowance * 0.98;
        let route =
            self.battlefield
                .route_within(unit.troop, unit.base.centre, goal, &blocked, limit)?;
        let clipped = route.clip(limit);
        let leg = clipped.legs().first()?;
        if !leg.along_road || leg.points.len() < 2 {
            return None;
        }
        let path: Vec<Point> = leg.points[1..].iter().map(|p| round_point(*p)).collect();
        let facing = match path.len() {
            1 => (path[0] - unit.base.centre).bearing(),
            n => (path[n - 1] - path[n - 2]).bearing(),
        };
        Some((path, round(facing)))
    }

    /// Exactly the first three of [`GameState::nearest`] (or all, when
    /// fewer), all the listing uses: its order is total (distance, then
    /// id), so keeping the three least by it, each distance worked out
    /// once, gives the same, without sorting the rest.
    fn nearest_three(&self, point: Point, candidates: &[UnitId]) -> Nearest {
        let mut least: [(f64, UnitId); 3] = [(0.0, UnitId(0)); 3];
        let mut len = 0;
        for &id in candidates {
            let key = (self.units[id.0].base.centre.distance(point), id);
            let before = |(da, a): (f64, UnitId), (db, b): (f64, UnitId)| {
                da.total_cmp(&db).then(a.0.cmp(&b.0)).is_lt()
            };
            if len == 3 && !before(key, least[2]) {
                continue;
            }
            // Insert in order, the last falling off when all three are kept.
            let mut at = len.min(2);
            if len < 3 {
                len += 1;
            }
            while at > 0 && before(key, least[at - 1]) {
                least[at] = least[at - 1];
                at -= 1;
            }
            least[at] = key;
        }
        Nearest {
            ids: least.map(|(_, id)| id),
            len,
        }
    }

    /// Exactly [`GameState::nearest`]: its order is total (distance, then
    /// id), so sorting on the distances worked out once gives the same.
    #[cfg(test)]
    fn nearest_of(&self, point: Point, candidates: &[UnitId]) -> Vec<UnitId> {
        let mut keyed: Vec<(f64, UnitId)> = candidates
            .iter()
            .map(|&id| (self.units[id.0].base.centre.distance(point), id))
            .collect();
        keyed.sort_by(|(da, a), (db, b)| da.total_cmp(db).then(a.0.cmp(&b.0)));
        keyed.into_iter().map(|(_, id)| id).collect()
    }
}

/// Up to three units, nearest first: [`GameState::nearest_three`]'s
/// answer, kept without an allocation.
struct Nearest {
    ids: [UnitId; 3],
    len: usize,
}

impl Default for Nearest {
    /// None.
    fn default() -> Nearest {
        Nearest {
            ids: [UnitId(0); 3],
            len: 0,
        }
    }
}

impl Nearest {
    fn as_slice(&self) -> &[UnitId] {
        &self.ids[..self.len]
    }
}

/// Round to 1/1000 inch, so enumerated actions print and replay cleanly.
fn round(value: f64) -> f64 {
    let rounded = round_half_away(value * 1000.0) / 1000.0;
    if rounded >= 360.0 {
        rounded - 360.0
    } else {
        rounded
    }
}

fn round_point(point: Point) -> Point {
    Point::new(
        round_half_away(point.x * 1000.0) / 1000.0,
        round_half_away(point.y * 1000.0) / 1000.0,
    )
}

/// Exactly `value.round()` (half away from zero, the sign of zero kept),
/// without the C library's call: below 2^52 truncation through `i64` is
/// exact, and so are the fraction it leaves and the step away from zero.
fn round_half_away(value: f64) -> f64 {
    if value.is_nan() || value.abs() >= 4_503_599_627_370_496.0 {
        // 2^52 and over (whole already), infinite or not a number.
        return value.round();
    }
    let whole = value as i64 as f64;
    let rounded = if (value - whole).abs() >= 0.5 {
        whole + 1.0_f64.copysign(value)
    } else {
        whole
    };
    rounded.copysign(value)
}

#[cfg(test)]
mod tests {
    use super::round_half_away;
    use crate::battlefield::Point;
    use crate::rules::id::UnitId;
    use rand::{RngExt, SeedableRng};

    /// The three nearest kept without sorting are the sorted list's first
    /// three, in order, from random points among the shipped armies, any
    /// subset of their units as the candidates (ties included: a unit
    /// listed twice).
    #[test]
    fn nearest_three_is_nearest_cut_short() {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(3);
        for name in ["guilford", "monongahela", "learning"] {
            let state = super::super::movement::walk_tests::state(name);
            for _ in 0..2_000 {
                let point = Point::new(rng.random_range(-5.0..80.0), rng.random_range(-5.0..80.0));
                let mut candidates: Vec<UnitId> = (0..state.units.len())
                    .filter(|_| rng.random_range(0..3) != 0)
                    .map(UnitId)
                    .collect();
                if rng.random_range(0..4) == 0 && !candidates.is_empty() {
                    candidates.push(candidates[rng.random_range(0..candidates.len())]);
                }
                let sorted = state.nearest(point, &candidates);
                assert_eq!(
                    state.nearest_three(point, &candidates).as_slice(),
                    &sorted[..sorted.len().min(3)]
                );
                assert_eq!(state.nearest_of(point, &candidates), sorted);
            }
        }
    }

    /// A unit's remembered move one way is the one worked out afresh
    /// (`allows_listed_move` for each length in turn), asked twice, in
    /// crowds scattered at random on three shipped tables: then again after
    /// each of another unit put on one of the ways, that unit put just
    /// beyond where one ends and changing sides, the mover turned, the mover changing troop type and an enemy
    /// put within the enemy presence distance, the same ways asked, so a
    /// key missing any of them recalls a stale answer.
    #[test]
    fn remembered_ways_are_worked_out_afresh() {
        use crate::battlefield::{Base, Vector};
        use crate::rules::engine::quick_moves::Heading;
        use crate::ruleset::TroopTypeId;
        let fresh = |state: &super::GameState, id: UnitId, direction: Vector, facing: f64| {
            let unit = &state.units[id.0];
            let near = state.neighbourhood(id);
            let allowance = state.battlefield.ruleset.move_inches[unit.category.index()];
            let heading = Heading::new(facing);
            [1.0, 0.75, 0.5, 0.25].into_iter().find_map(|fraction| {
                let to = super::round_point(unit.base.centre + direction * (allowance * fraction));
                state.allows_listed_move(&near, &heading, to).then_some(to)
            })
        };
        let remembered = |state: &super::GameState, id: UnitId, direction: Vector, facing: f64| {
            let near = state.neighbourhood(id);
            state.listed_way(&state.units[id.0], &near, direction, facing)
        };
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1_803);
        let (mut found, mut compared) = ([0usize; 2], 0);
        for name in ["guilford", "monongahela", "learning"] {
            let original = super::super::movement::walk_tests::state(name);
            let troops = original.battlefield.ruleset.troop_types.len();
            for _ in 0..40 {
                let mut state = original.clone();
                let (w, h) = (state.battlefield.width(), state.battlefield.height());
                let (x0, y0) = (
                    rng.random_range(0.0..w * 0.75),
                    rng.random_range(0.0..h * 0.75),
                );
                for index in 0..state.units.len() {
                    let at = Point::new(
                        x0 + rng.random_range(0.0..w / 4.0),
                        y0 + rng.random_range(0.0..h / 4.0),
                    );
                    let facing = rng.random_range(0.0..360.0);
                    crate::rules::fixture::stand(&mut state, index, at, facing);
                }
                let id = UnitId(rng.random_range(0..state.units.len()));
                let unit = &state.units[id.0];
                let enemies: Vec<UnitId> = (0..state.units.len())
                    .filter(|&i| state.units[i].side != unit.side && state.units[i].is_active())
                    .map(UnitId)
                    .collect();
                let nearest = state.nearest_three(unit.base.centre, &enemies);
                let ways: Vec<(Vector, f64)> = state
                    .move_directions(unit, nearest.as_slice())
                    .into_iter()
                    .filter(|(direction, _)| {
                        direction.length() >= crate::battlefield::geometry::EPSILON
                    })
                    .map(|(direction, facing)| {
                        (direction * (1.0 / direction.length()), super::round(facing))
                    })
                    .collect();
                // Another unit, put on one of the ways and then near where
                // one ends, changing sides.
                let placed =
                    (id.0 + 1 + rng.random_range(0..state.units.len() - 1)) % state.units.len();
                let allowance = state.battlefield.ruleset.move_inches[unit.category.index()];
                let on_way =
                    |rng: &mut rand::rngs::ChaCha8Rng, state: &super::GameState, length: f64| {
                        let (direction, _) = ways[rng.random_range(0..ways.len())];
                        let sideways = Vector::new(-direction.y, direction.x);
                        state.units[id.0].base.centre
                            + direction * (allowance * length)
                            + sideways * rng.random_range(-1.5..1.5)
                    };
                for change in 0..7 {
                    match change {
                        0 => {}
                        1 if !ways.is_empty() => {
                            let length = rng.random_range(0.2..1.1);
                            let at = on_way(&mut rng, &state, length);
                            let unit = &mut state.units[placed];
                            unit.status = crate::rules::state::Status::Active;
                            unit.base = unit.base.moved_to(at);
                        }
                        2 if !ways.is_empty() => {
                            // Square behind a full move's end, half the
                            // keep-clear distance from it: refused only if
                            // an enemy.
                            let (direction, facing) = ways[rng.random_range(0..ways.len())];
                            let mover = state.units[id.0].base;
                            let other = state.units[placed].base;
                            let gap =
                                (mover.depth + other.depth) / 2.0 + state.rules.keep_clear / 2.0;
                            let at = mover.centre + direction * (allowance + gap);
                            let unit = &mut state.units[placed];
                            unit.base = Base::new(at, facing, other.frontage, other.depth);
                        }
                        3 => {
                            let side = state.units[id.0].side;
                            let unit = &mut state.units[placed];
                            unit.side = if unit.side == side {
                                super::GameState::enemy_of(side)
                            } else {
                                side
                            };
                        }
                        4 => {
                            let base = state.units[id.0].base;
                            state.units[id.0].base = Base::new(
                                base.centre,
                                rng.random_range(0.0..360.0),
                                base.frontage,
                                base.depth,
                            );
                        }
                        5 => {
                            let troop = TroopTypeId(rng.random_range(0..troops));
                            let category = state.battlefield.ruleset.troop(troop).category;
                            let unit = &mut state.units[id.0];
                            unit.troop = troop;
                            unit.category = category;
                        }
                        6 => {
                            let side = state.units[id.0].side;
                            if let Some(&enemy) = enemies.first() {
                                let centre = state.units[id.0].base.centre;
                                let at = centre
                                    + Vector::from_bearing(rng.random_range(0.0..360.0)) * 4.0;
                                let unit = &mut state.units[enemy.0];
                                unit.side = super::GameState::enemy_of(side);
                                unit.base = unit.base.moved_to(at);
                            }
                        }
                        _ => continue,
                    }
                    for &(direction, facing) in &ways {
                        for _ in 0..2 {
                            let quick = remembered(&state, id, direction, facing);
                            assert_eq!(
                                quick,
                                fresh(&state, id, direction, facing),
                                "{name}, change {change}"
                            );
                            found[usize::from(quick.is_some())] += 1;
                            compared += 1;
                        }
                    }
                }
            }
        }
        // Both answers are common.
        assert!(found[0] > 500 && found[1] > 500, "{found:?} of {compared}");
    }

    /// The quick rounding is the library's, bit for bit: halves, values a
    /// bit either side of them, signed zeros, the largest fractions and
    /// random values of every size.
    #[test]
    fn round_half_away_is_round() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.499_999_999_999_999_94,
            -0.499_999_999_999_999_94,
            1.5,
            2.5,
            -2.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            -4_503_599_627_370_495.5,
            9_007_199_254_740_993.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            f64::MAX,
            1e300,
        ];
        for whole in -2_000i32..2_000 {
            let half = f64::from(whole) + 0.5;
            values.extend([half, half.next_up(), half.next_down(), f64::from(whole)]);
        }
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(18);
        for _ in 0..100_000 {
            let scale = 10f64.powi(rng.random_range(-3..18));
            values.push(rng.random_range(-1.0..1.0) * scale);
        }
        for value in values {
            assert_eq!(
                round_half_away(value).to_bits(),
                value.round().to_bits(),
                "{value:e}"
            );
        }
        assert!(round_half_away(f64::NAN).is_nan());
    }
}
