//! The archive formats OpenTofu's module installer knows (the keys of
//! getmodules' `goGetterDecompressors`), and reading an archive file of
//! one of them.

use std::io::{BufReader, Read, Seek};
use std::path::Path;

use crate::error::UnpackError;
use crate::{unpack_tar, unpack_zip, Watch};

/// An archive format, named as an `archive=` argument or a source
/// address's extension names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Zip,
    TarGz,
    TarBz2,
    TarXz,
    /// Single-file compressors: OpenTofu knows them, but they cannot
    /// produce a package directory.
    Gz,
    Bz2,
    Xz,
}

/// Every name OpenTofu accepts. Plain `tar` is not one of them: a
/// `.tar` address is not unpacked by OpenTofu either.
pub const FORMAT_NAMES: [&str; 10] = [
    "bz2", "gz", "xz", "zip", "tar.bz2", "tar.tbz2", "tar.gz", "tgz", "tar.xz", "txz",
];

impl Format {
    /// The format a decompressor key names, if OpenTofu has one.
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "zip" => Format::Zip,
            "tar.gz" | "tgz" => Format::TarGz,
            "tar.bz2" | "tar.tbz2" => Format::TarBz2,
            "tar.xz" | "txz" => Format::TarXz,
            "gz" => Format::Gz,
            "bz2" => Format::Bz2,
            "xz" => Format::Xz,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Format::Zip => "zip",
            Format::TarGz => "tar.gz",
            Format::TarBz2 => "tar.bz2",
            Format::TarXz => "tar.xz",
            Format::Gz => "gz",
            Format::Bz2 => "bz2",
            Format::Xz => "xz",
        }
    }
}

/// Unpacks `input`, an archive of `format`, into the directory `dst`
/// (created if missing). `label` names the archive in `empty archive:`.
pub fn unpack_reader(
    format: Format,
    input: impl Read + Seek,
    label: &str,
    dst: &Path,
    watch: &mut dyn Watch,
) -> Result<(), UnpackError> {
    match format {
        Format::Zip => unpack_zip(input, label, dst, watch),
        Format::TarGz => unpack_tar(flate2::read::GzDecoder::new(input), label, dst, watch),
        Format::TarBz2 | Format::TarXz => Err(UnpackError::Unsupported(format!(
            "archive format \"{}\" is not supported by this build of OpenTofu (supported: zip, tar.gz, tgz)",
            format.name()
        ))),
        Format::Gz => Err(single_file("gzip")),
        Format::Bz2 => Err(single_file("bzip2")),
        Format::Xz => Err(single_file("xz")),
    }
}

/// [`unpack_reader`] on the archive file at `archive`, named by its path
/// in messages as go-getter names its downloaded copy.
pub fn unpack_file(
    format: Format,
    archive: &Path,
    dst: &Path,
    watch: &mut dyn Watch,
) -> Result<(), UnpackError> {
    let f = std::fs::File::open(archive).map_err(|e| UnpackError::path("open", archive, e))?;
    let label = archive.display().to_string();
    unpack_reader(
        format,
        BufReader::with_capacity(1 << 20, f),
        &label,
        dst,
        watch,
    )
}

/// go-getter's answer when a single-file compressor is asked for a
/// directory (a module package always is one).
fn single_file(what: &str) -> UnpackError {
    UnpackError::Unsupported(format!(
        "{what}-compressed files can only unarchive to a single file"
    ))
}
