//! Hostile zip archives (module packages and provider packages alike),
//! each answered as go-getter v1.8.6's `ZipDecompressor` answers it.

mod support;

use support::*;
use unpack::Format::Zip;

#[test]
fn a_plain_archive_unpacks_with_modes() {
    let s = Scratch::new();
    let mut exe = zfile("terraform-provider-x", "#!/bin/sh\n");
    exe.mode = Some(0o104755);
    exe.deflate = true;
    let mut dos = zfile("dos.txt", "made on windows");
    dos.mode = None;
    s.unpack(
        Zip,
        &zip(&[exe, zdir("docs/"), zfile("docs/a.md", "a"), dos]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join("terraform-provider-x")), "#!/bin/sh\n");
    assert_eq!(read(&s.dst().join("docs/a.md")), "a");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &str| {
            std::fs::metadata(s.dst().join(p))
                .unwrap()
                .permissions()
                .mode()
                & 0o7777
        };
        assert_eq!(mode("terraform-provider-x"), 0o755);
        assert_eq!(mode("docs/a.md"), 0o644);
        assert_eq!(mode("dos.txt"), 0o666);
    }
    s.assert_nothing_outside();
}

#[test]
fn dot_dot_and_backslash_names() {
    for name in ["../x", "a/../../x", "..\\x", "a\\..\\..\\x"] {
        let s = Scratch::new();
        let err = s
            .unpack(
                Zip,
                &zip(&[zfile("main.tf", "# ok\n"), zfile(name, "evil")]),
            )
            .unwrap_err();
        assert_eq!(err, format!("entry contains '..': {name}"));
        s.assert_nothing_outside();
    }
    // Without `..`, a backslash is part of the file's name (as on unix
    // to Go).
    let s = Scratch::new();
    s.unpack(Zip, &zip(&[zfile("a\\b.tf", "# bs\n")])).unwrap();
    #[cfg(unix)]
    assert_eq!(read(&s.dst().join("a\\b.tf")), "# bs\n");
    s.assert_nothing_outside();
}

#[test]
fn absolute_names_land_inside() {
    let s = Scratch::new();
    let name = s.sentinel().join("abs.tf").display().to_string();
    s.unpack(Zip, &zip(&[zfile(&name, "# abs\n")])).unwrap();
    assert_eq!(read(&s.dst().join(name.trim_start_matches('/'))), "# abs\n");
    s.assert_nothing_outside();
}

#[test]
fn symlink_entries_become_files_holding_the_target() {
    let s = Scratch::new();
    let sentinel = s.sentinel().display().to_string();
    let mut fifo = zfile("fifo", "");
    fifo.mode = Some(0o010644);
    s.unpack(
        Zip,
        &zip(&[zlink("up", ".."), zlink("abs", &sentinel), fifo]),
    )
    .unwrap();
    assert!(is_regular_file(&s.dst().join("up")));
    assert_eq!(read(&s.dst().join("up")), "..");
    assert_eq!(read(&s.dst().join("abs")), sentinel);
    assert!(is_regular_file(&s.dst().join("fifo")));
    s.assert_nothing_outside();
}

#[test]
fn writing_through_an_earlier_link_is_refused() {
    let cases = [
        (
            vec![zlink("l", "."), zfile("l/x", "evil")],
            "mkdir DST/l: not a directory",
        ),
        (
            vec![zlink("l", "SENTINEL"), zfile("l/keep", "evil")],
            "mkdir DST/l: not a directory",
        ),
        (
            vec![zlink("l", "SENTINEL"), zfile("l/a/x", "evil")],
            "mkdir DST/l: not a directory",
        ),
        (
            vec![
                zlink("b", "../sentinel"),
                zlink("a", "b"),
                zfile("a/keep", "evil"),
            ],
            "mkdir DST/a: not a directory",
        ),
        (
            vec![zlink("l", "SENTINEL"), zdir("l/")],
            "mkdir DST/l: not a directory",
        ),
    ];
    for (entries, want) in cases {
        let s = Scratch::new();
        let sentinel = s.sentinel().display().to_string();
        let entries: Vec<Z> = entries
            .into_iter()
            .map(|mut e| {
                e.data = String::from_utf8(e.data)
                    .unwrap()
                    .replace("SENTINEL", &sentinel)
                    .into_bytes();
                e
            })
            .collect();
        let err = s.unpack(Zip, &zip(&entries)).unwrap_err();
        assert_eq!(err, want.replace("DST", &s.dst().display().to_string()));
        s.assert_nothing_outside();
    }
}

#[test]
fn duplicate_entries_last_wins() {
    let s = Scratch::new();
    s.unpack(
        Zip,
        &zip(&[zfile("main.tf", "# one\n"), zfile("main.tf", "# two\n")]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join("main.tf")), "# two\n");
}

#[test]
fn an_empty_zip_is_refused() {
    let s = Scratch::new();
    let err = s.unpack(Zip, &zip(&[])).unwrap_err();
    assert_eq!(err, format!("empty archive: {}", s.archive_label()));
}

#[test]
fn a_central_directory_that_lies_about_sizes() {
    let big = "x".repeat(1000);
    for deflate in [false, true] {
        // Declared smaller than the data: Go's reader stops at the
        // declared size and calls the archive invalid.
        let mut small = zfile("main.tf", &big);
        small.deflate = deflate;
        small.declared_size = Some(10);
        // Declared larger: the data ends early.
        let mut large = zfile("main.tf", &big);
        large.deflate = deflate;
        large.declared_size = Some(1 << 30);
        for (entry, want) in [
            (small, "zip: not a valid zip file"),
            (large, "unexpected EOF"),
        ] {
            let s = Scratch::new();
            let err = s.unpack(Zip, &zip(&[entry])).unwrap_err();
            assert_eq!(err, want, "deflate={deflate}");
            s.assert_nothing_outside();
        }
    }
}

#[test]
fn truncated_and_corrupt_archives_are_errors() {
    let good = zip(&[zfile("main.tf", &"x".repeat(3000)), zfile("b.tf", "y")]);
    let mut bad_crc = zfile("main.tf", "data");
    bad_crc.crc = Some(1);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"<html>502 Bad Gateway</html>".to_vec(),
            "zip: not a valid zip file",
        ),
        (Vec::new(), "zip: not a valid zip file"),
        (good[..good.len() / 2].to_vec(), "zip: not a valid zip file"),
        (good[..good.len() - 5].to_vec(), "zip: not a valid zip file"),
        (zip(&[bad_crc]), "zip: checksum error"),
    ];
    for (bytes, want) in cases {
        let s = Scratch::new();
        let err = s.unpack(Zip, &bytes).unwrap_err();
        assert_eq!(err, want);
        s.assert_nothing_outside();
    }
}

#[test]
fn any_bytes_are_an_error_or_a_package_never_a_panic() {
    // Every truncation and a byte flip at every offset of a small zip
    // and tar.gz: whatever the result, it is not a panic.
    let z = zip(&[zfile("a.tf", "aaaa"), zlink("l", "a.tf"), zdir("d/")]);
    let t = tgz(&[file("a.tf", "aaaa"), symlink("l", "a.tf"), dir("d/")]);
    for (format, bytes) in [(Zip, z), (unpack::Format::TarGz, t)] {
        for i in 0..bytes.len() {
            let s = Scratch::new();
            let _ = s.unpack(format, &bytes[..i]);
            let mut flipped = bytes.clone();
            flipped[i] ^= 0x5a;
            let s = Scratch::new();
            let _ = s.unpack(format, &flipped);
            s.assert_nothing_outside();
        }
    }
}
