//! Builders for hostile archives (feature `test-support`): raw tar
//! headers and hand-made zips, so names, types and sizes reach an
//! unpacker exactly as an attacker would write them (the tar and zip
//! crates' writers refuse or fix many of these). Used by this crate's
//! tests and by the end-to-end tests that serve such archives.

use std::io::Write;

/// One tar entry: a type flag (`b'0'` file, `b'5'` dir, `b'2'` symlink,
/// `b'1'` hard link, `b'3'` char device, `b'6'` FIFO), name, data,
/// link target and mode.
pub struct T {
    pub kind: u8,
    pub name: String,
    pub data: Vec<u8>,
    pub link: String,
    pub mode: u32,
}

/// A regular file entry.
pub fn file(name: &str, data: &str) -> T {
    T {
        kind: b'0',
        name: name.into(),
        data: data.as_bytes().to_vec(),
        link: String::new(),
        mode: 0o644,
    }
}

/// A directory entry (name it with a trailing `/`).
pub fn dir(name: &str) -> T {
    T {
        kind: b'5',
        name: name.into(),
        data: Vec::new(),
        link: String::new(),
        mode: 0o755,
    }
}

/// A symbolic link entry.
pub fn symlink(name: &str, target: &str) -> T {
    T {
        kind: b'2',
        name: name.into(),
        data: Vec::new(),
        link: target.into(),
        mode: 0o777,
    }
}

/// A hard link entry.
pub fn hardlink(name: &str, target: &str) -> T {
    T {
        kind: b'1',
        link: target.into(),
        ..symlink(name, target)
    }
}

/// A device or FIFO entry of type flag `kind`.
pub fn special(name: &str, kind: u8) -> T {
    T {
        kind,
        name: name.into(),
        data: Vec::new(),
        link: String::new(),
        mode: 0o644,
    }
}

/// Writes `v` in octal, NUL-terminated, into a header field.
fn octal(field: &mut [u8], v: u64) {
    let s = format!("{:0width$o}", v, width = field.len() - 1);
    field[..s.len()].copy_from_slice(s.as_bytes());
}

/// A ustar stream, headers written byte by byte.
pub fn tar(entries: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        let mut h = [0u8; 512];
        h[..e.name.len()].copy_from_slice(e.name.as_bytes());
        octal(&mut h[100..108], e.mode as u64);
        octal(&mut h[108..116], 0);
        octal(&mut h[116..124], 0);
        octal(&mut h[124..136], e.data.len() as u64);
        octal(&mut h[136..148], 1_600_000_000);
        h[156] = e.kind;
        h[157..157 + e.link.len()].copy_from_slice(e.link.as_bytes());
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|b| *b as u32).sum();
        let s = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(s.as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(&e.data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.extend_from_slice(&[0u8; 1024]);
    out
}

/// `bytes` gzipped.
pub fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

/// A gzipped ustar stream.
pub fn tgz(entries: &[T]) -> Vec<u8> {
    gz(&tar(entries))
}

/// One zip entry, stored or deflated; `mode` is the full unix mode
/// (type bits included) or `None` for an MS-DOS-made entry;
/// `declared_size` lies about the uncompressed size in the central
/// directory.
pub struct Z {
    pub name: String,
    pub data: Vec<u8>,
    pub mode: Option<u32>,
    pub deflate: bool,
    pub declared_size: Option<u32>,
    pub crc: Option<u32>,
}

/// A stored regular file with mode 0644.
pub fn zfile(name: &str, data: &str) -> Z {
    Z {
        name: name.into(),
        data: data.as_bytes().to_vec(),
        mode: Some(0o100644),
        deflate: false,
        declared_size: None,
        crc: None,
    }
}

/// A directory entry.
pub fn zdir(name: &str) -> Z {
    Z {
        mode: Some(0o040755),
        ..zfile(name, "")
    }
}

/// A symbolic link entry holding its target as data.
pub fn zlink(name: &str, target: &str) -> Z {
    Z {
        mode: Some(0o120777),
        ..zfile(name, target)
    }
}

/// A zip file written field by field.
pub fn zip(entries: &[Z]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let mut crc = flate2::Crc::new();
        crc.update(&e.data);
        let crc = e.crc.unwrap_or(crc.sum());
        let body = if e.deflate {
            let mut w = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            w.write_all(&e.data).unwrap();
            w.finish().unwrap()
        } else {
            e.data.clone()
        };
        let method: u16 = if e.deflate { 8 } else { 0 };
        let offset = out.len() as u32;
        let size = e.data.len() as u32;
        let declared = e.declared_size.unwrap_or(size);
        let name = e.name.as_bytes();
        // Local file header.
        out.extend_from_slice(&0x04034b50u32.to_le_bytes());
        out.extend_from_slice(&20u16.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&method.to_le_bytes());
        out.extend_from_slice(&[0u8; 4]);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&declared.to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name);
        out.extend_from_slice(&body);
        // Central directory record.
        let made_by: u16 = if e.mode.is_some() { 3 << 8 | 20 } else { 20 };
        let attrs: u32 = e.mode.map(|m| m << 16).unwrap_or(0);
        central.extend_from_slice(&0x02014b50u32.to_le_bytes());
        central.extend_from_slice(&made_by.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&method.to_le_bytes());
        central.extend_from_slice(&[0u8; 4]);
        central.extend_from_slice(&crc.to_le_bytes());
        central.extend_from_slice(&(body.len() as u32).to_le_bytes());
        central.extend_from_slice(&declared.to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0u8; 8]);
        central.extend_from_slice(&attrs.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x06054b50u32.to_le_bytes());
    out.extend_from_slice(&[0u8; 4]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}
