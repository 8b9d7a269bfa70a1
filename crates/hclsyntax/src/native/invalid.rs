//! Tokens that never belong in HCL source, reported before parsing as
//! HCL's `checkInvalidTokens` does.

use super::token::{Locator, Token, T};
use crate::diagnostic::{Diagnostic, Diagnostics};

/// Diagnostics for characters the language does not use, with HCL's limits
/// on repeating the same advice.
pub(super) fn check_invalid_tokens(tokens: &[Token], loc: &Locator<'_>) -> Diagnostics {
    let mut diags = Diagnostics::new();
    let mut told_bitwise = 0;
    let mut told_backtick = 0;
    let mut told_apostrophe = 0;
    let mut told_semicolon = 0;
    for tok in tokens {
        let subject = || loc.token_range(tok);
        match tok.ty {
            T::BitwiseAnd | T::BitwiseOr | T::BitwiseXor | T::BitwiseNot
                if told_bitwise < 4 =>
            {
                let suggestion = match tok.ty {
                    T::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    T::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    T::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                diags.push(Diagnostic::error(
                    "Unsupported operator",
                    format!("Bitwise operators are not supported.{suggestion}"),
                    subject(),
                ));
                told_bitwise += 1;
            }
            T::Backtick => {
                if told_backtick % 2 == 0 {
                    diags.push(Diagnostic::error(
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
                        subject(),
                    ));
                }
                if told_backtick <= 2 {
                    told_backtick += 1;
                }
            }
            T::Apostrophe => {
                if told_apostrophe % 2 == 0 {
                    diags.push(Diagnostic::error(
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                        subject(),
                    ));
                }
                if told_apostrophe <= 2 {
                    told_apostrophe += 1;
                }
            }
            T::Semicolon if told_semicolon < 1 => {
                diags.push(Diagnostic::error(
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                    subject(),
                ));
                told_semicolon += 1;
            }
            T::QuotedNewline => diags.push(Diagnostic::error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                subject(),
            )),
            T::Invalid => diags.push(Diagnostic::error(
                "Invalid character",
                "This character is not used within the language.",
                subject(),
            )),
            _ => {}
        }
    }
    diags
}
