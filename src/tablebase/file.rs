//! The table file format (docs/tablebases.md "File format"): a 32-byte header, then one
//! little-endian `u16` per entry. Every byte is covered by an xxHash64 checksum, and every
//! field is checked on reading, so a truncated, corrupted or foreign file is refused with
//! the field that is wrong, never read as values.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `DCTBASE\0` |
//! | 8 | 2 | format version, 1 |
//! | 10 | 1 | material code (`Material::code`) |
//! | 11 | 1 | reserved, 0 |
//! | 12 | 4 | entries (`Material::entries`) |
//! | 16 | 8 | discount, `f64`, in `(0, 1]` |
//! | 24 | 8 | xxHash64 (seed 0) of bytes 0..24 followed by the values |
//! | 32 | 2·entries | the values |

use super::error::TableFileError;
use super::material::Material;
use super::table::Table;
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};
use twox_hash::XxHash64;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"DCTBASE\0";

/// The format version this engine writes and reads.
pub const FORMAT_VERSION: u16 = 1;

const HEADER: usize = 32;

/// The file name of `material`'s table in a tables folder: `KQvK.dctb`.
pub fn file_name(material: Material) -> String {
    format!("{}.dctb", material.name())
}

/// The path of `material`'s table in `dir`.
pub fn table_path(dir: &Path, material: Material) -> PathBuf {
    dir.join(file_name(material))
}

fn checksum(head: &[u8], values: &[u8]) -> u64 {
    let mut h = XxHash64::with_seed(0);
    h.write(head);
    h.write(values);
    h.finish()
}

impl Table {
    /// The table as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let values = self.quantised();
        let mut out = Vec::with_capacity(HEADER + 2 * values.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(self.material().code());
        out.push(0);
        out.extend_from_slice(&(values.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.discount().to_le_bytes());
        let mut body = Vec::with_capacity(2 * values.len());
        for v in values {
            body.extend_from_slice(&v.to_le_bytes());
        }
        let sum = checksum(&out, &body);
        out.extend_from_slice(&sum.to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// A table read from file bytes, every field checked (module documentation).
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, TableFileError> {
        if bytes.len() < HEADER {
            return Err(TableFileError::Truncated {
                len: bytes.len(),
                need: HEADER,
            });
        }
        if bytes[..8] != MAGIC {
            return Err(TableFileError::Magic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(8);
        if version != FORMAT_VERSION {
            return Err(TableFileError::Version(version));
        }
        let material = Material::from_code(bytes[10]).ok_or(TableFileError::Material(bytes[10]))?;
        if bytes[11] != 0 {
            return Err(TableFileError::Reserved(bytes[11]));
        }
        let mut four = [0u8; 4];
        four.copy_from_slice(&bytes[12..16]);
        let entries = u32::from_le_bytes(four) as usize;
        if entries != material.entries() {
            return Err(TableFileError::Entries {
                material: material.name(),
                got: entries,
                want: material.entries(),
            });
        }
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&bytes[16..24]);
        let discount = f64::from_le_bytes(eight);
        if !(discount > 0.0 && discount <= 1.0) {
            return Err(TableFileError::Discount(discount));
        }
        let need = HEADER + 2 * entries;
        if bytes.len() != need {
            return Err(if bytes.len() < need {
                TableFileError::Truncated {
                    len: bytes.len(),
                    need,
                }
            } else {
                TableFileError::Trailing {
                    len: bytes.len(),
                    need,
                }
            });
        }
        eight.copy_from_slice(&bytes[24..32]);
        let stored = u64::from_le_bytes(eight);
        let body = &bytes[HEADER..];
        if checksum(&bytes[..24], body) != stored {
            return Err(TableFileError::Checksum);
        }
        let values: Vec<u16> = body
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        if let Some(i) = (0..entries).find(|&i| values[i] != 0 && !material.is_entry(i)) {
            return Err(TableFileError::InvalidEntry(i));
        }
        Table::from_quantised(material, discount, values).ok_or(TableFileError::Entries {
            material: material.name(),
            got: entries,
            want: material.entries(),
        })
    }

    /// Read the table file at `path`; the error names the file.
    pub fn read(path: &Path) -> Result<Table, TableFileError> {
        let bytes = std::fs::read(path).map_err(|source| TableFileError::Io {
            path: path.to_owned(),
            source,
        })?;
        Table::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }

    /// Write the table to `path` atomically: a temporary file created exclusively beside it
    /// under a random name, synced, then renamed over `path`. A reader sees the old file or
    /// the whole new one, never a torn one.
    pub fn write(&self, path: &Path) -> Result<(), TableFileError> {
        let io = |source| TableFileError::Io {
            path: path.to_owned(),
            source,
        };
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".dctb.").suffix(".tmp");
        // A table is a shared file (0666 less the umask), not tempfile's private 0600.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let mut tmp = builder.tempfile_in(dir).map_err(io)?;
        tmp.write_all(&self.to_bytes()).map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(path).map_err(|e| io(e.error))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Table {
        let m = Material::Kk;
        let values: Vec<f64> = (0..m.entries())
            .map(|i| match m.position(i) {
                Some(_) => (i % 997) as f64 / 997.0,
                None => 0.0,
            })
            .collect();
        Table::from_values(m, 0.99, &values).expect("one value per entry")
    }

    #[test]
    fn bytes_round_trip() {
        let t = small();
        let b = t.to_bytes();
        assert_eq!(b.len(), 32 + 2 * Material::Kk.entries());
        assert_eq!(Table::from_bytes(&b).expect("reads back"), t);
    }

    #[test]
    fn every_damaged_field_is_named() {
        let b = small().to_bytes();
        let mut cases: Vec<(Vec<u8>, &str)> = Vec::new();
        cases.push((b[..20].to_vec(), "truncated"));
        let mut m = b.clone();
        m[0] = b'X';
        cases.push((m, "magic"));
        let mut v = b.clone();
        v[8] = 9;
        cases.push((v, "version 9"));
        let mut c = b.clone();
        c[10] = 77;
        cases.push((c, "material code 77"));
        let mut e = b.clone();
        e[12] = 1;
        cases.push((e, "entries"));
        let mut d = b.clone();
        d[16..24].copy_from_slice(&2.0f64.to_le_bytes());
        cases.push((d, "discount"));
        let mut s = b.clone();
        let last = s.len() - 1;
        s[last] ^= 1;
        cases.push((s, "checksum"));
        let mut t = b.clone();
        t.push(0);
        cases.push((t, "trailing"));
        cases.push((b[..b.len() - 2].to_vec(), "truncated"));
        for (bytes, word) in cases {
            let e = Table::from_bytes(&bytes).expect_err(word).to_string();
            assert!(e.contains(word), "{word}: {e}");
        }
    }

    #[test]
    fn a_value_on_an_invalid_entry_is_refused_even_with_a_good_checksum() {
        let t = small();
        let mut q = t.quantised().to_vec();
        // Entry 0: both kings on a1.
        q[0] = 5;
        let bad = Table::from_quantised(Material::Kk, 0.99, q).expect("sized");
        let e = Table::from_bytes(&bad.to_bytes()).expect_err("invalid entry");
        assert!(e.to_string().contains("entry 0"), "{e}");
    }

    #[test]
    fn write_then_read_through_a_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = table_path(dir.path(), Material::Kk);
        let t = small();
        t.write(&path).expect("written");
        assert_eq!(Table::read(&path).expect("read"), t);
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["KvK.dctb"]);
    }
}
