//! gocompat: the places where OpenTofu's observable output is decided by Go's
//! standard library or a Go module rather than by OpenTofu itself, ported
//! once so that every crate gives the same answer. The bottom crate of the
//! workspace: it depends on no other tofu-rs crate (only on serde_json,
//! for the JSON values whose Go errors it words).
//!
//! - `http` (feature `http`): the one ureq agent builder and Go's
//!   `net/http` error wording for requests that got no response.
//! - [`hex`]: `encoding/hex`'s lowercase encoding of digests.
//! - [`json`]: `encoding/json`'s string encoding (HTML-safe) and its
//!   type errors' texts.
//! - [`json_syntax`]: `encoding/json`'s syntax check and its error texts.
//! - [`net`]: `net.ResolveTCPAddr` and `net.SplitHostPort` with their errors.
//! - [`quote`]: `strconv.Quote`, `strconv.QuoteRune` and `unicode.IsPrint`
//!   (what `%q` prints), exact to Go's Unicode tables.
//! - [`time`]: Go's `time.RFC3339` formatting of UTC instants.
//! - [`version`]: hashicorp/go-version (module versions, `required_version`).

pub mod hex;
#[cfg(feature = "http")]
pub mod http;
pub mod json;
pub mod json_syntax;
pub mod net;
pub mod quote;
pub mod time;
pub mod version;
