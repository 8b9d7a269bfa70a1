//! Unpacking untrusted archives: module packages (zip, tar.gz, tar: what
//! `init` downloads for an `https://…/x.zip` source) and provider
//! packages (zip). The input is either raw bytes or a generated list of
//! entries (names with `..`, absolute names, links in and out, duplicate
//! names, directories, modes) built into a real archive, so the
//! unpackers' safety checks are reached, not only their parsers. After
//! each run nothing may exist outside the target directory, and no link
//! inside it may point out. Any panic is a bug too.
#![no_main]

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Input {
    Raw(Format, Vec<u8>),
    Built(Format, Vec<Entry>),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Format {
    ModuleZip,
    ModuleTarGz,
    ModuleTar,
    ProviderZip,
}

#[derive(Arbitrary, Debug)]
struct Entry {
    name: Name,
    kind: Kind,
    mode: u16,
}

#[derive(Arbitrary, Debug)]
enum Kind {
    File(Vec<u8>),
    Dir,
    Symlink(Name),
    Hardlink(Name),
}

/// Entry names and link targets: the tricky ones from a pool, or free.
#[derive(Arbitrary, Debug)]
enum Name {
    Pool(u8),
    Free(String),
}

const NAMES: &[&str] = &[
    "main.tf",
    "sub/main.tf",
    "sub",
    "sub/",
    "./main.tf",
    "../escape",
    "sub/../../escape",
    "/abs",
    "/",
    "//double",
    "\\win\\path",
    "..\\escape",
    "link",
    "link/through",
    "sub/link",
    "..",
    ".",
    "",
    "a/b/c/d/e",
    "terraform-provider-x_v1.0.0",
    "日本語.tf",
];

impl Name {
    fn text(&self) -> String {
        match self {
            Name::Pool(i) => NAMES[*i as usize % NAMES.len()].to_string(),
            Name::Free(s) => s.clone(),
        }
    }
}

fuzz_target!(|input: Input| {
    let (format, bytes) = match &input {
        Input::Raw(f, b) => (*f, b.clone()),
        Input::Built(f, entries) => (*f, build(*f, entries)),
    };
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let dst = tmp.path().join("a/b/dst");
    let archive = tmp.path().join("a/package.zip");
    std::fs::create_dir_all(&dst).expect("the target directory");
    std::fs::write(&archive, &bytes).expect("the archive file");
    let _ = unpack(format, &bytes, &archive, &dst);
    std::fs::remove_file(&archive).expect("the archive file is still there");
    check_confined(tmp.path(), &dst);
});

/// The unpackers under test, in one place (to repoint when they move).
fn unpack(format: Format, bytes: &[u8], archive: &Path, dst: &Path) -> Result<(), String> {
    match format {
        Format::ModuleZip => module_package(unpack::Format::Zip, bytes, dst),
        Format::ModuleTarGz => module_package(unpack::Format::TarGz, bytes, dst),
        // OpenTofu has no plain-tar decompressor; the tar reader itself is
        // what tar.gz reaches after gunzip.
        Format::ModuleTar => {
            unpack::unpack_tar(bytes, "fuzz", dst, &mut ()).map_err(|e| e.to_string())
        }
        Format::ProviderZip => getproviders::unpack_zip(archive, dst),
    }
}

/// A module package as `init` unpacks an `https://…` archive.
fn module_package(format: unpack::Format, bytes: &[u8], dst: &Path) -> Result<(), String> {
    unpack::unpack_reader(format, std::io::Cursor::new(bytes), "fuzz", dst, &mut ())
        .map_err(|e| e.to_string())
}

/// Nothing but `dst` and its parents under `root`, and no link in `dst`
/// that leads out of it.
fn check_confined(root: &Path, dst: &Path) {
    let allowed: Vec<PathBuf> = vec![root.join("a"), root.join("a/b"), dst.to_path_buf()];
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("readable") {
            let p = e.expect("a directory entry").path();
            let meta = std::fs::symlink_metadata(&p).expect("metadata");
            if p.starts_with(dst) {
                if meta.file_type().is_symlink() {
                    let target = std::fs::read_link(&p).expect("a link target");
                    assert!(
                        lexically_inside(dst, p.parent().expect("a parent"), &target),
                        "{} links to {} outside the target",
                        p.display(),
                        target.display()
                    );
                } else if meta.is_dir() {
                    stack.push(p);
                }
                continue;
            }
            assert!(
                allowed.contains(&p),
                "{} was written outside the target",
                p.display()
            );
            if meta.is_dir() {
                stack.push(p);
            }
        }
    }
}

/// Whether `target`, relative to `dir`, stays inside `root` (following
/// the links it passes through is the unpackers' job: they refuse to
/// write through links, and every link is checked here).
fn lexically_inside(root: &Path, dir: &Path, target: &Path) -> bool {
    if target.is_absolute() {
        return target.starts_with(root);
    }
    let mut cur = dir.to_path_buf();
    for c in target.components() {
        match c {
            Component::ParentDir => {
                if !cur.pop() || !cur.starts_with(root) {
                    return false;
                }
            }
            Component::Normal(p) => cur.push(p),
            _ => {}
        }
    }
    cur.starts_with(root)
}

fn build(format: Format, entries: &[Entry]) -> Vec<u8> {
    match format {
        Format::ModuleZip | Format::ProviderZip => build_zip(entries),
        Format::ModuleTar => build_tar(entries),
        Format::ModuleTarGz => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&build_tar(entries)).expect("in memory");
            gz.finish().expect("in memory")
        }
    }
}

fn build_zip(entries: &[Entry]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for e in entries.iter().take(16) {
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .unix_permissions(u32::from(e.mode));
        let name = e.name.text();
        let _ = match &e.kind {
            Kind::File(data) => w
                .start_file(name, opts)
                .and_then(|_| w.write_all(data).map_err(Into::into)),
            Kind::Dir => w.add_directory(name, opts),
            Kind::Symlink(t) | Kind::Hardlink(t) => w.add_symlink(name, t.text(), opts),
        };
    }
    w.finish().map(|c| c.into_inner()).unwrap_or_default()
}

fn build_tar(entries: &[Entry]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    for e in entries.iter().take(16) {
        let mut h = tar::Header::new_old();
        // The raw name fields, so that names the tar crate's own setters
        // refuse (`..`, absolute) reach the unpacker.
        let name = e.name.text();
        let n = name.len().min(99);
        h.as_old_mut().name[..n].copy_from_slice(&name.as_bytes()[..n]);
        h.set_mode(u32::from(e.mode));
        let data: &[u8] = match &e.kind {
            Kind::File(data) => {
                h.set_entry_type(tar::EntryType::Regular);
                data
            }
            Kind::Dir => {
                h.set_entry_type(tar::EntryType::Directory);
                &[]
            }
            Kind::Symlink(t) | Kind::Hardlink(t) => {
                h.set_entry_type(if matches!(e.kind, Kind::Symlink(_)) {
                    tar::EntryType::Symlink
                } else {
                    tar::EntryType::Link
                });
                let t = t.text();
                let n = t.len().min(99);
                h.as_old_mut().linkname[..n].copy_from_slice(&t.as_bytes()[..n]);
                &[]
            }
        };
        h.set_size(data.len() as u64);
        h.set_cksum();
        let _ = b.append(&h, data);
    }
    b.into_inner().unwrap_or_default()
}
