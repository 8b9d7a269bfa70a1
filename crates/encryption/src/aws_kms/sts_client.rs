//! STS `GetCallerIdentity`, with which aws-sdk-go-base validates the
//! credentials unless `skip_credentials_validation` is set: the AWS query
//! protocol (a form-encoded POST, an XML answer).

use std::time::SystemTime;

use super::credentials::Credentials;
use super::transport::{Call, Reply};

/// Asks STS at `endpoint` who `credentials` belong to; `Err` is the
/// operation error.
pub fn get_caller_identity(
    endpoint: &str,
    region: &str,
    credentials: &Credentials,
    now: SystemTime,
) -> Result<(), String> {
    let call = Call {
        service_id: "STS",
        operation: "GetCallerIdentity",
        signing_name: "sts",
        region,
        endpoint,
        headers: vec![(
            "Content-Type".into(),
            "application/x-www-form-urlencoded; charset=utf-8".into(),
        )],
        body: b"Action=GetCallerIdentity&Version=2011-06-15".to_vec(),
    };
    let mut reply = call.send(credentials, now)?;
    if (200..300).contains(&reply.status) {
        return Ok(());
    }
    if reply.request_id.is_empty() {
        reply.request_id = xml_text(&reply.body, "RequestId").unwrap_or_default();
    }
    Err(call.response_error(&reply, &api_error(&reply)))
}

/// `api error CODE: MESSAGE` from an `<ErrorResponse>` (STS models no
/// errors for this operation).
fn api_error(reply: &Reply) -> String {
    let code = xml_text(&reply.body, "Code").unwrap_or_else(|| "UnknownError".into());
    let message = xml_text(&reply.body, "Message").unwrap_or_else(|| "UnknownError".into());
    format!("api error {code}: {message}")
}

/// The text of the first `<tag>` element, entities decoded. The answers
/// read here are flat enough that no XML parser is needed.
fn xml_text(body: &[u8], tag: &str) -> Option<String> {
    let text = String::from_utf8_lossy(body);
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = start + text[start..].find(&format!("</{tag}>"))?;
    Some(
        text[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_response() {
        let body = br#"<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error>
    <Type>Sender</Type>
    <Code>InvalidClientTokenId</Code>
    <Message>The security token included in the request is invalid.</Message>
  </Error>
  <RequestId>f42d6dfd-ad70-4750-8764-5b359ee9c783</RequestId>
</ErrorResponse>"#;
        let reply = Reply {
            status: 403,
            request_id: String::new(),
            error_type: None,
            body: body.to_vec(),
        };
        assert_eq!(
            api_error(&reply),
            "api error InvalidClientTokenId: The security token included in the request is invalid."
        );
        assert_eq!(
            xml_text(body, "RequestId").as_deref(),
            Some("f42d6dfd-ad70-4750-8764-5b359ee9c783")
        );
        assert_eq!(
            xml_text(b"<Message>a &amp; &lt;b&gt;</Message>", "Message").as_deref(),
            Some("a & <b>")
        );
        assert_eq!(xml_text(b"<x/>", "Code"), None);
    }
}
