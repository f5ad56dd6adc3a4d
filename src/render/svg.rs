//! The battlefield as an SVG picture: terrain in its rule-set colours, units
//! as oriented rectangles with labels, an optional route, and a scale bar.
//! Pure: returns the document as a String.

use super::scene::Scene;
use crate::battlefield::{Point, Route, Shape, geometry::trim};

/// Pixels per inch.
const SCALE: f64 = 12.0;
/// Margin around the table, pixels.
const MARGIN: f64 = 30.0;
const SIDE_FILLS: [&str; 4] = ["#c0392b", "#2e5fa8", "#8e44ad", "#16a085"];

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draw a scene's table, its units and (optionally) a route as SVG.
pub fn svg(scene: &Scene<'_>, route: Option<&Route>) -> String {
    let field = scene.battlefield;
    let rules = &field.ruleset;
    let (width, height) = (field.width(), field.height());
    let x = |p: Point| MARGIN + p.x * SCALE;
    let y = |p: Point| MARGIN + (height - p.y) * SCALE;
    let xy = |p: Point| format!("{:.1},{:.1}", x(p), y(p));
    let mut out = String::new();
    let total_width = width * SCALE + 2.0 * MARGIN;
    let total_height = height * SCALE + 2.0 * MARGIN + 30.0;
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{total_width:.0}\" height=\"{total_height:.0}\" viewBox=\"0 0 {total_width:.0} {total_height:.0}\" font-family=\"sans-serif\">\n"
    ));
    out.push_str(&format!("<title>{}</title>\n", escape(&scene.title)));
    let open_fill = &rules.kind(rules.open).fill;
    out.push_str(&format!(
        "<rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"#333\"/>\n",
        width * SCALE,
        height * SCALE,
        escape(open_fill)
    ));
    // Terrain, lowest layer first.
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
                out.push_str(&format!("<polygon points=\"{}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></polygon>\n", points.join(" ")));
            }
            Shape::Rect { min, max } => {
                out.push_str(&format!(
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></rect>\n",
                    x(*min),
                    y(*max),
                    (max.x - min.x) * SCALE,
                    (max.y - min.y) * SCALE
                ));
            }
            Shape::Circle { centre, radius } => {
                out.push_str(&format!(
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{:.1}\" fill=\"{fill}\" fill-opacity=\"0.85\"><title>{name}</title></circle>\n",
                    x(*centre),
                    y(*centre),
                    radius * SCALE
                ));
            }
            Shape::Line { points, width } => {
                let points: Vec<String> = points.iter().map(|&p| xy(p)).collect();
                out.push_str(&format!(
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{fill}\" stroke-width=\"{:.1}\" stroke-linejoin=\"round\"><title>{name}</title></polyline>\n",
                    points.join(" "),
                    width * SCALE
                ));
            }
        }
    }
    if let Some(route) = route {
        for leg in route.legs() {
            let points: Vec<String> = leg.points.iter().map(|&p| xy(p)).collect();
            let dash = if leg.along_road {
                ""
            } else {
                " stroke-dasharray=\"6 3\""
            };
            out.push_str(&format!("<polyline points=\"{}\" fill=\"none\" stroke=\"#f1c40f\" stroke-width=\"3\"{dash}/>\n", points.join(" ")));
        }
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"#f1c40f\" stroke=\"#333\"/>\n",
            x(route.end()),
            y(route.end())
        ));
    }
    // Units as oriented bases; a bar marks the front edge.
    for (side_index, side) in scene.sides.iter().enumerate() {
        let fill = SIDE_FILLS[side_index % SIDE_FILLS.len()];
        let mut bases: Vec<(crate::battlefield::Base, String, String)> = side
            .units
            .iter()
            .filter_map(|u| u.base.map(|b| (b, u.label.clone(), u.name.clone())))
            .collect();
        bases.extend(side.generals.iter().filter_map(|g| {
            g.base
                .map(|b| (b, g.label.clone(), format!("General {}", g.name)))
        }));
        for (base, label, name) in bases {
            let corners: Vec<String> = base.corners().iter().map(|&p| xy(p)).collect();
            let [front_left, front_right, _, _] = base.corners();
            out.push_str(&format!(
                "<g><title>{}</title><polygon points=\"{}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#fff\" stroke-width=\"2\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" dominant-baseline=\"middle\" fill=\"#000\">{}</text></g>\n",
                escape(&name),
                corners.join(" "),
                x(front_left),
                y(front_left),
                x(front_right),
                y(front_right),
                x(base.centre),
                y(base.centre) - base.depth.max(1.0) * SCALE * 0.5 - 6.0,
                escape(&label)
            ));
        }
    }
    // Scale bar: 12 inches.
    let bar_y = MARGIN + height * SCALE + 18.0;
    out.push_str(&format!(
        "<line x1=\"{MARGIN}\" y1=\"{bar_y:.1}\" x2=\"{:.1}\" y2=\"{bar_y:.1}\" stroke=\"#000\" stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">12 inches  ({}\" x {}\" table)</text>\n",
        MARGIN + 12.0 * SCALE,
        MARGIN + 12.0 * SCALE + 8.0,
        bar_y + 4.0,
        trim(width),
        trim(height)
    ));
    out.push_str("</svg>\n");
    out
}
