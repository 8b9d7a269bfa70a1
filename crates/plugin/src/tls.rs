//! go-plugin's automatic mutual TLS (`AutoMTLS`, go-plugin `mtls.go`).
//!
//! Each side makes a fresh self-signed certificate per plugin run: the
//! client passes its own to the plugin in `PLUGIN_CLIENT_CERT` (PEM), the
//! plugin answers with its own in the handshake line (base64 DER, Go's
//! `RawStdEncoding`). Each side then trusts exactly the other's certificate
//! and nothing else, so the verifiers here pin one certificate instead of
//! building chains.
//!
//! Go's plugins make P-521 ECDSA keys, which ring (rustls's provider here)
//! cannot verify; the verifiers check `ecdsa_secp521r1_sha512` signatures
//! with RustCrypto's `p521` and leave every other scheme to rustls. Our own
//! certificates are P-256, which Go verifies.

use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{verify_tls12_signature, verify_tls13_signature, CryptoProvider};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{CertificateError, DigitallySignedStruct, DistinguishedName, SignatureScheme};

/// A fresh certificate and its key, as go-plugin's `generateCert` makes them.
pub(crate) struct Identity {
    /// The certificate, DER.
    pub cert_der: Vec<u8>,
    /// The certificate, PEM (what `PLUGIN_CLIENT_CERT` carries).
    pub cert_pem: String,
    /// The private key, PKCS#8 DER.
    pub key_der: Vec<u8>,
}

/// Why a certificate could not be made.
#[derive(Debug)]
pub struct CertError(pub String);

impl std::fmt::Display for CertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CertError {}

/// go-plugin's `generateCert` (with a P-256 key): a self-signed CA
/// certificate for `localhost`, good for client and server authentication.
pub(crate) fn generate_identity() -> Result<Identity, CertError> {
    use rcgen::{
        BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose,
        IsCa, KeyPair, KeyUsagePurpose, SerialNumber,
    };
    let err = |e: rcgen::Error| CertError(e.to_string());
    let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).map_err(err)?;
    let mut params = CertificateParams::new(vec!["localhost".to_owned()]).map_err(err)?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, "localhost");
    dn.push(DnType::OrganizationName, "HashiCorp");
    params.distinguished_name = dn;
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
        KeyUsagePurpose::KeyAgreement,
        KeyUsagePurpose::KeyCertSign,
    ];
    params.extended_key_usages = vec![
        ExtendedKeyUsagePurpose::ClientAuth,
        ExtendedKeyUsagePurpose::ServerAuth,
    ];
    // Go checks the validity period; the certificate lives only as long as
    // the plugin process, so a wide window costs nothing.
    params.not_before = rcgen::date_time_ymd(2000, 1, 1);
    params.not_after = rcgen::date_time_ymd(2200, 1, 1);
    // A random positive 128-bit serial (Go refuses negative serials).
    let mut serial = random_bytes::<16>();
    serial[0] &= 0x7f;
    params.serial_number = Some(SerialNumber::from_slice(&serial));
    let cert = params.self_signed(&key).map_err(err)?;
    Ok(Identity {
        cert_der: cert.der().to_vec(),
        cert_pem: cert.pem(),
        key_der: key.serialize_der(),
    })
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    rustls::crypto::ring::default_provider()
        .secure_random
        .fill(&mut out)
        .expect("the system's random source works");
    out
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

impl Identity {
    fn key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.key_der.clone()))
    }

    fn chain(&self) -> Vec<CertificateDer<'static>> {
        vec![CertificateDer::from(self.cert_der.clone())]
    }
}

