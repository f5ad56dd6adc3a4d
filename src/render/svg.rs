//! The battlefield as an SVG picture: a title with the turn, the table with
//! its terrain (clipped to the table's edge) in the rule set's colours, a
//! grid with a tick every inch and coordinates every 6" (the numbers every
//! command takes), units as oriented bases with their troop-type symbol,
//! generals as starred discs, labels placed so that none covers another,
//! a hits bar under each label, the last bound's moves, charges and shots
//! as arrows, an optional route, and a legend. Pure: returns the document
//! as a String.

use super::scene::{ArrowKind, Scene};
use crate::battlefield::{Base, Point, Route, Shape, geometry::trim};
use crate::ruleset::Category;
use std::fmt::Write;

/// Pixels per inch.
const SCALE: f64 = 14.0;
/// Room left of the table for the row coordinates.
const LEFT: f64 = 44.0;
/// Room above the table for the title and caption.
const TOP: f64 = 66.0;
/// Room below the table for the column coordinates and the scale.
const BOTTOM: f64 = 62.0;
/// The outline of an area the scenario names.
const AREA_STROKE: &str = "#1e8449";

/// The legend's width, right of the table.
const LEGEND_WIDTH: f64 = 240.0;
/// Side colours, in scenario order.
const SIDE_FILLS: [&str; 4] = ["#c0392b", "#2e5fa8", "#8e44ad", "#16a085"];
/// The colour of shots.
const FIRE_COLOUR: &str = "#e67e22";
/// The colour of retreats.
const RETREAT_COLOUR: &str = "#555555";
/// Label text size in pixels, and the width of one of its characters.
const LABEL_FONT: f64 = 11.0;
const LABEL_CHAR: f64 = 7.0;
/// The widest cell of a hits bar, and the widest bar.
const HIT_CELL: f64 = 5.0;
const HIT_BAR: f64 = 52.0;

/// The width of a hits bar's cells for a unit that routs at `rout_at` hits
/// (no bar for more than 30: it would not be read).
fn hit_cell(rout_at: Option<u32>) -> Option<(u32, f64)> {
    rout_at
        .filter(|n| (1..=30).contains(n))
        .map(|n| (n, (HIT_BAR / f64::from(n)).min(HIT_CELL)))
}

/// `text` as XML character data or an attribute value: the markup
/// characters escaped, and the characters XML 1.0 does not allow at all
/// (control characters other than tab, newline and carriage return; U+FFFE
/// and U+FFFF; a `str` holds no lone surrogates) shown as U+FFFD, so a name
/// never makes the picture unreadable.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// An axis-aligned box in pixels, for labels and what they must not cover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PixelBox {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl PixelBox {
    fn centred(cx: f64, cy: f64, width: f64, height: f64) -> PixelBox {
        PixelBox {
            x: cx - width / 2.0,
            y: cy - height / 2.0,
            width,
            height,
        }
    }

    /// Whether two boxes share any area (touching edges do not count).
    pub fn overlaps(&self, other: &PixelBox) -> bool {
        self.x < other.x + other.width
            && other.x < self.x + self.width
            && self.y < other.y + other.height
            && other.y < self.y + self.height
    }

    fn inside(&self, outer: &PixelBox) -> bool {
        self.x >= outer.x
            && self.y >= outer.y
            && self.x + self.width <= outer.x + outer.width
            && self.y + self.height <= outer.y + outer.height
    }
}

