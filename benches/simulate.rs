//! Simulation benchmark: whole Guilford games per second on one core, with
//! the `learning` scenario and engine-only random legal play on Guilford
//! measured in the same run as baselines (the printed ratios compare them).
//! The same figures as `foe simulate --bench`.

// The same allocator as the `foe` binary, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `cargo bench -- SECONDS` measures each figure for that long.
    let seconds = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse::<f64>().ok())
        .unwrap_or(3.0);
    match foe::cli::simulate::bench(seconds) {
        Ok(figures) => print!("{figures}"),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    }
}
