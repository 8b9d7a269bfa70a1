//! Where the cache of schemas and answers lives: `TOFU_RS_SCHEMA_CACHE_DIR`
//! if set (empty turns the cache off), else `$XDG_CACHE_HOME/tofu-rs/providers`,
//! else `$HOME/.cache/tofu-rs/providers`. One directory for every working
//! directory of the user: entries are keyed by what the executable is, not
//! where it is, so a hundred roots of a monorepo share one schema.

use std::path::PathBuf;

/// The environment variable that moves (or, empty, disables) the cache.
pub const ENV: &str = "TOFU_RS_SCHEMA_CACHE_DIR";

/// The cache directory, or `None` when caching is off or no home is known.
pub fn from_env() -> Option<PathBuf> {
    from_vars(|k| std::env::var_os(k))
}

fn from_vars(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    if let Some(dir) = var(ENV) {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    if let Some(xdg) = var("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(xdg).join("tofu-rs").join("providers"));
    }
    let home = var("HOME").filter(|d| !d.is_empty())?;
    Some(
        PathBuf::from(home)
            .join(".cache")
            .join("tofu-rs")
            .join("providers"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn with(pairs: &[(&str, &str)]) -> Option<PathBuf> {
        from_vars(|k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn explicit_directory_wins_and_empty_turns_the_cache_off() {
        assert_eq!(
            with(&[(ENV, "/c"), ("HOME", "/h")]),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(with(&[(ENV, ""), ("HOME", "/h")]), None);
    }

    #[test]
    fn xdg_then_home() {
        assert_eq!(
            with(&[("XDG_CACHE_HOME", "/x"), ("HOME", "/h")]),
            Some(PathBuf::from("/x/tofu-rs/providers"))
        );
        assert_eq!(
            with(&[("HOME", "/h")]),
            Some(PathBuf::from("/h/.cache/tofu-rs/providers"))
        );
        assert_eq!(with(&[]), None);
    }
}
