//! The battlefield as text for a terminal: terrain glyphs, units as short
//! labels showing side and facing, coordinates in inches along the edges,
//! and a legend. Optionally a route drawn over it. Pure: returns a String.

use super::scene::Scene;
use crate::battlefield::{Point, Route, geometry::trim};

pub use crate::scenario::label::unit_label;

/// How to draw the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapStyle {
    /// Total width in columns, margins included.
    pub width: usize,
    /// Whether to colour with ANSI escapes.
    pub colour: bool,
}

impl Default for MapStyle {
    fn default() -> MapStyle {
        MapStyle {
            width: 80,
            colour: false,
        }
    }
}

/// The narrowest map foe draws.
pub const MIN_WIDTH: usize = 20;

const LEFT_MARGIN: usize = 4;
const RESET: &str = "\x1b[0m";
const SIDE_COLOURS: [&str; 4] = ["\x1b[1;31m", "\x1b[1;34m", "\x1b[1;35m", "\x1b[1;36m"];
const ROUTE_COLOUR: &str = "\x1b[1;33m";
const AREA_COLOUR: &str = "\x1b[1;32m";
/// The glyph of an area's outline: no terrain kind shipped draws with it.
const AREA_GLYPH: char = '!';

/// The arrows of the eight compass points, clockwise from north.
pub const FACING_ARROWS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];

