//! A CA made for a test and a certificate for 127.0.0.1 signed by it, for
//! loopback servers over HTTPS that the binary trusts through
//! `SSL_CERT_FILE`. Made with the `openssl` command; `None` without it
//! (the caller skips, saying so). Shared by the HTTPS tests.

use std::path::Path;
use std::process::Command;

/// A CA and a certificate for 127.0.0.1 signed by it, in `dir`: returns
/// (CA PEM path, server chain PEM, server key PEM), or `None` without
/// `openssl`.
pub fn certificates(dir: &Path) -> Option<(std::path::PathBuf, Vec<u8>, Vec<u8>)> {
    let openssl = |args: &[&str]| {
        Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    openssl(&["version"])?;
    let subj_ca = "/CN=tofu-rs test CA";
    openssl(&[
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "1", "-subj", subj_ca,
    ])?;
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "srv.key",
        "-out",
        "srv.csr",
        "-subj",
        "/CN=127.0.0.1",
    ])?;
    std::fs::write(
        dir.join("srv.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    )
    .ok()?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        "srv.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "srv.pem",
        "-days",
        "1",
        "-extfile",
        "srv.ext",
    ])?;
    Some((
        dir.join("ca.pem"),
        std::fs::read(dir.join("srv.pem")).ok()?,
        std::fs::read(dir.join("srv.key")).ok()?,
    ))
}
