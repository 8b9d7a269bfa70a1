//! Hostile tar.gz archives, each answered as go-getter v1.8.6 (which
//! OpenTofu unpacks module packages with) answers it; the wording of
//! each error is what `terraform init` printed for the same archive.

mod support;

use support::*;
use unpack::Format::TarGz;

#[test]
fn a_plain_archive_unpacks_with_modes() {
    let s = Scratch::new();
    let mut exe = file("bin/run", "#!/bin/sh\n");
    exe.mode = 0o4755;
    s.unpack(
        TarGz,
        &tgz(&[dir("mod/"), file("mod/main.tf", "# hi\n"), exe]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join("mod/main.tf")), "# hi\n");
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
        // setuid is dropped on purpose; the rest is the archive's.
        assert_eq!(mode("bin/run"), 0o755);
        assert_eq!(mode("mod/main.tf"), 0o644);
        let mtime = std::fs::metadata(s.dst().join("mod/main.tf"))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(
            mtime,
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000)
        );
    }
    s.assert_nothing_outside();
}

#[test]
fn dot_dot_names_are_refused() {
    for name in ["../x", "a/../../x", "a/..", "..\\x"] {
        let s = Scratch::new();
        let err = s
            .unpack(
                TarGz,
                &tgz(&[file("main.tf", "# ok\n"), file(name, "evil")]),
            )
            .unwrap_err();
        assert_eq!(err, format!("entry contains '..': {name}"));
        s.assert_nothing_outside();
    }
}

#[test]
fn absolute_names_land_inside() {
    let s = Scratch::new();
    let outside = s.sentinel().join("abs.tf");
    let name = outside.display().to_string();
    s.unpack(
        TarGz,
        &tgz(&[file(&name, "# abs\n"), file("/etc/x.tf", "# x\n")]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join(name.trim_start_matches('/'))), "# abs\n");
    assert_eq!(read(&s.dst().join("etc/x.tf")), "# x\n");
    s.assert_nothing_outside();
}

#[test]
fn links_devices_and_fifos_become_plain_files() {
    let s = Scratch::new();
    let sentinel = s.sentinel().display().to_string();
    s.unpack(
        TarGz,
        &tgz(&[
            file("main.tf", "# ok\n"),
            symlink("up", ".."),
            symlink("abs", &sentinel),
            hardlink("hard", &format!("{sentinel}/keep")),
            hardlink("hard2", "../sentinel/keep"),
            special("chr", b'3'),
            special("fifo", b'6'),
        ]),
    )
    .unwrap();
    for name in ["up", "abs", "hard", "hard2", "chr", "fifo"] {
        let p = s.dst().join(name);
        assert!(is_regular_file(&p), "{name} is not a regular file");
        assert_eq!(read(&p), "", "{name}");
    }
    s.assert_nothing_outside();
}

#[test]
fn writing_through_an_earlier_link_is_refused() {
    // Whatever the link pointed at, it is a plain file now, and a file
    // cannot be a directory: `l -> .` is refused as `l -> /outside` is.
    let cases = [
        (
            vec![symlink("l", "."), file("l/x", "evil")],
            "open DST/l/x: not a directory",
        ),
        (
            vec![symlink("l", "SENTINEL"), file("l/x", "evil")],
            "open DST/l/x: not a directory",
        ),
        (
            vec![symlink("l", "SENTINEL"), file("l/a/x", "evil")],
            "open DST/l/a/x: not a directory",
        ),
        // A chain: a -> b -> outside.
        (
            vec![
                symlink("b", "../sentinel"),
                symlink("a", "b"),
                file("a/keep", "evil"),
            ],
            "open DST/a/keep: not a directory",
        ),
        // A directory entry where a link was.
        (
            vec![symlink("l", "SENTINEL"), dir("l/")],
            "mkdir DST/l: not a directory",
        ),
        (
            vec![symlink("l", "SENTINEL"), dir("l/sub/")],
            "mkdir DST/l: not a directory",
        ),
        // A hard link, then a file written "through" it.
        (
            vec![hardlink("h", "SENTINEL/keep"), file("h/x", "evil")],
            "open DST/h/x: not a directory",
        ),
    ];
    for (entries, want) in cases {
        let s = Scratch::new();
        let sentinel = s.sentinel().display().to_string();
        let entries: Vec<T> = entries
            .into_iter()
            .map(|mut e| {
                e.link = e.link.replace("SENTINEL", &sentinel);
                e
            })
            .collect();
        let err = s.unpack(TarGz, &tgz(&entries)).unwrap_err();
        assert_eq!(err, want.replace("DST", &s.dst().display().to_string()));
        s.assert_nothing_outside();
    }
}