/// The arrow for a facing: the nearest of the eight compass points, so a
/// unit facing north-east reads `B3↗` rather than being rounded to `B3^`.
pub fn facing_arrow(degrees: f64) -> char {
    FACING_ARROWS[((degrees.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

fn ansi_of_fill(fill: &str) -> Option<String> {
    let hex = fill.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some(format!(
        "\x1b[38;2;{};{};{}m",
        channel(0)?,
        channel(2)?,
        channel(4)?
    ))
}

/// Draw a scene's table, its units and (optionally) a route.
pub fn map(scene: &Scene<'_>, style: MapStyle, route: Option<&Route>) -> String {
    let field = scene.battlefield;
    let rules = &field.ruleset;
    let columns = style.width.max(MIN_WIDTH) - LEFT_MARGIN - 1;
    let inches_per_column = field.width() / columns as f64;
    // Terminal characters are about twice as tall as they are wide.
    let inches_per_row = inches_per_column * 2.0;
    let rows = ((field.height() / inches_per_row).round() as usize).max(1);
    let inches_per_row = field.height() / rows as f64;
    // Each character cell: (glyph, colour), row 0 at the top (north).
    let mut canvas: Vec<Vec<(char, Option<String>)>> = vec![vec![(' ', None); columns]; rows];
    let centre = |column: usize, row: usize| {
        Point::new(
            (column as f64 + 0.5) * inches_per_column,
            field.height() - (row as f64 + 0.5) * inches_per_row,
        )
    };
    let mut kinds_seen: Vec<usize> = Vec::new();
    for (row, line) in canvas.iter_mut().enumerate() {
        for (column, slot) in line.iter_mut().enumerate() {
            let Some(cell) = field.grid.cell_at(centre(column, row)) else {
                continue;
            };
            let kind = field.grid.top_kind(rules, cell);
            if !kinds_seen.contains(&kind.0) && kind != rules.open {
                kinds_seen.push(kind.0);
            }
            let terrain = rules.kind(kind);
            *slot = (
                terrain.glyph,
                if style.colour {
                    ansi_of_fill(&terrain.fill)
                } else {
                    None
                },
            );
        }
    }
    let to_slot = |p: Point| -> Option<(usize, usize)> {
        let column = (p.x / inches_per_column).floor();
        let row = ((field.height() - p.y) / inches_per_row).floor();
        (column >= 0.0 && row >= 0.0 && (column as usize) < columns && (row as usize) < rows)
            .then_some((column as usize, row as usize))
    };
    // Areas the scenario names: their outlines, over the ground.
    for area in &scene.areas {
        let colour = style.colour.then(|| AREA_COLOUR.to_string());
        let (Some((west, north)), Some((east, south))) = (
            to_slot(Point::new(area.min.x, area.max.y)),
            to_slot(Point::new(
                area.max.x.min(field.width() - 1e-9),
                area.min.y.max(1e-9),
            )),
        ) else {
            continue;
        };
        for (row, line) in canvas.iter_mut().enumerate().take(south + 1).skip(north) {
            for (column, slot) in line.iter_mut().enumerate().take(east + 1).skip(west) {
                if row == north || row == south || column == west || column == east {
                    *slot = (AREA_GLYPH, colour.clone());
                }
            }
        }
    }
    if let Some(route) = route {
        let colour = style.colour.then(|| ROUTE_COLOUR.to_string());
        for leg in route.legs() {
            for pair in leg.points.windows(2) {
                let steps = (pair[0].distance(pair[1]) / (inches_per_column * 0.5))
                    .ceil()
                    .max(1.0) as usize;
                for step in 0..=steps {
                    if let Some((c, r)) = to_slot(pair[0].lerp(pair[1], step as f64 / steps as f64))
                    {
                        canvas[r][c] = ('*', colour.clone());
                    }
                }
            }
            if let Some((c, r)) = to_slot(leg.end()) {
                canvas[r][c] = ('o', colour.clone());
            }
        }
        if let Some((c, r)) = to_slot(route.end()) {
            canvas[r][c] = ('X', colour.clone());
        }
    }
    // Units: the base's footprint in the side's colour, then the label.
    let mut labels = Vec::new();
    for (side_index, side) in scene.sides.iter().enumerate() {
        let colour = style
            .colour
            .then(|| SIDE_COLOURS[side_index % SIDE_COLOURS.len()].to_string());
        let footprint_glyph = if side_index % 2 == 0 { ':' } else { '"' };
        for unit in &side.units {
            let Some(base) = unit.base else { continue };
            for (row, line) in canvas.iter_mut().enumerate() {
                for (column, slot) in line.iter_mut().enumerate() {
                    if base.contains(centre(column, row)) {
                        *slot = (footprint_glyph, colour.clone());
                    }
                }
            }
            labels.push((
                base,
                format!("{}{}", unit.label, facing_arrow(base.facing)),
                colour.clone(),
            ));
        }
        for general in &side.generals {
            if let Some(base) = general.base {
                labels.push((base, general.label.clone(), colour.clone()));
            }
        }
    }
    for (base, label, colour) in labels {
        if let Some((c, r)) = to_slot(base.centre) {
            // Arrows are one column but several bytes: count characters.
            let length = label.chars().count();
            let start = c
                .saturating_sub(length / 2)
                .min(columns.saturating_sub(length));
            for (offset, ch) in label.chars().enumerate() {
                if let Some(slot) = canvas[r].get_mut(start + offset) {
                    *slot = (ch, colour.clone());
                }
            }
        }
    }

    let mut out = String::new();
    // Title.
    match &scene.caption {
        Some(caption) => out.push_str(&format!("{}: {caption}\n", scene.title)),
        None => out.push_str(&format!("{}\n", scene.title)),
    }
    let border = format!("{}+{}+\n", " ".repeat(LEFT_MARGIN - 1), "-".repeat(columns));
    out.push_str(&border);
    let label_step = if inches_per_row > 2.0 { 12.0 } else { 6.0 };
    for (row, line) in canvas.iter().enumerate() {
        let y_bottom = field.height() - (row as f64 + 1.0) * inches_per_row;
        let y_top = field.height() - row as f64 * inches_per_row;
        // Label the row holding a multiple of 6" (12" on big tables).
        let mark = (y_top / label_step).floor() * label_step;
        let label = if mark >= y_bottom - 1e-9 && (row == 0 || mark < y_top - 1e-9) {
            format!("{:>3}", trim(mark))
        } else {
            "   ".to_string()
        };
        out.push_str(&label);
        out.push('|');
        let mut current: Option<&str> = None;
        for (glyph, colour) in line {
            if colour.as_deref() != current {
                if current.is_some() {
                    out.push_str(RESET);
                }
                if let Some(c) = colour {
                    out.push_str(c);
                }
                current = colour.as_deref();
            }
            out.push(*glyph);
        }
        if current.is_some() {
            out.push_str(RESET);
        }
        out.push_str("|\n");
    }
    out.push_str(&border);
    // Inch marks along the bottom edge every 6" (12" on big tables).
    let step = if field.width() / columns as f64 > 0.9 {
        12.0
    } else {
        6.0
    };
    let mut axis = vec![' '; columns + LEFT_MARGIN + 4];
    let mut inch = 0.0;
    while inch <= field.width() + 1e-9 {
        let column = LEFT_MARGIN + ((inch / inches_per_column).round() as usize).min(columns);
        let text = trim(inch);
        let start = column
            .saturating_sub(text.len() / 2)
            .min(LEFT_MARGIN + columns + 1 - text.len());
        if axis[start.saturating_sub(1)..(start + text.len()).min(axis.len())]
            .iter()
            .all(|c| *c == ' ')
        {
            for (offset, ch) in text.chars().enumerate() {
                if let Some(slot) = axis.get_mut(start + offset) {
                    *slot = ch;
                }
            }
        }
        inch += step;
    }
    out.push_str(axis.iter().collect::<String>().trim_end());
    out.push_str(&format!(
        "\n{}\" x {}\" table; inches from the south-west corner\n\n",
        trim(field.width()),
        trim(field.height())
    ));

    // Legend: terrain present, then every unit.
    kinds_seen.sort_unstable();
    let terrain: Vec<String> = kinds_seen
        .iter()
        .map(|k| {
            let kind = &rules.terrain[*k];
            format!("{} {}", kind.glyph, kind.name)
        })
        .collect();
    if !terrain.is_empty() {
        out.push_str(&format!("Terrain: {}\n", terrain.join("  ")));
    }
    for area in &scene.areas {
        out.push_str(&format!(
            "Area: {AREA_GLYPH} {} ({}; {} to {})\n",
            area.name,
            area.note(),
            area.min,
            area.max
        ));
    }
    out.push_str("Facing: ↑ north  ↗ north-east  → east  ↘ south-east  ↓ south  ↙ south-west  ← west  ↖ north-west\n");
    if route.is_some() {
        out.push_str("Route: * path  o end of a leg  X destination\n");
    }
    for (side_index, side) in scene.sides.iter().enumerate() {
        let footprint = if side_index % 2 == 0 { ':' } else { '"' };
        out.push_str(&format!(
            "{} ({} edge, bases drawn {footprint}):\n",
            side.name,
            side.edge.name()
        ));
        for unit in &side.units {
            out.push_str(&format!(
                "  {:<5} {} ({}) {}{}\n",
                unit.label,
                unit.name,
                unit.troop,
                unit.note,
                unit.state
                    .as_ref()
                    .map_or(String::new(), |state| format!(", {state}"))
            ));
        }
        for general in &side.generals {
            let placed = general
                .base
                .map_or("off table".to_string(), |b| format!("at {}", b.centre));
            out.push_str(&format!(
                "  {:<5} General {} {placed}\n",
                general.label, general.name
            ));
        }
        if !side.reserves.is_empty() {
            let names: Vec<&str> = side.reserves.iter().map(String::as_str).collect();
            out.push_str(&format!("  reserves: {}\n", names.join(", ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_arrows_have_eight_points_each_covering_45_degrees() {
        let arrows: String = [
            0.0, 22.4, 22.6, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 337.4, 337.6, -45.0,
        ]
        .iter()
        .map(|&degrees| facing_arrow(degrees))
        .collect();
        assert_eq!(arrows, "↑↑↗↗→↘↓↙←↖↖↑↖");
    }
}