/// Place boxes of the given sizes near their anchors so that no two
/// overlap: each in turn, greedily, tries offsets around its anchor (above,
/// below, right, left, then the diagonals, then each again further out) and
/// takes the first that overlaps no box already placed and, if it can, no
/// obstacle (the units' own footprints) and stays inside `bounds`. Returns
/// each box and whether it was pushed off its first choice (then a leader
/// line should join it to its anchor).
pub fn place_labels(
    anchors: &[(f64, f64, f64)],
    sizes: &[(f64, f64)],
    obstacles: &[PixelBox],
    bounds: &PixelBox,
) -> Vec<(PixelBox, bool)> {
    const DIRECTIONS: [(f64, f64); 8] = [
        (0.0, -1.0),
        (0.0, 1.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (1.0, -1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ];
    let mut placed: Vec<PixelBox> = Vec::new();
    let mut out = Vec::new();
    for (&(cx, cy, reach), &(width, height)) in anchors.iter().zip(sizes) {
        let candidate = |ring: usize, (dx, dy): (f64, f64)| {
            let gap = 2.0 + ring as f64 * (height + 2.0);
            PixelBox::centred(
                cx + dx * (reach + width / 2.0 + gap),
                cy + dy * (reach + height / 2.0 + gap),
                width,
                height,
            )
        };
        let free_of_labels = |b: &PixelBox| placed.iter().all(|other| !other.overlaps(b));
        let clear = |b: &PixelBox| {
            free_of_labels(b) && b.inside(bounds) && obstacles.iter().all(|o| !o.overlaps(b))
        };
        let mut chosen = None;
        // First a clear spot near the unit; failing that, any spot no other
        // label covers, further out ring by ring (there always is one).
        'search: for pass in 0..2 {
            for ring in 0..40 {
                for (index, direction) in DIRECTIONS.iter().enumerate() {
                    let b = candidate(ring, *direction);
                    let good = if pass == 0 {
                        ring < 3 && clear(&b)
                    } else {
                        free_of_labels(&b)
                    };
                    if good {
                        chosen = Some((b, ring > 0 || index > 0));
                        break 'search;
                    }
                }
            }
        }
        let (b, moved) = chosen.unwrap_or((candidate(0, DIRECTIONS[0]), false));
        placed.push(b);
        out.push((b, moved));
    }
    out
}

/// One thing to label: a unit or a general.
struct Labelled {
    side: usize,
    base: Base,
    label: String,
    tooltip: String,
    category: Option<Category>,
    hits: u32,
    rout_at: Option<u32>,
}

/// The title line of a scene: its title and, for a game, the turn.
pub fn heading(scene: &Scene<'_>) -> String {
    match &scene.caption {
        Some(caption) => format!("{}: {caption}", scene.title),
        None => scene.title.clone(),
    }
}

/// The file a game's picture of this moment is written to in a folder of
/// pictures, one a turn: `turn-02-british-movement.svg`, which sorts in
/// the order of play.
pub fn turn_file_name(state: &crate::rules::GameState) -> String {
    let side: String = state.sides[state.active]
        .name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if state.is_over() {
        return format!("turn-{:02}-end.svg", state.turn);
    }
    format!("turn-{:02}-{side}-{}.svg", state.turn, state.phase())
}

/// Draw a scene (its table, units, generals, last-bound arrows) and,
/// optionally, a route as SVG.
pub fn svg(scene: &Scene<'_>, route: Option<&Route>) -> String {
    let field = scene.battlefield;
    let rules = &field.ruleset;
    let (width, height) = (field.width(), field.height());
    let x = |p: Point| LEFT + p.x * SCALE;
    let y = |p: Point| TOP + (height - p.y) * SCALE;
    let xy = |p: Point| format!("{:.1},{:.1}", x(p), y(p));
    let table = PixelBox {
        x: LEFT,
        y: TOP,
        width: width * SCALE,
        height: height * SCALE,
    };
    let mut things: Vec<Labelled> = Vec::new();
    for (side_index, side) in scene.sides.iter().enumerate() {
        for unit in &side.units {
            if let Some(base) = unit.base {
                things.push(Labelled {
                    side: side_index,
                    base,
                    label: unit.label.clone(),
                    tooltip: format!(
                        "{} {} ({}), {}{}",
                        unit.label,
                        unit.name,
                        unit.troop,
                        scene.damage.count(unit.hits),
                        unit.state
                            .as_ref()
                            .map_or(String::new(), |state| format!(", {state}"))
                    ),
                    category: Some(unit.category),
                    hits: unit.hits,
                    rout_at: unit.rout_at,
                });
            }
        }
        for general in &side.generals {
            if let Some(base) = general.base {
                things.push(Labelled {
                    side: side_index,
                    base,
                    label: general.label.clone(),
                    tooltip: format!("{} General {}", general.label, general.name),
                    category: None,
                    hits: 0,
                    rout_at: None,
                });
            }
        }
    }

    let legend_x = LEFT + width * SCALE + 28.0;
    let total_width = legend_x + LEGEND_WIDTH;
    let mut legend = String::new();
    let legend_bottom = draw_legend(&mut legend, scene, &things, legend_x);
    let total_height = (TOP + height * SCALE + BOTTOM).max(legend_bottom + 20.0);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_width:.0}\" height=\"{total_height:.0}\" viewBox=\"0 0 {total_width:.0} {total_height:.0}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(&heading(scene)));
    // Arrowheads, one per colour: markers do not take their line's colour.
    out.push_str("<defs>\n");
    let _ = writeln!(
        out,
        "<clipPath id=\"table-clip\"><rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{:.1}\"/></clipPath>",
        table.width, table.height
    );
    let mut colours: Vec<(String, &str)> = SIDE_FILLS
        .iter()
        .enumerate()
        .map(|(index, fill)| (format!("arrow-{index}"), *fill))
        .collect();
    colours.push(("arrow-fire".into(), FIRE_COLOUR));
    colours.push(("arrow-retreat".into(), RETREAT_COLOUR));
    for (id, fill) in &colours {
        let _ = writeln!(
            out,
            "<marker id=\"{id}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{fill}\"/></marker>"
        );
    }
    out.push_str("</defs>\n");
    let _ = writeln!(
        out,
        "<rect x=\"0\" y=\"0\" width=\"{total_width:.0}\" height=\"{total_height:.0}\" fill=\"#ffffff\"/>"
    );
    let _ = writeln!(
        out,
        "<text id=\"title\" x=\"{LEFT}\" y=\"26\" font-size=\"18\" font-weight=\"bold\">{}</text>",
        escape(&scene.title)
    );
    if let Some(caption) = &scene.caption {
        let _ = writeln!(
            out,
            "<text id=\"caption\" x=\"{LEFT}\" y=\"46\" font-size=\"13\">{}</text>",
            escape(caption)
        );
    }

    // The table and its terrain, lowest layer first, clipped to the edge.
    let open_fill = &rules.kind(rules.open).fill;
    let _ = writeln!(
        out,
        "<rect id=\"table\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>",
        table.width,
        table.height,
        escape(open_fill)
    );
    out.push_str("<g id=\"terrain\" clip-path=\"url(#table-clip)\">\n");
    let mut order: Vec<usize> = (0..field.features.len()).collect();
    order.sort_by_key(|&i| (rules.kind(field.features[i].kind).layer, i));
    for index in order {
        let feature = &field.features[index];
        let kind = rules.kind(feature.kind);
        let fill = escape(&kind.fill);
        let name = escape(feature.name.as_deref().unwrap_or(&kind.name));
        match &feature.shape {
            Shape::Polygon(corners) => {
                let points: Vec<String> = corners.iter().map(|&p| xy(p)).collect();
                let _ = writeln!(
                    out,
                    "<polygon points=\"{}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></polygon>",
                    points.join(" ")
                );
            }
            Shape::Rect { min, max } => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></rect>",
                    x(*min),
                    y(*max),
                    (max.x - min.x) * SCALE,
                    (max.y - min.y) * SCALE
                );
            }
            Shape::Circle { centre, radius } => {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></circle>",
                    x(*centre),
                    y(*centre),
                    radius * SCALE
                );
            }
            Shape::Line { points, width } => {
                let points: Vec<String> = points.iter().map(|&p| xy(p)).collect();
                let _ = writeln!(
                    out,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{:.1}\" stroke-linejoin=\"round\"><title>{name}</title></polyline>",
                    points.join(" "),
                    width * SCALE
                );
            }
        }
    }
    out.push_str("</g>\n");
    let _ = writeln!(
        out,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\"/>",
        table.width, table.height
    );
    draw_grid(&mut out, width, height);

    if !scene.areas.is_empty() {
        out.push_str("<g id=\"areas\">\n");
        for area in &scene.areas {
            let (west, north) = (x(area.min), y(area.max));
            let (east, south) = (x(area.max), y(area.min));
            let _ = writeln!(
                out,
                "<rect class=\"area\" x=\"{west:.1}\" y=\"{north:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"{AREA_STROKE}\" stroke-width=\"2.5\" stroke-dasharray=\"8 4\"><title>{}: {}</title></rect>",
                east - west,
                south - north,
                escape(&area.name),
                escape(&area.note())
            );
            let _ = writeln!(
                out,
                "<text class=\"area-name\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" font-style=\"italic\" fill=\"{AREA_STROKE}\">{}</text>",
                west + 3.0,
                north + 12.0,
                escape(&area.name)
            );
        }
        out.push_str("</g>\n");
    }

    if let Some(route) = route {
        out.push_str("<g id=\"route\">\n");
        for leg in route.legs() {
            let points: Vec<String> = leg.points.iter().map(|&p| xy(p)).collect();
            let dash = if leg.along_road {
                ""
            } else {
                " stroke-dasharray=\"6 3\""
            };
            let _ = writeln!(
                out,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"#f1c40f\" stroke-width=\"3\"{dash}/>",
                points.join(" ")
            );
        }
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"#f1c40f\" stroke=\"#333\"/>",
            x(route.end()),
            y(route.end())
        );
        out.push_str("</g>\n");
    }

    // Units as oriented bases with their troop type's symbol; generals as
    // starred discs.
    out.push_str("<g id=\"units\">\n");
    let mut footprints = Vec::new();
    for thing in &things {
        let fill = SIDE_FILLS[thing.side % SIDE_FILLS.len()];
        let corners = thing.base.corners();
        let xs = corners.iter().map(|&p| x(p));
        let ys = corners.iter().map(|&p| y(p));
        let (min_x, max_x) = xs.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let (min_y, max_y) = ys.fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
        let (cx, cy) = (x(thing.base.centre), y(thing.base.centre));
        let tooltip = escape(&thing.tooltip);
        match thing.category {
            None => {
                let r = ((max_x - min_x).max(max_y - min_y) / 2.0).clamp(5.0, 8.0);
                footprints.push(PixelBox::centred(cx, cy, 2.0 * r, 2.0 * r));
                let _ = writeln!(
                    out,
                    "<g class=\"general\"><title>{tooltip}</title>{}</g>",
                    general_symbol(cx, cy, r, fill)
                );
            }
            Some(category) => {
                footprints.push(PixelBox {
                    x: min_x,
                    y: min_y,
                    width: max_x - min_x,
                    height: max_y - min_y,
                });
                let points: Vec<String> = corners.iter().map(|&p| xy(p)).collect();
                let [front_left, front_right, back_right, back_left] = corners;
                let _ = writeln!(
                    out,
                    "<g class=\"unit\"><title>{tooltip}</title><polygon points=\"{}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1\"/>{}<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#fff\" stroke-width=\"2.5\"/></g>",
                    points.join(" "),
                    troop_symbol(
                        category,
                        [
                            (x(front_left), y(front_left)),
                            (x(front_right), y(front_right)),
                            (x(back_right), y(back_right)),
                            (x(back_left), y(back_left)),
                        ]
                    ),
                    x(front_left),
                    y(front_left),
                    x(front_right),
                    y(front_right),
                );
            }
        }
    }
    out.push_str("</g>\n");

    // The last bound, over the units (a shot's head is at its target's
    // centre) and under the labels.
    if !scene.arrows.is_empty() {
        out.push_str("<g id=\"arrows\">\n");
        for arrow in &scene.arrows {
            let side = arrow.side % SIDE_FILLS.len();
            let (colour, marker, style) = match arrow.kind {
                ArrowKind::Move => (
                    SIDE_FILLS[side],
                    format!("arrow-{side}"),
                    "stroke-width=\"2\" stroke-dasharray=\"5 3\"",
                ),
                ArrowKind::Charge => (
                    SIDE_FILLS[side],
                    format!("arrow-{side}"),
                    "stroke-width=\"3.5\"",
                ),
                ArrowKind::Fire => (
                    FIRE_COLOUR,
                    "arrow-fire".to_string(),
                    "stroke-width=\"1.5\" stroke-dasharray=\"2 3\"",
                ),
                ArrowKind::Retreat => (
                    RETREAT_COLOUR,
                    "arrow-retreat".to_string(),
                    "stroke-width=\"2\" stroke-dasharray=\"1 3\"",
                ),
            };
            let _ = writeln!(
                out,
                "<line class=\"arrow {}\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" {style} marker-end=\"url(#{marker})\"/>",
                arrow.kind.title(),
                x(arrow.from),
                y(arrow.from),
                x(arrow.to),
                y(arrow.to)
            );
        }
        out.push_str("</g>\n");
    }

    // Labels, none over another, each with its unit's hits bar.
    let sizes: Vec<(f64, f64)> = things.iter().map(label_size).collect();
    let anchors: Vec<(f64, f64, f64)> = things
        .iter()
        .zip(&footprints)
        .map(|(thing, footprint)| {
            (
                x(thing.base.centre),
                y(thing.base.centre),
                (footprint.width.max(footprint.height)) / 2.0,
            )
        })
        .collect();
    let placed = place_labels(&anchors, &sizes, &footprints, &table);
    out.push_str("<g id=\"labels\">\n");
    for ((thing, (b, moved)), (ax, ay, _)) in things.iter().zip(&placed).zip(&anchors) {
        out.push_str("<g class=\"label\">");
        if *moved {
            let (ex, ey) = (ax.clamp(b.x, b.x + b.width), ay.clamp(b.y, b.y + b.height));
            let _ = write!(
                out,
                "<line class=\"leader\" x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{ex:.1}\" y2=\"{ey:.1}\" stroke=\"#333\" stroke-width=\"0.8\"/>"
            );
        }
        let _ = write!(
            out,
            "<rect class=\"label-box\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"2\" fill=\"#ffffff\" fill-opacity=\"0.85\" stroke=\"{}\" stroke-width=\"0.8\"/>",
            b.x,
            b.y,
            b.width,
            b.height,
            SIDE_FILLS[thing.side % SIDE_FILLS.len()]
        );
        let _ = write!(
            out,
            "<text class=\"unit-label\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{LABEL_FONT}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111\">{}</text>",
            b.x + b.width / 2.0,
            b.y + LABEL_FONT,
            escape(&thing.label)
        );
        if let Some((rout_at, cell_width)) = hit_cell(thing.rout_at) {
            let bar_width = f64::from(rout_at) * cell_width;
            let left = b.x + (b.width - bar_width) / 2.0;
            for cell in 0..rout_at {
                let hit = cell < thing.hits;
                let _ = write!(
                    out,
                    "<rect class=\"{}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"4\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.4\"/>",
                    if hit { "hit" } else { "no-hit" },
                    left + f64::from(cell) * cell_width,
                    b.y + LABEL_FONT + 3.0,
                    cell_width,
                    if hit { "#d62728" } else { "#eeeeee" }
                );
            }
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
    out.push_str(&legend);

    // The scale under the coordinates.
    let bar_y = TOP + height * SCALE + 44.0;
    let _ = writeln!(
        out,
        "<line x1=\"{LEFT}\" y1=\"{bar_y:.1}\" x2=\"{:.1}\" y2=\"{bar_y:.1}\" stroke=\"#000\" stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">12 inches; {}\" x {}\" table, inches from the south-west corner</text>",
        LEFT + 12.0 * SCALE,
        LEFT + 12.0 * SCALE + 8.0,
        bar_y + 4.0,
        trim(width),
        trim(height)
    );
    out.push_str("</svg>\n");
    out
}

/// The size of a thing's label: its text, and its hits bar if it can rout.
fn label_size(thing: &Labelled) -> (f64, f64) {
    let text = thing.label.chars().count() as f64 * LABEL_CHAR;
    match hit_cell(thing.rout_at) {
        Some((rout_at, cell_width)) => (
            text.max(f64::from(rout_at) * cell_width) + 6.0,
            LABEL_FONT + 9.0,
        ),
        None => (text + 6.0, LABEL_FONT + 4.0),
    }
}

/// A tick every inch along the bottom and left edges, a longer one and the
/// coordinate every 6" (12" on tables over 72"), and faint grid lines there.
fn draw_grid(out: &mut String, width: f64, height: f64) {
    let step = if width.max(height) > 72.0 { 12 } else { 6 };
    let bottom = TOP + height * SCALE;
    out.push_str("<g id=\"grid\" stroke=\"#000\" font-size=\"10\">\n");
    for inch in 0..=(width.floor() as u32) {
        let px = LEFT + f64::from(inch) * SCALE;
        let major = inch % step == 0;
        let length = if major { 7.0 } else { 3.5 };
        if major && f64::from(inch) > 0.0 && f64::from(inch) < width {
            let _ = writeln!(
                out,
                "<line class=\"grid-line\" x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{bottom:.1}\" stroke-opacity=\"0.18\" stroke-width=\"0.8\"/>"
            );
        }
        let _ = writeln!(
            out,
            "<line class=\"tick\" x1=\"{px:.1}\" y1=\"{bottom:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke-width=\"0.8\"/>",
            bottom + length
        );
        if major {
            let _ = writeln!(
                out,
                "<text class=\"tick-label\" x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\" stroke=\"none\">{inch}</text>",
                bottom + 19.0
            );
        }
    }
    for inch in 0..=(height.floor() as u32) {
        let py = TOP + (height - f64::from(inch)) * SCALE;
        let major = inch % step == 0;
        let length = if major { 7.0 } else { 3.5 };
        if major && f64::from(inch) > 0.0 && f64::from(inch) < height {
            let _ = writeln!(
                out,
                "<line class=\"grid-line\" x1=\"{LEFT}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\" stroke-opacity=\"0.18\" stroke-width=\"0.8\"/>",
                LEFT + width * SCALE
            );
        }
        let _ = writeln!(
            out,
            "<line class=\"tick\" x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{LEFT}\" y2=\"{py:.1}\" stroke-width=\"0.8\"/>",
            LEFT - length
        );
        if major {
            let _ = writeln!(
                out,
                "<text class=\"tick-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" stroke=\"none\">{inch}</text>",
                LEFT - 10.0,
                py + 3.5
            );
        }
    }
    out.push_str("</g>\n");
}

/// A troop type's symbol inside its base, after the military map symbols:
/// foot a cross from corner to corner, skirmishers the same dashed, horse
/// one diagonal, guns a disc. `corners` are front-left, front-right,
/// back-right, back-left in pixels.
fn troop_symbol(category: Category, corners: [(f64, f64); 4]) -> String {
    let [fl, fr, br, bl] = corners;
    let line = |a: (f64, f64), b: (f64, f64), extra: &str| {
        format!(
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#fff\" stroke-width=\"1.2\"{extra}/>",
            a.0, a.1, b.0, b.1
        )
    };
    match category {
        Category::Infantry => format!("{}{}", line(fl, br, ""), line(fr, bl, "")),
        Category::Skirmisher => {
            let dash = " stroke-dasharray=\"2 2\"";
            format!("{}{}", line(fl, br, dash), line(fr, bl, dash))
        }
        Category::Cavalry => line(bl, fr, ""),
        Category::Artillery | Category::General => {
            let cx = (fl.0 + fr.0 + br.0 + bl.0) / 4.0;
            let cy = (fl.1 + fr.1 + br.1 + bl.1) / 4.0;
            let short = (fl.0 - bl.0)
                .hypot(fl.1 - bl.1)
                .min((fl.0 - fr.0).hypot(fl.1 - fr.1));
            format!(
                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"#fff\"/>",
                (short * 0.3).max(1.5)
            )
        }
    }
}

/// A general: a disc in his side's colour with a white five-pointed star.
fn general_symbol(cx: f64, cy: f64, r: f64, fill: &str) -> String {
    let points: Vec<String> = (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { r * 0.8 } else { r * 0.35 };
            let angle = std::f64::consts::PI * f64::from(i) / 5.0;
            format!(
                "{:.1},{:.1}",
                cx + radius * angle.sin(),
                cy - radius * angle.cos()
            )
        })
        .collect();
    format!(
        "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1\"/><polygon points=\"{}\" fill=\"#fff\"/>",
        points.join(" ")
    )
}

