//! Checking the detached OpenPGP signature of a registry's SHA256SUMS
//! document against the signing keys the registry listed
//! (`signatureAuthentication.findSigningKey`), with rpgp.

use pgp::composed::{Deserializable, DetachedSignature, SignedPublicKey};
use pgp::types::KeyDetails;

/// `ErrUnknownIssuer`'s text.
pub const UNKNOWN_ISSUER: &str = "authentication signature from unknown issuer";

/// The key ID (uppercase hex, as Go's `KeyIdString`) of the primary key
/// of the first listed key whose key or subkey made `signature` over
/// `document`. Keys that did not issue the signature are skipped; a key
/// that did but whose signature does not verify is an error, as in
/// OpenTofu (a tampered document must not fall through to "unknown").
pub fn find_signing_key(
    document: &[u8],
    signature: &[u8],
    armored_keys: &[String],
) -> Result<String, String> {
    let sig = parse_signature(signature)?;
    let issuers: Vec<Vec<u8>> = sig
        .signature
        .issuer_key_id()
        .into_iter()
        .map(|k| k.as_ref().to_vec())
        .collect();
    let issuer_fprs: Vec<Vec<u8>> = sig
        .signature
        .issuer_fingerprint()
        .into_iter()
        .map(|f| f.as_bytes().to_vec())
        .collect();
    for armored in armored_keys {
        let (key, _) = SignedPublicKey::from_string(armored)
            .map_err(|e| format!("error decoding signing key: openpgp: {e}"))?;
        let primary_id = upper_hex(key.primary_key.legacy_key_id().as_ref());
        let issued_by = |k: &dyn KeyDetails| {
            issuers.iter().any(|i| i == k.legacy_key_id().as_ref())
                || issuer_fprs.iter().any(|f| f == k.fingerprint().as_bytes())
        };
        let mut candidates: Vec<Result<(), pgp::errors::Error>> = Vec::new();
        if issued_by(&key.primary_key) {
            candidates.push(sig.verify(&key.primary_key, document));
        }
        for sub in &key.public_subkeys {
            if issued_by(&sub.key) {
                candidates.push(sig.verify(&sub.key, document));
            }
        }
        if candidates.is_empty() {
            continue;
        }
        if candidates.iter().any(Result::is_ok) {
            return Ok(primary_id);
        }
        let detail = candidates
            .into_iter()
            .find_map(Result::err)
            .map(|e| e.to_string())
            .unwrap_or_default();
        return Err(format!(
            "error checking signature: openpgp: invalid signature: {detail}"
        ));
    }
    Err(UNKNOWN_ISSUER.to_string())
}

/// Registries serve binary signatures; an armored one is accepted too.
fn parse_signature(bytes: &[u8]) -> Result<DetachedSignature, String> {
    if let Ok(sig) = DetachedSignature::from_bytes(bytes) {
        return Ok(sig);
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| "error checking signature: openpgp: invalid data: signature".to_string())?;
    DetachedSignature::from_string(text)
        .map(|(s, _)| s)
        .map_err(|e| format!("error checking signature: openpgp: invalid data: {e}"))
}

fn upper_hex(bytes: &[u8]) -> String {
    crate::hash::hex_lower(bytes).to_uppercase()
}
