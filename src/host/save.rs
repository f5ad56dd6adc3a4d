//! Saves of games over the boundary.
