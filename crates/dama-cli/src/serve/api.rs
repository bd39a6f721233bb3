//! The routes: the page, and the JSON API it speaks.
//!
//! ```text
//! GET  /                          the page (and /app.js, /style.css)
//! GET  /api/variants              the built-in variants
//! GET  /api/variants/{id}         one of them, with its TOML text
//! POST /api/validate              {toml} → findings, rules in words, initial position
//! POST /api/games                 {variant | toml, fen?, moves?, pdn?} → a new game
//! GET  /api/games/{id}            the game
//! POST /api/games/{id}/move       {squares | text} → {ok, error?, game}
//! POST /api/games/{id}/undo       {count?}        /redo likewise
//! POST /api/games/{id}/resign     {side?}
//! POST /api/games/{id}/computer   {level?} → the engine plays
//! GET  /api/games/{id}/pdn        the record
//! GET  /api/games/{id}/analysis   ?ms= → server-sent events (info…, done)
//! GET  /api/games/{id}/review     every position's score for White, within 4 s
//! ```
//!
//! A move that is not legal is an answer, not an error (`ok: false` with the
//! engine's explanation); a request that makes no sense is a 4xx with
//! `{"error": {"code", "message"}}`.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use dama_engine::pdn;
use dama_engine::{source::builtin_text, source::BUILTIN, Color, FenOptions, Game, Rules};
use dama_play::source::{start_game, StartError};
use dama_play::view::{rules_text, VariantSummary};
use dama_play::ErrorCode;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::{ApiError, Json};
use super::store::{Entry, Source, Store};
use super::{assets, design, guard, moves, think, view};

/// The largest request body, in bytes.
pub const MAX_BODY: usize = 256 << 10;
/// The most moves a new game may replay.
const MAX_MOVES: usize = 4000;

type Shared = Arc<Store>;
type Answer = Result<axum::Json<Value>, ApiError>;

pub fn router(store: Shared, hosts: Arc<guard::Hosts>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/favicon.svg", get(assets::icon))
        .route("/favicon.ico", get(assets::icon))
        .route("/api/variants", get(variants))
        .route("/api/variants/{id}", get(variant))
        .route("/api/validate", post(validate))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/computer", post(computer))
        .route("/api/games/{id}/pdn", get(record))
        .route("/api/games/{id}/analysis", get(analysis))
        .route("/api/games/{id}/review", get(review))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(hosts, guard::guard))
        .with_state(store)
}

async fn not_found() -> Response {
    ApiError {
        status: StatusCode::NOT_FOUND,
        code: ErrorCode::NotFound,
        message: "no such page or API route".into(),
    }
    .into_response()
}

async fn variants(State(store): State<Shared>) -> Answer {
    let mut out = Vec::new();
    for (id, _) in BUILTIN {
        let r = store.builtin(id).map_err(|e| {
            ApiError::bad_request(ErrorCode::Builtin, format!("built-in variant {id} does not load: {e}"))
        })?;
        out.push(VariantSummary::new(&r));
    }
    Ok(axum::Json(json!({"variants": out})))
}

/// The built-in id `name` stands for (an id or an alias).
fn builtin_id(name: &str) -> Result<&'static str, ApiError> {
    if let Some((id, _)) = builtin_text(name) {
        return Ok(id);
    }
    let names = dama_engine::source::builtin_names();
    let msg = format!("no built-in variant `{}`", name.chars().take(40).collect::<String>());
    Err(ApiError::bad_request(
        ErrorCode::Variant,
        match dama_engine::text::did_you_mean(name, names.iter().map(String::as_str)) {
            Some(s) => format!("{msg}: did you mean `{s}`?"),
            None => msg,
        },
    ))
}