#[test]
fn a_hard_link_then_the_same_name_overwrites_only_the_copy() {
    let s = Scratch::new();
    let target = s.sentinel().join("keep").display().to_string();
    s.unpack(
        TarGz,
        &tgz(&[hardlink("h", &target), file("h", "overwritten")]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join("h")), "overwritten");
    s.assert_nothing_outside();
}

#[test]
fn duplicate_entries_last_wins() {
    let s = Scratch::new();
    s.unpack(
        TarGz,
        &tgz(&[file("main.tf", "# one\n"), file("main.tf", "# two\n")]),
    )
    .unwrap();
    assert_eq!(read(&s.dst().join("main.tf")), "# two\n");
    // A file where a directory was is Go's `open ...: is a directory`.
    let s = Scratch::new();
    let err = s
        .unpack(TarGz, &tgz(&[dir("a/"), file("a", "x")]))
        .unwrap_err();
    assert_eq!(err, format!("open {}/a: is a directory", s.dst().display()));
}

#[cfg(unix)]
#[test]
fn a_link_already_in_the_destination_is_not_written_through() {
    let s = Scratch::new();
    std::fs::create_dir(s.dst()).unwrap();
    std::os::unix::fs::symlink(s.sentinel(), s.dst().join("l")).unwrap();
    let err = s
        .unpack(TarGz, &tgz(&[file("l/keep", "evil")]))
        .unwrap_err();
    assert_eq!(err, "entry passes through a symbolic link: l/keep");
    let err = s.unpack(TarGz, &tgz(&[file("l", "evil")])).unwrap_err();
    assert_eq!(err, "entry passes through a symbolic link: l");
    s.assert_nothing_outside();
}

#[test]
fn only_directories_is_an_empty_archive() {
    let s = Scratch::new();
    let err = s.unpack(TarGz, &tgz(&[dir("a/")])).unwrap_err();
    assert_eq!(err, format!("empty archive: {}", s.archive_label()));
}

#[test]
fn truncated_and_corrupt_archives_are_errors() {
    let good = tgz(&[file("main.tf", &"x".repeat(5000)), file("b.tf", "y")]);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (good[..40].to_vec(), "unexpected EOF"),
        (good[..good.len() / 2].to_vec(), "unexpected EOF"),
        (b"<html>502</html>".to_vec(), "gzip: invalid header"),
        (Vec::new(), "unexpected EOF"),
        // A valid gzip stream holding something that is not a tar.
        (gz(&[7u8; 2048]), "archive/tar: invalid tar header"),
        // A tar whose last file is cut short, without end blocks.
        (
            gz(&tar(&[file("big.tf", &"z".repeat(4000))])[..1024]),
            "unexpected EOF",
        ),
    ];
    for (bytes, want) in cases {
        let s = Scratch::new();
        let err = s.unpack(TarGz, &bytes).unwrap_err();
        assert_eq!(err, want);
        s.assert_nothing_outside();
    }
}

#[test]
fn formats_opentofu_knows_but_this_build_cannot_read() {
    let s = Scratch::new();
    assert_eq!(
        s.unpack(unpack::Format::Gz, b"x").unwrap_err(),
        "gzip-compressed files can only unarchive to a single file"
    );
    assert_eq!(
        s.unpack(unpack::Format::TarXz, b"x").unwrap_err(),
        "archive format \"tar.xz\" is not supported by this build of OpenTofu (supported: zip, tar.gz, tgz)"
    );
    assert_eq!(unpack::Format::from_name("tar"), None);
    assert_eq!(unpack::Format::from_name("tgz"), Some(TarGz));
}
