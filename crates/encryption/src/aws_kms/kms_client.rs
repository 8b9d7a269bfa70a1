//! The two KMS operations the key provider calls, over KMS's JSON 1.1
//! protocol: `POST /` with `X-Amz-Target: TrentService.<Operation>` and a
//! JSON body; base64 for binary fields; errors as `{"__type": ...,
//! "message": ...}`, worded as the Go SDK words them.

use std::time::SystemTime;

use base64::Engine;
use serde_json::{json, Value as Json};

use super::credentials::Credentials;
use super::transport::{Call, Reply};

/// The errors the Go SDK models for `GenerateDataKey`; any other code is
/// a generic `api error CODE: MESSAGE`.
const GENERATE_DATA_KEY_ERRORS: &[&str] = &[
    "DependencyTimeoutException",
    "DisabledException",
    "DryRunOperationException",
    "InvalidGrantTokenException",
    "InvalidKeyUsageException",
    "KeyUnavailableException",
    "KMSInternalException",
    "KMSInvalidStateException",
    "NotFoundException",
];

/// The errors the Go SDK models for `Decrypt`.
const DECRYPT_ERRORS: &[&str] = &[
    "DependencyTimeoutException",
    "DisabledException",
    "DryRunOperationException",
    "IncorrectKeyException",
    "InvalidCiphertextException",
    "InvalidGrantTokenException",
    "InvalidKeyUsageException",
    "KeyUnavailableException",
    "KMSInternalException",
    "KMSInvalidStateException",
    "NotFoundException",
];

/// A KMS endpoint in a region, with the credentials to sign for it.
pub struct KmsClient {
    pub endpoint: String,
    pub region: String,
    pub credentials: Credentials,
}

/// `GenerateDataKey`'s answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataKey {
    pub plaintext: Vec<u8>,
    pub ciphertext_blob: Vec<u8>,
}

impl KmsClient {
    /// A new data key under `key_id`: its plaintext and its encrypted form.
    pub fn generate_data_key(
        &self,
        key_id: &str,
        key_spec: &str,
        now: SystemTime,
    ) -> Result<DataKey, String> {
        let body = json!({ "KeyId": key_id, "KeySpec": key_spec });
        let (call, reply) = self.send("GenerateDataKey", &body, now)?;
        let doc = success_body(&call, &reply, GENERATE_DATA_KEY_ERRORS)?;
        Ok(DataKey {
            plaintext: blob(&call, &reply, &doc, "Plaintext")?,
            ciphertext_blob: blob(&call, &reply, &doc, "CiphertextBlob")?,
        })
    }

    /// The plaintext of a data key `GenerateDataKey` returned encrypted.
    pub fn decrypt(
        &self,
        key_id: &str,
        ciphertext_blob: &[u8],
        now: SystemTime,
    ) -> Result<Vec<u8>, String> {
        let b64 = base64::engine::general_purpose::STANDARD.encode(ciphertext_blob);
        let body = json!({ "CiphertextBlob": b64, "KeyId": key_id });
        let (call, reply) = self.send("Decrypt", &body, now)?;
        let doc = success_body(&call, &reply, DECRYPT_ERRORS)?;
        blob(&call, &reply, &doc, "Plaintext")
    }

    fn send(
        &self,
        operation: &'static str,
        body: &Json,
        now: SystemTime,
    ) -> Result<(Call<'_>, Reply), String> {
        let call = Call {
            service_id: "KMS",
            operation,
            signing_name: "kms",
            region: &self.region,
            endpoint: &self.endpoint,
            headers: vec![
                ("Content-Type".into(), "application/x-amz-json-1.1".into()),
                ("X-Amz-Target".into(), format!("TrentService.{operation}")),
            ],
            body: body.to_string().into_bytes(),
        };
        let reply = call.send(&self.credentials, now)?;
        Ok((call, reply))
    }
}

/// The JSON document of a 2xx answer, or the error an answer stands for.
fn success_body(call: &Call<'_>, reply: &Reply, modeled: &[&str]) -> Result<Json, String> {
    if !(200..300).contains(&reply.status) {
        return Err(call.response_error(reply, &api_error(reply, modeled)));
    }
    serde_json::from_slice(&reply.body).map_err(|e| {
        call.response_error(
            reply,
            &format!("deserialization failed, failed to decode response body, {e}"),
        )
    })
}

