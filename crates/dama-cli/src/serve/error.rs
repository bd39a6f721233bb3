//! Bad requests: a 4xx status and a JSON message, never a panic.
//!
//! Axum's own rejections (a body that is not JSON, too large, a missing
//! field) are turned into the same shape by [`Json`], the extractor every
//! route uses instead of axum's.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use dama_play::ErrorCode;
use serde_json::json;

/// An answer to a request that cannot be served.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code,
            message: message.into(),
        }
    }

    pub fn no_game(id: &str) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            code: ErrorCode::NoGame,
            message: format!(
                "no game `{}` on this server (it was restarted, or the game was dropped to make room)",
                clip(id)
            ),
        }
    }

    pub fn busy() -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: ErrorCode::Busy,
            message: "the engine is busy with other requests; try again".into(),
        }
    }
}

/// At most 40 characters of text from a request, for a message.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).filter(|c| !c.is_control()).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code.as_str(), "message": self.message}});
        (self.status, axum::Json(body)).into_response()
    }
}

/// A JSON body, whose rejection is an [`ApiError`].
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<S, T> FromRequest<S> for Json<T>
where
    axum::Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Json(v)),
            Err(rejection) => Err(ApiError {
                status: rejection.status(),
                code: ErrorCode::BadRequest,
                message: rejection.body_text(),
            }),
        }
    }
}
