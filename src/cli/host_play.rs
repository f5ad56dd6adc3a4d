//! `foe play` over the boundary.