/// A base64 member of the answer.
fn blob(call: &Call<'_>, reply: &Reply, doc: &Json, name: &str) -> Result<Vec<u8>, String> {
    let Some(s) = doc.get(name).and_then(Json::as_str) else {
        return Ok(Vec::new());
    };
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .map_err(|e| {
            call.response_error(
                reply,
                &format!("deserialization failed, failed to decode response body, {name}: {e}"),
            )
        })
}

/// The error of a JSON 1.1 answer: `X-Amzn-ErrorType` or the body's
/// `__type` / `code` (namespace and `:suffix` removed), its `message`;
/// a modeled error reads `CODE: MESSAGE`, any other `api error CODE: MESSAGE`.
fn api_error(reply: &Reply, modeled: &[&str]) -> String {
    let doc: Json = serde_json::from_slice(&reply.body).unwrap_or(Json::Null);
    let field = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| doc.get(*n).and_then(Json::as_str))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let code = reply
        .error_type
        .clone()
        .filter(|c| !c.is_empty())
        .or_else(|| field(&["__type", "code", "Code"]))
        .map(|c| sanitize_error_code(&c));
    let message = field(&["message", "Message", "errorMessage"]);
    let code_or_unknown = code.clone().unwrap_or_else(|| "UnknownError".into());
    match modeled
        .iter()
        .find(|m| code.as_deref().is_some_and(|c| c.eq_ignore_ascii_case(m)))
    {
        Some(m) => format!("{m}: {}", message.unwrap_or_default()),
        None => format!(
            "api error {code_or_unknown}: {}",
            message.unwrap_or_else(|| "UnknownError".into())
        ),
    }
}

/// `restjson.SanitizeErrorCode`: `aws.protocols#Code:http://...` → `Code`.
fn sanitize_error_code(code: &str) -> String {
    let code = code.split(':').next().unwrap_or(code);
    code.rsplit('#').next().unwrap_or(code).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(status: u16, error_type: Option<&str>, body: &str) -> Reply {
        Reply {
            status,
            request_id: "req-1".into(),
            error_type: error_type.map(str::to_string),
            body: body.as_bytes().to_vec(),
        }
    }

    #[test]
    fn error_codes_and_messages() {
        let cases: &[(Option<&str>, &str, &str)] = &[
            (
                None,
                r#"{"__type":"NotFoundException","message":"Key 'arn:aws:kms:eu-central-1:1:key/x' does not exist"}"#,
                "NotFoundException: Key 'arn:aws:kms:eu-central-1:1:key/x' does not exist",
            ),
            (
                None,
                r#"{"__type":"com.amazonaws.kms#DisabledException","Message":"off"}"#,
                "DisabledException: off",
            ),
            (
                Some("AccessDeniedException:http://internal.amazon.com/"),
                r#"{"message":"no"}"#,
                "api error AccessDeniedException: no",
            ),
            (
                None,
                r#"{"__type":"UnrecognizedClientException","message":"The security token included in the request is invalid."}"#,
                "api error UnrecognizedClientException: The security token included in the request is invalid.",
            ),
            (None, "not json", "api error UnknownError: UnknownError"),
            (None, r#"{"__type":"NotFoundException"}"#, "NotFoundException: "),
        ];
        for (header, body, want) in cases {
            assert_eq!(
                api_error(&reply(400, *header, body), GENERATE_DATA_KEY_ERRORS),
                *want,
                "{body}"
            );
        }
        // IncorrectKeyException is modeled for Decrypt only.
        let r = reply(
            400,
            None,
            r#"{"__type":"IncorrectKeyException","message":"m"}"#,
        );
        assert_eq!(api_error(&r, DECRYPT_ERRORS), "IncorrectKeyException: m");
        assert_eq!(
            api_error(&r, GENERATE_DATA_KEY_ERRORS),
            "api error IncorrectKeyException: m"
        );
    }

    #[test]
    fn sanitized_codes() {
        assert_eq!(
            sanitize_error_code("NotFoundException"),
            "NotFoundException"
        );
        assert_eq!(
            sanitize_error_code("com.amazonaws.kms#NotFoundException"),
            "NotFoundException"
        );
        assert_eq!(
            sanitize_error_code("ThrottlingException:http://internal.amazon.com/coral/"),
            "ThrottlingException"
        );
    }
}
