//! The play tier's layers: every module of `src/` uses only the modules
//! declared before it in `src/lib.rs` (a use is any `crate::NAME` path
//! outside comments and unit tests), so its module graph has no cycle; and
//! the tier stands on the engine alone (no front end's crate).

#[path = "../../dama-engine/tests/layers/mod.rs"]
mod layers;

#[test]
fn each_layer_uses_only_the_layers_before_it() {
    let (order, _) = layers::check_layers();
    assert!(order.len() >= 6, "the layer list in lib.rs was not found: {order:?}");
}

#[test]
fn the_play_tier_depends_on_the_engine_only() {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap();
    for front_end in ["dama-cli", "dama-py", "dama-cases", "axum", "clap", "pyo3"] {
        assert!(
            !manifest.contains(front_end),
            "dama-play depends on {front_end}, a front end's concern"
        );
    }
    for file in layers::sources(std::path::Path::new("src")) {
        let text = std::fs::read_to_string(&file).unwrap();
        for call in [
            "println!",
            "eprintln!",
            "print!(",
            "std::io::stdin",
            "std::process::exit",
        ] {
            assert!(
                !text.contains(call),
                "{} uses {call}: the play tier never prints",
                file.display()
            );
        }
    }
}
