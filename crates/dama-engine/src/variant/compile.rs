//! The public entry of compilation: the stages of [`crate::rules`], then
//! the checks that need the move generator.

use crate::board::Color;
use crate::rules::Rules;
use crate::spec::{Code, Diagnostic, VariantSpec};

impl Rules {
    /// Compiles a spec, checking it for consistency. Returns every problem
    /// found (errors and warnings) on failure, and the warnings on success.
    ///
    /// ```
    /// use dama_engine::{load, Rules};
    /// let spec = load("dama").unwrap().rules.spec().clone();
    /// let (rules, warnings) = Rules::compile(&spec).unwrap();
    /// assert_eq!(rules.id(), "dama");
    /// assert!(warnings.is_empty());
    /// ```
    pub fn compile(spec: &VariantSpec) -> Result<(Rules, Vec<Diagnostic>), Vec<Diagnostic>> {
        let (rules, mut diags) = crate::rules::compile(spec)?;
        if rules.legal_moves(&rules.start_position()).is_empty() {
            let c = Color::from(spec.setup.first);
            diags.push(Diagnostic::warning(
                Code::W0706,
                Some("setup.first"),
                format!("{c} moves first but has no legal move in the initial position: the game is over at once"),
            ));
        }
        Ok((rules, diags))
    }
}