async fn variant(State(store): State<Shared>, Path(name): Path<String>) -> Answer {
    let id = builtin_id(&name)?;
    let text = builtin_text(id).map(|(_, t)| t).unwrap_or_default();
    let r = store
        .builtin(id)
        .map_err(|e| ApiError::bad_request(ErrorCode::Builtin, e.to_string()))?;
    Ok(axum::Json(json!({
        "id": id,
        "name": r.name(),
        "toml": text,
        "variant": view::variant(&r),
        "rules": rules_text(&r),
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ValidateBody {
    toml: String,
}

async fn validate(Json(body): Json<ValidateBody>) -> Answer {
    design::check_size(&body.toml)?;
    // Loading compiles the rules: off the async threads.
    let v = tokio::task::spawn_blocking(move || design::validate(&body.toml))
        .await
        .map_err(|_| ApiError::bad_request(ErrorCode::Variant, "the variant could not be checked"))?;
    Ok(axum::Json(v))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    toml: Option<String>,
    fen: Option<String>,
    pdn: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// The rules a request names: a built-in variant or pasted TOML.
fn rules_of(store: &Store, variant: Option<&str>, toml: Option<&str>) -> Result<(Arc<Rules>, Source), ApiError> {
    match (variant, toml) {
        (_, Some(text)) => {
            design::check_size(text)?;
            let loaded = design::load(text).map_err(|e| {
                let first = e.diagnostics.first().map(|d| d.to_string()).unwrap_or_default();
                ApiError::bad_request(ErrorCode::Variant, format!("the variant does not load: {first}"))
            })?;
            Ok((Arc::new(loaded.rules), Source::Pasted))
        }
        (Some(name), None) => {
            let id = builtin_id(name)?;
            let r = store
                .builtin(id)
                .map_err(|e| ApiError::bad_request(ErrorCode::Builtin, e.to_string()))?;
            Ok((r, Source::Builtin(id.to_string())))
        }
        (None, None) => Err(ApiError::bad_request(
            ErrorCode::Variant,
            "name a built-in `variant` or give a `toml` text",
        )),
    }
}

fn build_game(store: &Store, body: NewGame) -> Result<Entry, ApiError> {
    if body.moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(
            ErrorCode::Moves,
            format!("at most {MAX_MOVES} moves"),
        ));
    }
    if let Some(text) = &body.pdn {
        return from_pdn(store, text, body.variant.as_deref(), body.toml.as_deref());
    }
    let (rules, source) = rules_of(store, body.variant.as_deref(), body.toml.as_deref())?;
    // A start whose captures cannot be listed in bounded time is refused
    // before a game is made of it (the game lists its moves at once).
    let start = match body.fen.as_deref().filter(|f| !f.trim().is_empty()) {
        Some(f) => rules.parse_fen(f).ok(),
        None => Some(rules.start_position()),
    };
    if let Some(pos) = start {
        check_listable(&rules, &pos)?;
    }
    let game = start_game(rules, body.fen.as_deref(), FenOptions::default(), &body.moves).map_err(|e| {
        let message = match &e {
            StartError::Fen(f) => format!("column {}: {}", f.column, f.message),
            StartError::Move { .. } => e.to_string(),
        };
        ApiError::bad_request(e.code(), message)
    })?;
    Ok(Entry::new(game, source))
}

/// The most jumps of capture search a new game's start may need to list
/// its moves: the traditional games need a few hundred; a variant written
/// in the designer whose capture tree explodes can need billions.
const MAX_START_JUMPS: u64 = 5_000_000;

/// Refuses (422, code `too-large`) a position whose moves take more than
/// [`MAX_START_JUMPS`] jumps of capture search to list.
fn check_listable(rules: &Rules, pos: &dama_engine::Position) -> Result<(), ApiError> {
    if rules.generate_within(pos, &mut dama_engine::MoveList::new(), MAX_START_JUMPS) {
        return Ok(());
    }
    Err(ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: ErrorCode::TooLarge,
        message: format!(
            "listing this position's captures needs more than {MAX_START_JUMPS} jumps of search, more than the board answers for; study it with `dama moves` or `dama perft`"
        ),
    })
}

/// A game from a PDN record: its variant is built in (named by the record
/// or the request) or pasted; a `VariantFile` tag is never opened.
fn from_pdn(store: &Store, text: &str, variant: Option<&str>, toml: Option<&str>) -> Result<Entry, ApiError> {
    let games = pdn::read_games(text).map_err(|e| ApiError::bad_request(ErrorCode::PdnSyntax, e.to_string()))?;
    let Some(record) = games.into_iter().next() else {
        return Err(ApiError::bad_request(ErrorCode::NoGame, "the text holds no game"));
    };
    let named = if toml.is_some() || variant.is_some() {
        None
    } else {
        record.variant_name(None)
    };
    let (rules, source) = match named {
        Some(n) => rules_of(store, Some(&n), None).map_err(|e| ApiError {
            message: format!(
                "{} (the record's variant; choose it, or paste its TOML in Design)",
                e.message
            ),
            ..e
        })?,
        None if toml.is_none() && variant.is_none() => {
            return Err(ApiError::bad_request(
                ErrorCode::Variant,
                "the record does not say which variant it is: choose one, or paste its TOML in Design",
            ))
        }
        None => rules_of(store, variant, toml)?,
    };
    let game = record
        .replay(rules)
        .map_err(|e| ApiError::bad_request(ErrorCode::Pdn, e.to_string()))?;
    Ok(Entry::new(game, source))
}

async fn new_game(State(store): State<Shared>, Json(body): Json<NewGame>) -> Answer {
    let s = store.clone();
    let v = tokio::task::spawn_blocking(move || {
        let entry = build_game(&s, body)?;
        let id = s.insert(entry.clone());
        Ok::<_, ApiError>(view::game(&id, &entry))
    })
    .await
    .map_err(|_| ApiError::bad_request(ErrorCode::Game, "the game could not be made"))??;
    Ok(axum::Json(v))
}

/// Runs `f` on game `id` and answers with the game.
/// Runs `f` on game `id` on a blocking thread (listing a heavy position's
/// moves never holds up the async threads, nor another game), and answers
/// with what it returns.
async fn on_game<F>(store: &Shared, id: &str, f: F) -> Answer
where
    F: FnOnce(&str, &mut Entry) -> Value + Send + 'static,
{
    let (store, id) = (Arc::clone(store), id.to_string());
    tokio::task::spawn_blocking(move || store.with(&id, |e| f(&id, e)).ok_or_else(|| ApiError::no_game(&id)))
        .await
        .map_err(|_| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            code: ErrorCode::Game,
            message: "the request could not be served".into(),
        })?
        .map(axum::Json)
}

/// Game `id`, copied, on a blocking thread.
async fn game_of(store: &Shared, id: &str) -> Result<Game, ApiError> {
    let (store, id) = (Arc::clone(store), id.to_string());
    tokio::task::spawn_blocking(move || {
        store
            .with(&id, |e| e.game.clone())
            .ok_or_else(|| ApiError::no_game(&id))
    })
    .await
    .map_err(|_| ApiError::bad_request(ErrorCode::Game, "the request could not be served"))?
}

async fn show(State(store): State<Shared>, Path(id): Path<String>) -> Answer {
    on_game(&store, &id, move |id, e| view::game(id, e)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    squares: Option<Vec<u8>>,
    text: Option<String>,
}

async fn play(State(store): State<Shared>, Path(id): Path<String>, Json(body): Json<MoveBody>) -> Answer {
    if body.squares.as_ref().is_some_and(|s| s.len() > moves::MAX_PATH) {
        return Err(ApiError::bad_request(
            ErrorCode::MoveSyntax,
            "too many squares for one move",
        ));
    }
    if body.text.as_ref().is_some_and(|t| t.len() > 1024) {
        return Err(ApiError::bad_request(
            ErrorCode::MoveSyntax,
            "move text is at most 1024 bytes",
        ));
    }
    on_game(&store, &id, move |id, e| {
        let tried = moves::play(&mut e.game, body.squares.as_deref(), body.text.as_deref());
        let game = view::game(id, e);
        match tried {
            Ok(()) => json!({"ok": true, "game": game}),
            Err(r) => json!({"ok": false, "error": {"code": r.code, "message": r.message}, "game": game}),
        }
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct CountBody {
    count: Option<usize>,
}

async fn undo(State(store): State<Shared>, Path(id): Path<String>, Json(body): Json<CountBody>) -> Answer {
    let n = body.count.unwrap_or(1).min(MAX_MOVES);
    on_game(&store, &id, move |id, e| {
        for _ in 0..n {
            if e.game.undo().is_none() {
                break;
            }
        }
        view::game(id, e)
    })
    .await
}

async fn redo(State(store): State<Shared>, Path(id): Path<String>, Json(body): Json<CountBody>) -> Answer {
    let n = body.count.unwrap_or(1).min(MAX_MOVES);
    on_game(&store, &id, move |id, e| {
        for _ in 0..n {
            if e.game.redo().is_none() {
                break;
            }
        }
        view::game(id, e)
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ResignBody {
    side: Option<String>,
}

async fn resign(State(store): State<Shared>, Path(id): Path<String>, Json(body): Json<ResignBody>) -> Answer {
    let side = match body.side.as_deref() {
        None => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(_) => {
            return Err(ApiError::bad_request(
                ErrorCode::Side,
                "`side` is \"white\" or \"black\"",
            ))
        }
    };
    on_game(&store, &id, move |id, e| {
        let who = side.unwrap_or(e.game.side_to_move());
        let _ = e.game.resign(who);
        view::game(id, e)
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ComputerBody {
    level: Option<u8>,
}

async fn computer(State(store): State<Shared>, Path(id): Path<String>, Json(body): Json<ComputerBody>) -> Answer {
    let level = body.level;
    let game = game_of(&store, &id).await?;
    if game.is_over() {
        return on_game(
            &store,
            &id,
            move |id, e| json!({"ok": false, "error": {"code": ErrorCode::AfterEnd.as_str(), "message": "the game is over"}, "game": view::game(id, e)}),
        ).await;
    }
    let plies = game.ply_count();
    let pos = *game.position();
    let seed = plies as u64 ^ 0x5eed;
    let r = think::best(&store.searches, game, level, seed).await?;
    on_game(&store, &id, move |id, e| {
        // Played only on the position it was found for (the page may have moved on).
        let same = e.game.ply_count() == plies && *e.game.position() == pos;
        let info = think::report(e.game.rules(), &pos, &r);
        let played = match r.best {
            Some(m) if same => e.game.play(m).is_ok(),
            _ => false,
        };
        json!({"ok": played, "search": info, "game": view::game(id, e)})
    })
    .await
}

async fn record(State(store): State<Shared>, Path(id): Path<String>) -> Answer {
    on_game(&store, &id, move |_, e| {
        let tags = pdn::PdnTags {
            event: "dama serve".into(),
            ..pdn::PdnTags::default()
        };
        json!({"pdn": e.game.to_pdn(&tags), "fen": e.game.rules().to_fen(e.game.position())})
    })
    .await
}

async fn analysis(
    State(store): State<Shared>,
    Path(id): Path<String>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Response, ApiError> {
    // Read here rather than by serde, so that a bad value gets a JSON answer too.
    let ms = match q.get("ms") {
        None => 3000,
        Some(v) => v
            .parse::<u64>()
            .map_err(|_| ApiError::bad_request(ErrorCode::BadRequest, "`ms` is a number of milliseconds"))?,
    };
    let game = game_of(&store, &id).await?;
    let ms = ms.clamp(50, think::MAX_ANALYSIS.as_millis() as u64);
    think::analyse(&store.searches, game, ms).await
}

async fn review(State(store): State<Shared>, Path(id): Path<String>) -> Answer {
    let game = game_of(&store, &id).await?;
    think::review(&store.searches, game).await.map(axum::Json)
}
