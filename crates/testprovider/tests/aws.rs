//! The plugin client against a real Go provider (hashicorp/aws 5.100.0,
//! protocol 5): go-plugin's handshake, mutual TLS with Go's P-521
//! certificate, and a very large schema. Skips when the binary is absent.

// The test reports how long the schema took.
#![allow(clippy::print_stderr)]

mod common;

use std::path::Path;
use std::time::Instant;

const AWS: &str = "/opt/tf-plugins/registry.terraform.io/hashicorp/aws/5.100.0/linux_amd64/terraform-provider-aws_v5.100.0_x5";

#[test]
fn aws_provider_schema() {
    if !Path::new(AWS).exists() {
        eprintln!("skipping: {AWS} is absent");
        return;
    }
    let started = Instant::now();
    let client = plugin::launch(&plugin::LaunchOptions::new(AWS)).unwrap();
    let launched = started.elapsed();
    assert_eq!(client.protocol_version(), 5);
    let (schema, diags) = client.get_provider_schema().unwrap();
    let fetched = started.elapsed() - launched;
    assert!(diags.is_empty(), "{diags:?}");
    let n = schema.resources.len();
    eprintln!(
        "aws 5.100.0: launch {launched:?}, GetSchema {fetched:?}: {n} resource types, {} data sources, {} ephemeral, {} functions",
        schema.data_sources.len(),
        schema.ephemeral_resources.len(),
        schema.functions.len()
    );
    assert!(n > 1400, "{n} resource types");
    assert!(schema.resources.contains_key("aws_instance"));
    schema
        .validate("registry.terraform.io/hashicorp/aws")
        .unwrap();

    // A Validate call with an all-null configuration (msgpack both ways
    // through a Go provider); the answer is the provider's business.
    let block = schema.provider.block.as_ref().unwrap();
    let ty = block.implied_type();
    client
        .validate_provider_config(&block.empty_value(), &ty)
        .unwrap();

    let pid = client.pid();
    let closing = Instant::now();
    client.close();
    eprintln!("aws close (Controller.Shutdown): {:?}", closing.elapsed());
    assert!(!common::pid_alive(pid));
}