/// The legend right of the table: sides, troop types, terrain, the last
/// bound's arrows and the hits bar. Returns where it ends.
fn draw_legend(out: &mut String, scene: &Scene<'_>, things: &[Labelled], left: f64) -> f64 {
    let rules = &scene.battlefield.ruleset;
    let mut top = TOP + 4.0;
    out.push_str("<g id=\"legend\" font-size=\"12\">\n");
    let heading = |out: &mut String, top: &mut f64, text: &str| {
        let _ = writeln!(
            out,
            "<text class=\"legend-heading\" x=\"{left:.1}\" y=\"{:.1}\" font-weight=\"bold\">{text}</text>",
            *top + 10.0
        );
        *top += 18.0;
    };
    let entry = |out: &mut String, top: &mut f64, swatch: &str, text: &str| {
        let _ = writeln!(
            out,
            "<g class=\"legend-entry\"><g transform=\"translate({left:.1},{:.1})\">{swatch}</g><text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            *top,
            left + 30.0,
            *top + 10.0,
            escape(text)
        );
        *top += 18.0;
    };
    heading(out, &mut top, "Sides");
    for (index, side) in scene.sides.iter().enumerate() {
        let swatch = format!(
            "<rect width=\"22\" height=\"12\" fill=\"{}\" stroke=\"#111\"/>",
            SIDE_FILLS[index % SIDE_FILLS.len()]
        );
        entry(
            out,
            &mut top,
            &swatch,
            &format!("{} ({} edge)", side.name, side.edge.name()),
        );
    }
    top += 6.0;
    heading(out, &mut top, "Troops");
    let sample = [(0.0, 1.0), (22.0, 1.0), (22.0, 11.0), (0.0, 11.0)];
    for (category, name) in [
        (Category::Infantry, "foot"),
        (Category::Skirmisher, "skirmishers"),
        (Category::Cavalry, "horse"),
        (Category::Artillery, "guns"),
    ] {
        if !things.iter().any(|thing| thing.category == Some(category)) {
            continue;
        }
        let swatch = format!(
            "<rect y=\"1\" width=\"22\" height=\"10\" fill=\"#777\" stroke=\"#111\"/>{}<line x1=\"0\" y1=\"1\" x2=\"22\" y2=\"1\" stroke=\"#fff\" stroke-width=\"2\"/>",
            troop_symbol(category, sample)
        );
        entry(
            out,
            &mut top,
            &swatch,
            &format!("{name} (white edge: front)"),
        );
    }
    if things.iter().any(|thing| thing.category.is_none()) {
        entry(
            out,
            &mut top,
            &general_symbol(11.0, 6.0, 6.0, "#777"),
            "general",
        );
    }
    if things.iter().any(|thing| thing.rout_at.is_some()) {
        let mut swatch = String::new();
        for cell in 0..4 {
            let _ = write!(
                swatch,
                "<rect x=\"{}\" y=\"4\" width=\"{HIT_CELL}\" height=\"4\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.4\"/>",
                f64::from(cell) * HIT_CELL,
                if cell == 0 { "#d62728" } else { "#eeeeee" }
            );
        }
        entry(out, &mut top, &swatch, scene.damage.legend());
    }
    top += 6.0;
    heading(out, &mut top, "Terrain");
    let mut kinds = vec![rules.open];
    for feature in &scene.battlefield.features {
        if !kinds.contains(&feature.kind) {
            kinds.push(feature.kind);
        }
    }
    kinds.sort_by_key(|kind| kind.0);
    for kind in kinds {
        let terrain = rules.kind(kind);
        let swatch = format!(
            "<rect width=\"22\" height=\"12\" fill=\"{}\" stroke=\"#555\" stroke-width=\"0.5\"/>",
            escape(&terrain.fill)
        );
        entry(
            out,
            &mut top,
            &swatch,
            &format!("{} ({})", terrain.name, terrain.column.title()),
        );
    }
    if !scene.areas.is_empty() {
        top += 6.0;
        heading(out, &mut top, "Areas");
        for area in &scene.areas {
            let swatch = format!(
                "<rect x=\"1\" y=\"1\" width=\"20\" height=\"10\" fill=\"none\" stroke=\"{AREA_STROKE}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>"
            );
            entry(out, &mut top, &swatch, &area.name);
            if !area.held_by.is_empty() {
                let whose = format!("objective of the {}", area.held_by.join(" or the "));
                entry(out, &mut top, "", &whose);
            }
        }
    }
    if !scene.arrows.is_empty() {
        top += 6.0;
        heading(out, &mut top, "Last bound");
        for kind in [
            ArrowKind::Move,
            ArrowKind::Charge,
            ArrowKind::Fire,
            ArrowKind::Retreat,
        ] {
            if !scene.arrows.iter().any(|arrow| arrow.kind == kind) {
                continue;
            }
            let (colour, marker, style) = match kind {
                ArrowKind::Move => (
                    "#333",
                    "arrow-retreat",
                    "stroke-width=\"2\" stroke-dasharray=\"5 3\"",
                ),
                ArrowKind::Charge => ("#333", "arrow-retreat", "stroke-width=\"3.5\""),
                ArrowKind::Fire => (
                    FIRE_COLOUR,
                    "arrow-fire",
                    "stroke-width=\"1.5\" stroke-dasharray=\"2 3\"",
                ),
                ArrowKind::Retreat => (
                    RETREAT_COLOUR,
                    "arrow-retreat",
                    "stroke-width=\"2\" stroke-dasharray=\"1 3\"",
                ),
            };
            let swatch = format!(
                "<line x1=\"0\" y1=\"6\" x2=\"22\" y2=\"6\" stroke=\"{colour}\" {style} marker-end=\"url(#{marker})\"/>"
            );
            entry(out, &mut top, &swatch, kind.title());
        }
    }
    out.push_str("</g>\n");
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    fn builtin(name: &str) -> crate::scenario::Scenario {
        let (file, text) = crate::scenario::builtin(name).expect("built in");
        crate::scenario::load(
            crate::yaml::Source::new(file, text),
            crate::ruleset::Ruleset::builtin,
        )
        .expect("valid")
    }

    /// The objective areas are drawn and named in the key, in the SVG and
    /// on the terminal map, whatever the rule set; a scenario without one
    /// draws none.
    #[test]
    fn objective_areas_are_outlined_and_named_in_the_key() {
        for (name, area, side) in [
            ("henry-hill", "the Henry House plateau", "union"),
            ("monongahela", "the trace", "british"),
        ] {
            let scenario = builtin(name);
            let scene = Scene::of_scenario(&scenario);
            let picture = svg(&scene, None);
            assert!(picture.contains("<g id=\"areas\">"), "{name}");
            assert!(picture.contains("class=\"area\""), "{name}");
            assert!(picture.contains(">Areas</text>"), "{name}");
            assert!(picture.contains(&format!(">{area}</text>")), "{name}");
            assert!(
                picture.contains(&format!(">objective of the {side}</text>")),
                "{name}"
            );
            let text = super::super::map::map(&scene, super::super::map::MapStyle::default(), None);
            assert!(
                text.contains(&format!(
                    "Area: ! {area} (objective: the {side} win by holding it at the end;"
                )),
                "{name}: {text}"
            );
            assert!(
                text.lines().any(|line| line.contains("!!!!")),
                "{name}: no outline"
            );
        }
        let scenario = builtin("guilford");
        let scene = Scene::of_scenario(&scenario);
        assert!(!svg(&scene, None).contains("id=\"areas\""));
        let text = super::super::map::map(&scene, super::super::map::MapStyle::default(), None);
        assert!(!text.contains("Area:"));
    }

    #[test]
    fn names_are_escaped_and_characters_xml_forbids_replaced() {
        assert_eq!(
            escape("1st\u{1}Guards <&> \"x\" 'y'\u{ffff}\ttab"),
            "1st\u{fffd}Guards &lt;&amp;&gt; &quot;x&quot; 'y'\u{fffd}\ttab"
        );
        // A picture whose names carry them is still well-formed (scenario
        // files refuse such names, but a picture does not rely on it).
        let (file, text) = crate::scenario::builtin("learning").expect("built in");
        let scenario = crate::scenario::load(
            crate::yaml::Source::new(file, text),
            crate::ruleset::Ruleset::builtin,
        )
        .expect("valid");
        let mut scene = Scene::of_scenario(&scenario);
        scene.sides[0].units[0].name = "A\u{1}<&".into();
        let picture = svg(&scene, None);
        let document = roxmltree::Document::parse(&picture).expect("well-formed XML");
        assert!(
            document
                .descendants()
                .any(|node| node.text().is_some_and(|t| t.contains("A\u{fffd}<&"))),
            "{picture}"
        );
    }

    #[test]
    fn labels_piled_on_one_spot_are_spread_so_none_covers_another() {
        let anchors = vec![(100.0, 100.0, 6.0); 30];
        let sizes = vec![(28.0, 15.0); 30];
        let bounds = PixelBox {
            x: 0.0,
            y: 0.0,
            width: 400.0,
            height: 400.0,
        };
        let obstacles = [PixelBox::centred(100.0, 100.0, 12.0, 12.0)];
        let placed = place_labels(&anchors, &sizes, &obstacles, &bounds);
        for (i, (a, _)) in placed.iter().enumerate() {
            for (b, _) in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
        // The first goes straight above its unit; the rest are pushed off
        // their first choice and say so (they get a leader line).
        assert_eq!(placed[0].0, PixelBox::centred(100.0, 84.5, 28.0, 15.0));
        assert!(!placed[0].1);
        assert!(placed[1..].iter().all(|(_, moved)| *moved));
    }
}