/// The client's TLS configuration: present `ours`, trust only `server_der`.
pub(crate) fn client_config(
    ours: &Identity,
    server_der: Vec<u8>,
) -> Result<rustls::ClientConfig, CertError> {
    let provider = provider();
    let verifier = Arc::new(Pinned {
        der: server_der,
        provider: provider.clone(),
    });
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(rustls::ALL_VERSIONS)
        .map_err(|e| CertError(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_client_auth_cert(ours.chain(), ours.key())
        .map_err(|e| CertError(e.to_string()))?;
    // grpc-go refuses TLS connections that did not negotiate h2.
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// The server's TLS configuration: present `ours`, require exactly
/// `client_der` from the client.
pub(crate) fn server_config(
    ours: &Identity,
    client_der: Vec<u8>,
) -> Result<rustls::ServerConfig, CertError> {
    let provider = provider();
    let verifier = Arc::new(Pinned {
        der: client_der,
        provider: provider.clone(),
    });
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(rustls::ALL_VERSIONS)
        .map_err(|e| CertError(e.to_string()))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(ours.chain(), ours.key())
        .map_err(|e| CertError(e.to_string()))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// Trusts one certificate, byte for byte, as go-plugin's one-certificate
/// pools do; verifies handshake signatures made with its key.
#[derive(Debug)]
struct Pinned {
    der: Vec<u8>,
    provider: Arc<CryptoProvider>,
}

impl Pinned {
    fn check(&self, end_entity: &CertificateDer<'_>) -> Result<(), rustls::Error> {
        if end_entity.as_ref() == self.der.as_slice() {
            Ok(())
        } else {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn schemes(&self) -> Vec<SignatureScheme> {
        let mut schemes = self
            .provider
            .signature_verification_algorithms
            .supported_schemes();
        schemes.push(SignatureScheme::ECDSA_NISTP521_SHA512);
        schemes
    }

    fn verify(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
        tls13: bool,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        if dss.scheme == SignatureScheme::ECDSA_NISTP521_SHA512 {
            return verify_p521(message, cert, dss.signature());
        }
        let algs = &self.provider.signature_verification_algorithms;
        if tls13 {
            verify_tls13_signature(message, cert, dss, algs)
        } else {
            verify_tls12_signature(message, cert, dss, algs)
        }
    }
}

/// `id-ecPublicKey` and `secp521r1`.
const EC_PUBLIC_KEY: &str = "1.2.840.10045.2.1";
const SECP521R1: &str = "1.3.132.0.35";

/// Verifies an ECDSA P-521 / SHA-512 signature (DER) made by the key of `cert`.
fn verify_p521(
    message: &[u8],
    cert: &CertificateDer<'_>,
    signature: &[u8],
) -> Result<HandshakeSignatureValid, rustls::Error> {
    use p521::ecdsa::signature::Verifier;
    use x509_cert::der::Decode;

    let bad_cert = || rustls::Error::InvalidCertificate(CertificateError::BadEncoding);
    let parsed = x509_cert::Certificate::from_der(cert.as_ref()).map_err(|_| bad_cert())?;
    let spki = &parsed.tbs_certificate.subject_public_key_info;
    let curve = spki
        .algorithm
        .parameters
        .as_ref()
        .and_then(|p| p.decode_as::<x509_cert::der::asn1::ObjectIdentifier>().ok());
    if spki.algorithm.oid.to_string() != EC_PUBLIC_KEY
        || curve.map(|c| c.to_string()).as_deref() != Some(SECP521R1)
    {
        return Err(rustls::Error::InvalidCertificate(
            CertificateError::BadSignature,
        ));
    }
    let key = p521::ecdsa::VerifyingKey::from_sec1_bytes(spki.subject_public_key.raw_bytes())
        .map_err(|_| bad_cert())?;
    let sig = p521::ecdsa::Signature::from_der(signature)
        .map_err(|_| rustls::Error::InvalidCertificate(CertificateError::BadSignature))?;
    key.verify(message, &sig)
        .map_err(|_| rustls::Error::InvalidCertificate(CertificateError::BadSignature))?;
    Ok(HandshakeSignatureValid::assertion())
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.check(end_entity)?;
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, false)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, true)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.schemes()
    }
}

impl ClientCertVerifier for Pinned {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        self.check(end_entity)?;
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, false)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, true)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.schemes()
    }
}

