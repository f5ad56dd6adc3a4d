//! Whether two cells are joined over bare ground (no unit on the table):
//! the table's regions of ground a category can enter, each cell labelled
//! once per table and category by a flood over the eight neighbours, so
//! that the question costs two reads instead of a search across the table.

use crate::battlefield::geometry::Point;
use crate::battlefield::{Battlefield, CellIndex};
use crate::ruleset::TroopTypeId;
use std::cell::RefCell;

/// A label no region has: ground the category cannot enter.
const NO_REGION: u32 = u32::MAX;

/// Each category's region labels, for the table last asked about.
#[derive(Default)]
struct Regions {
    table: Option<u64>,
    by_category: [Vec<u32>; 5],
}

thread_local! {
    /// [`Battlefield::joined_over_bare_ground`]'s labels, per thread.
    static REGIONS: RefCell<Regions> = RefCell::new(Regions::default());
}

impl Battlefield {
    /// Whether `troop` has a way of more than one cell from `from` to `to`
    /// with nothing on the table: exactly
    /// `cell_path(troop, from, to, &CellSet::none())` giving a path of
    /// more than one cell. That search reaches, from a start the troop can
    /// stand on, every cell of its region (the cells it can enter joined
    /// through the eight neighbours) and no other; from a start it cannot
    /// stand on, no step is finite, so it reaches nothing.
    pub fn joined_over_bare_ground(&self, troop: TroopTypeId, from: Point, to: Point) -> bool {
        let (Some(source), Some(goal)) = (self.grid.cell_at(from), self.grid.cell_at(to)) else {
            return false;
        };
        if source == goal {
            return false;
        }
        let category = self.category(troop).index();
        REGIONS.with_borrow_mut(|regions| {
            if regions.table != Some(self.id.0) {
                regions.table = Some(self.id.0);
                regions.by_category.iter_mut().for_each(Vec::clear);
            }
            let labels = &mut regions.by_category[category];
            if labels.is_empty() {
                *labels = self.region_labels(category);
            }
            labels[source] != NO_REGION && labels[source] == labels[goal]
        })
    }

    /// Every cell's region for the category with index `category`
    /// ([`NO_REGION`] where it cannot go), flooding from each cell not
    /// labelled yet.
    fn region_labels(&self, category: usize) -> Vec<u32> {
        let multipliers = &self.multipliers[category];
        let (width, height) = (self.grid.width, self.grid.height);
        let mut labels = vec![NO_REGION; self.grid.len()];
        let mut queue: Vec<CellIndex> = Vec::new();
        let mut next_label = 0;
        for start in 0..labels.len() {
            if labels[start] != NO_REGION || !multipliers[start].is_finite() {
                continue;
            }
            labels[start] = next_label;
            queue.push(start);
            while let Some(cell) = queue.pop() {
                let (x, y) = (cell % width, cell / width);
                for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                    for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                        let next = ny * width + nx;
                        if labels[next] == NO_REGION && multipliers[next].is_finite() {
                            labels[next] = next_label;
                            queue.push(next);
                        }
                    }
                }
            }
            next_label += 1;
        }
        labels
    }
}
