//! Ported from `internal/addrs/module_source_test.go`.

use super::*;

fn registry(host: &str, ns: &str, name: &str, system: &str, subdir: &str) -> ModuleSource {
    ModuleSource::Registry {
        package: ModuleRegistryPackage {
            host: Hostname::from_normalized(host),
            namespace: ns.to_string(),
            name: name.to_string(),
            target_system: system.to_string(),
        },
        subdir: subdir.to_string(),
    }
}

fn remote(package: &str, subdir: &str) -> ModuleSource {
    ModuleSource::Remote {
        package: package.to_string(),
        subdir: subdir.to_string(),
    }
}

fn local(p: &str) -> ModuleSource {
    ModuleSource::Local(p.to_string())
}

#[test]
fn parse_module_source_table() {
    let ok = |s: ModuleSource| Ok::<ModuleSource, &str>(s);
    let tests: Vec<(&str, &str, Result<ModuleSource, &str>)> = vec![
        ("local in subdirectory", "./child", ok(local("./child"))),
        ("local in subdirectory non-normalized", "./nope/../child", ok(local("./child"))),
        ("local in sibling directory", "../sibling", ok(local("../sibling"))),
        ("local in sibling directory non-normalized", "./nope/../../sibling", ok(local("../sibling"))),
        ("Windows-style local in subdirectory", r".\child", ok(local("./child"))),
        ("Windows-style local in subdirectory non-normalized", r".\nope\..\child", ok(local("./child"))),
        ("Windows-style local in sibling directory", r"..\sibling", ok(local("../sibling"))),
        ("Windows-style local in sibling directory non-normalized", r".\nope\..\..\sibling", ok(local("../sibling"))),
        ("an abominable mix of different slashes", r"./nope\nope/why\./please\don't", ok(local("./nope/nope/why/please/don't"))),
        ("main registry implied", "hashicorp/subnets/cidr", ok(registry("registry.opentofu.org", "hashicorp", "subnets", "cidr", ""))),
        ("main registry implied, subdir", "hashicorp/subnets/cidr//examples/foo", ok(registry("registry.opentofu.org", "hashicorp", "subnets", "cidr", "examples/foo"))),
        ("main registry implied, escaping subdir", "hashicorp/subnets/cidr//../nope", Err(r#"subdirectory path "../nope" leads outside of the module package"#)),
        ("custom registry", "example.com/awesomecorp/network/happycloud", ok(registry("example.com", "awesomecorp", "network", "happycloud", ""))),
        ("custom registry, subdir", "example.com/awesomecorp/network/happycloud//examples/foo", ok(registry("example.com", "awesomecorp", "network", "happycloud", "examples/foo"))),
        ("github.com shorthand", "github.com/hashicorp/terraform-cidr-subnets", ok(remote("git::https://github.com/hashicorp/terraform-cidr-subnets.git", ""))),
        ("github.com shorthand, subdir", "github.com/hashicorp/terraform-cidr-subnets//example/foo", ok(remote("git::https://github.com/hashicorp/terraform-cidr-subnets.git", "example/foo"))),
        ("git protocol, URL-style", "git://example.com/code/baz.git", ok(remote("git://example.com/code/baz.git", ""))),
        ("git protocol, URL-style, subdir", "git://example.com/code/baz.git//bleep/bloop", ok(remote("git://example.com/code/baz.git", "bleep/bloop"))),
        ("git over HTTPS, URL-style", "git::https://example.com/code/baz.git", ok(remote("git::https://example.com/code/baz.git", ""))),
        ("git over HTTPS, URL-style, subdir", "git::https://example.com/code/baz.git//bleep/bloop", ok(remote("git::https://example.com/code/baz.git", "bleep/bloop"))),
        ("git over HTTPS, URL-style, subdir, query parameters", "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah", ok(remote("git::https://example.com/code/baz.git?otherthing=blah", "bleep/bloop"))),
        ("git over SSH, URL-style", "git::ssh://git@example.com/code/baz.git", ok(remote("git::ssh://git@example.com/code/baz.git", ""))),
        ("git over SSH, URL-style, subdir", "git::ssh://git@example.com/code/baz.git//bleep/bloop", ok(remote("git::ssh://git@example.com/code/baz.git", "bleep/bloop"))),
        ("git over SSH, scp-style", "git::git@example.com:code/baz.git", ok(remote("git::ssh://git@example.com/code/baz.git", ""))),
        ("git over SSH, scp-style, subdir", "git::git@example.com:code/baz.git//bleep/bloop", ok(remote("git::ssh://git@example.com/code/baz.git", "bleep/bloop"))),
        ("Google Cloud Storage bucket implied, path prefix", "www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE", ok(remote("gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE", ""))),
        ("Google Cloud Storage bucket, path prefix", "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE", ok(remote("gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH_TO_MODULE", ""))),
        ("Google Cloud Storage bucket implied, archive object", "www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip", ok(remote("gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip", ""))),
        ("Google Cloud Storage bucket, archive object", "gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip", ok(remote("gcs::https://www.googleapis.com/storage/v1/BUCKET_NAME/PATH/TO/module.zip", ""))),
        ("Amazon S3 bucket implied, archive object", "s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", ok(remote("s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", ""))),
        ("Amazon S3 bucket, archive object", "s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", ok(remote("s3::https://s3-eu-west-1.amazonaws.com/examplecorp-terraform-modules/vpc.zip", ""))),
        ("HTTP URL", "http://example.com/module", ok(remote("http://example.com/module", ""))),
        ("HTTPS URL", "https://example.com/module", ok(remote("https://example.com/module", ""))),
        ("HTTPS URL, archive file", "https://example.com/module.zip", ok(remote("https://example.com/module.zip", ""))),
        ("HTTPS URL, forced archive file", "https://example.com/module?archive=tar", ok(remote("https://example.com/module?archive=tar", ""))),
        ("HTTPS URL, forced archive file and checksum", "https://example.com/module?archive=tar&checksum=blah", ok(remote("https://example.com/module?archive=tar&checksum=blah", ""))),
        ("absolute filesystem path", "/tmp/foo/example", ok(remote("file:///tmp/foo/example", ""))),
        ("absolute filesystem path, subdir", "/tmp/foo//example", ok(remote("file:///tmp/foo", "example"))),
        ("subdir escaping out of package", "/tmp/foo//example/../../invalid", Err(r#"subdirectory path "../invalid" leads outside of the module package"#)),
        ("relative path without the needed prefix", "boop/bloop", Err("OpenTofu cannot detect a supported external module source type for boop/bloop")),
        ("go-getter will accept all sorts of garbage", "dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg", ok(remote("dfgdfgsd:dgfhdfghdfghdfg/dfghdfghdfg", ""))),
        // Beyond the Go table: shorthands with query strings.
        ("github.com shorthand, subdir and ref", "github.com/hashicorp/terraform-aws-module-installer-acctest//modules/child_a?ref=v0.0.1", ok(remote("git::https://github.com/hashicorp/terraform-aws-module-installer-acctest.git?ref=v0.0.1", "modules/child_a"))),
        ("scp-like without forced getter", "git@github.com:o/r.git?ref=v1", ok(remote("git::ssh://git@github.com/o/r.git?ref=v1", ""))),
        ("oci URL", "oci://example.com/repo?tag=v1", ok(remote("oci://example.com/repo?tag=v1", ""))),
    ];
    for (name, input, want) in tests {
        let got = parse_module_source(input);
        match (&got, &want) {
            (Ok(g), Ok(w)) => assert_eq!(g, w, "{name}"),
            (Err(g), Err(w)) => assert_eq!(g.to_string(), *w, "{name}"),
            _ => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn remote_from_registry() {
    let cases = [
        ("foo", "bar", "foo/bar"),
        ("foo", "", "foo"),
        ("", "bar", "bar"),
    ];
    for (remote_sub, given, want) in cases {
        let r = remote("boop", remote_sub);
        let got = r.from_registry(given);
        assert_eq!(got.subdir(), want);
        assert_eq!(r.subdir(), remote_sub, "receiver must not change");
    }
}

#[test]
fn parse_module_source_remote_table() {
    let cases = [
        (
            "git::https://example.com/code/baz.git?otherthing=blah",
            "git::https://example.com/code/baz.git?otherthing=blah",
        ),
        (
            "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
            "git::https://example.com/code/baz.git//bleep/bloop?otherthing=blah",
        ),
    ];
    for (input, want) in cases {
        let got = parse_module_source_remote(input).unwrap();
        assert_eq!(got.to_string(), want);
        assert_eq!(got.for_display(), want);
    }
}

#[test]
fn parse_module_source_registry_table() {
    // (input, String(), ForDisplay(), ForRegistryProtocol()) or an error.
    let ok = |a: &'static str, b: &'static str, c: &'static str| Ok((a, b, c));
    let long = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaah";
    let long_input = format!("foo/var/{long}");
    let long_err = format!(
        "invalid target system \"{long}\": must be between one and 64 ASCII letters or digits"
    );
    type Want<'a> = Result<(&'a str, &'a str, &'a str), &'a str>;
    let tests: Vec<(&str, Want)> = vec![
        ("hashicorp/consul/aws", ok("registry.opentofu.org/hashicorp/consul/aws", "hashicorp/consul/aws", "hashicorp/consul/aws")),
        ("hashicorp/consul/aws//foo", ok("registry.opentofu.org/hashicorp/consul/aws//foo", "hashicorp/consul/aws//foo", "hashicorp/consul/aws")),
        ("registry.opentofu.org/hashicorp/consul/aws", ok("registry.opentofu.org/hashicorp/consul/aws", "hashicorp/consul/aws", "hashicorp/consul/aws")),
        ("HashiCorp/Consul/aws", ok("registry.opentofu.org/HashiCorp/Consul/aws", "HashiCorp/Consul/aws", "HashiCorp/Consul/aws")),
        ("Example.com:1234/HashiCorp/Consul/aws", ok("example.com:1234/HashiCorp/Consul/aws", "example.com:1234/HashiCorp/Consul/aws", "HashiCorp/Consul/aws")),
        ("Испытание.com/HashiCorp/Consul/aws", ok("испытание.com/HashiCorp/Consul/aws", "испытание.com/HashiCorp/Consul/aws", "HashiCorp/Consul/aws")),
        ("Испытание.com:1234/HashiCorp/Consul/aws//Foo", ok("испытание.com:1234/HashiCorp/Consul/aws//Foo", "испытание.com:1234/HashiCorp/Consul/aws//Foo", "HashiCorp/Consul/aws")),
        ("---.com/HashiCorp/Consul/aws", Err(r#"invalid module registry hostname "---.com"; internationalized domain names must be given as direct unicode characters, not in punycode"#)),
        ("foo/var/baz/qux", Err("invalid module registry hostname: must contain at least one dot")),
        ("foo/var/no-no-no", Err(r#"invalid target system "no-no-no": must be between one and 64 ASCII letters or digits"#)),
        (long_input.as_str(), Err(long_err.as_str())),
        ("boop!/var/baz", Err(r#"invalid namespace "boop!": must be between one and 64 characters, including ASCII letters, digits, dashes, and underscores, where dashes and underscores may not be the prefix or suffix"#)),
        ("foo.com/var/baz", Err("source address must have three more components after the hostname: the namespace, the name, and the target system")),
        ("foo/var/baz?otherthing", Err("module registry addresses may not include a query string portion")),
        ("github.com/HashiCorp/Consul/aws", Err(r#"can't use "github.com" as a module registry host, because it's reserved for installing directly from version control repositories"#)),
        ("bitbucket.org/HashiCorp/Consul/aws", Err(r#"can't use "bitbucket.org" as a module registry host, because it's reserved for installing directly from version control repositories"#)),
        ("./boop", Err(r#"can't use local directory "./boop" as a module registry address"#)),
        ("../boop", Err(r#"can't use local directory "../boop" as a module registry address"#)),
    ];
    for (input, want) in tests {
        let got = parse_module_source_registry(input);
        match (got, want) {
            (Ok(addr), Ok((string, display, protocol))) => {
                assert_eq!(addr.to_string(), string, "{input}");
                assert_eq!(addr.for_display(), display, "{input}");
                let ModuleSource::Registry { package, .. } = &addr else {
                    panic!("{input}: not a registry address");
                };
                assert_eq!(package.for_registry_protocol(), protocol, "{input}");
            }
            (Err(e), Err(w)) => assert_eq!(e.to_string(), w, "{input}"),
            (got, want) => panic!("{input}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn module_call_diagnostics() {
    let err = parse_module_source("modules/vpc").unwrap_err();
    let (summary, detail) = err.module_call_diagnostic(false);
    assert_eq!(summary, "Invalid module source address");
    assert_eq!(
        detail,
        "OpenTofu failed to determine your intended installation method for remote module package \"modules/vpc\".\n\nIf you intended this as a path relative to the current module, use \"./modules/vpc\" instead. The \"./\" prefix indicates that the address is a relative filesystem path."
    );
}

#[test]
fn local_sources_stay_in_package() {
    assert!(!parse_module_source("./a").unwrap().enters_new_package());
    assert!(parse_module_source("hashicorp/a/b")
        .unwrap()
        .enters_new_package());
    assert!(parse_module_source("/abs/path")
        .unwrap()
        .enters_new_package());
}

#[test]
fn never_panics_on_odd_input() {
    for s in [
        "",
        "/",
        "//",
        "?",
        "::",
        "git::",
        "a::b",
        "@:",
        "git@:x",
        "x:",
        "%zz",
        "[::1]:x",
        "https://[::1",
        "github.com/",
        "github.com/a",
        "s3.amazonaws.com",
        ".googleapis.com/",
        "é/é/é",
        "a//b//c",
        "a?b//c",
        "\u{0}",
    ] {
        let _ = parse_module_source(s);
        let _ = parse_module_source_registry(s);
    }
}
