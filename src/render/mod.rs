//! Rendering: pure functions from results to text. The edges print what
//! these return; nothing here reads input or writes output.

pub mod baseline;
pub mod companion;
pub mod explain;
pub mod game_scene;
pub mod map;
pub mod opponent;
pub mod play;
pub mod progress;
pub mod prompt;
pub mod route;
pub mod scene;
pub mod simulate;
pub mod svg;
pub mod text;
pub mod texts;