/// The DER of the first certificate in a PEM document (`PLUGIN_CLIENT_CERT`).
pub(crate) fn pem_to_der(pem: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let begin = "-----BEGIN CERTIFICATE-----";
    let start = pem.find(begin)? + begin.len();
    let end = start + pem[start..].find("-----END CERTIFICATE-----")?;
    let body: String = pem[start..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD.decode(body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_pem_and_der_agree() {
        let id = generate_identity().unwrap();
        assert_eq!(pem_to_der(&id.cert_pem).unwrap(), id.cert_der);
    }

    #[test]
    fn pinning_refuses_another_certificate() {
        let a = generate_identity().unwrap();
        let b = generate_identity().unwrap();
        let pinned = Pinned {
            der: a.cert_der.clone(),
            provider: provider(),
        };
        assert!(pinned.check(&CertificateDer::from(a.cert_der)).is_ok());
        assert!(pinned.check(&CertificateDer::from(b.cert_der)).is_err());
    }

    #[test]
    fn p521_signatures_verify() {
        // A P-521 certificate and a signature by its key, as a Go plugin
        // makes them, built here with RustCrypto since ring cannot sign P-521
        // either: the verifier must accept the signature and refuse it for
        // a different message.
        use p521::ecdsa::signature::Signer;
        let signing = p521::ecdsa::SigningKey::random(&mut P521Rng);
        let cert = p521_cert(&signing);
        let sig: p521::ecdsa::Signature = signing.sign(b"hello");
        let der = sig.to_der();
        assert!(verify_p521(b"hello", &cert, der.as_bytes()).is_ok());
        assert!(verify_p521(b"hellO", &cert, der.as_bytes()).is_err());
    }

    /// Random numbers for the test key, from ring's system source.
    struct P521Rng;
    impl p521::elliptic_curve::rand_core::RngCore for P521Rng {
        fn next_u32(&mut self) -> u32 {
            u32::from_le_bytes(random_bytes::<4>())
        }
        fn next_u64(&mut self) -> u64 {
            u64::from_le_bytes(random_bytes::<8>())
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            for b in dest {
                *b = random_bytes::<1>()[0];
            }
        }
        fn try_fill_bytes(
            &mut self,
            dest: &mut [u8],
        ) -> Result<(), p521::elliptic_curve::rand_core::Error> {
            self.fill_bytes(dest);
            Ok(())
        }
    }
    impl p521::elliptic_curve::rand_core::CryptoRng for P521Rng {}

    /// A minimal certificate whose SubjectPublicKeyInfo is the P-521 key
    /// (the verifier reads nothing else from it).
    fn p521_cert(key: &p521::ecdsa::SigningKey) -> CertificateDer<'static> {
        use x509_cert::der::asn1::{BitString, ObjectIdentifier};
        use x509_cert::der::{Any, Encode};
        use x509_cert::spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};
        let point = p521::ecdsa::VerifyingKey::from(key).to_encoded_point(false);
        let spki = SubjectPublicKeyInfoOwned {
            algorithm: AlgorithmIdentifierOwned {
                oid: ObjectIdentifier::new_unwrap(EC_PUBLIC_KEY),
                parameters: Some(Any::from(&ObjectIdentifier::new_unwrap(SECP521R1))),
            },
            subject_public_key: BitString::from_bytes(point.as_bytes()).unwrap(),
        };
        let alg = AlgorithmIdentifierOwned {
            oid: ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.4"),
            parameters: None,
        };
        let name = x509_cert::name::Name::default();
        let at = |secs| {
            x509_cert::time::Time::UtcTime(
                x509_cert::der::asn1::UtcTime::from_unix_duration(std::time::Duration::from_secs(
                    secs,
                ))
                .unwrap(),
            )
        };
        let time = x509_cert::time::Validity {
            not_before: at(1_000_000_000),
            not_after: at(2_000_000_000),
        };
        let tbs = x509_cert::TbsCertificate {
            version: x509_cert::Version::V3,
            serial_number: x509_cert::serial_number::SerialNumber::new(&[1]).unwrap(),
            signature: alg.clone(),
            issuer: name.clone(),
            validity: time,
            subject: name,
            subject_public_key_info: spki,
            issuer_unique_id: None,
            subject_unique_id: None,
            extensions: None,
        };
        let cert = x509_cert::Certificate {
            tbs_certificate: tbs,
            signature_algorithm: alg,
            signature: BitString::from_bytes(&[0]).unwrap(),
        };
        CertificateDer::from(cert.to_der().unwrap())
    }
}
