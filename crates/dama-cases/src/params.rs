//! The rule parameters of a variant as a Markdown table, for its rules page.

use dama_engine::{Rules, VariantSpec};

/// The rule parameters of a variant as a Markdown table (`key | value`),
/// every key of the resolved variant file except its identity and prose.
/// Rules pages embed it between `<!-- params:begin -->` and
/// `<!-- params:end -->`, and a test regenerates it, so the page cannot
/// drift from the TOML.
pub fn params_markdown(rules: &Rules) -> String {
    let spec: &VariantSpec = rules.spec();
    let mut rows: Vec<(String, String)> = Vec::new();
    if let Ok(toml::Value::Table(t)) = toml::Value::try_from(spec) {
        for (k, v) in &t {
            if matches!(
                k.as_str(),
                "id" | "name" | "aliases" | "description" | "sources" | "extends"
            ) {
                continue;
            }
            flatten(k, v, &mut rows);
        }
    }
    let mut out = String::from("| key | value |\n|---|---|\n");
    for (k, v) in rows {
        out.push_str(&format!("| `{k}` | {v} |\n"));
    }
    out
}

fn flatten(prefix: &str, v: &toml::Value, rows: &mut Vec<(String, String)>) {
    match v {
        toml::Value::Table(t) => {
            for (k, v) in t {
                flatten(&format!("{prefix}.{k}"), v, rows);
            }
        }
        toml::Value::Array(a) if a.is_empty() => rows.push((prefix.to_string(), "none".into())),
        toml::Value::Array(a) => rows.push((
            prefix.to_string(),
            a.iter().map(value_text).collect::<Vec<_>>().join(", "),
        )),
        other => rows.push((prefix.to_string(), value_text(other))),
    }
}

fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}
