//! The protobuf wire format, as far as ONNX files need it: one message's fields, in order,
//! each a number and a value. Shared by the external-data walk and the native MLP reader;
//! a malformed field is an error, never a panic (both readers are fuzzed through their
//! callers).

/// Why the model bytes could not be read as protobuf.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("model.onnx is not a valid ONNX protobuf: {0}")]
pub struct WireError(pub String);

/// A field's value.
pub(super) enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 2: a message, string, bytes or packed repeated field.
    Bytes(&'a [u8]),
    /// Wire types 1 and 5: the 8 or 4 little-endian bytes.
    Fixed(&'a [u8]),
}

/// Iterator over the fields of one message: `(field number, value)`; a malformed field
/// yields an error as its number and ends the iteration.
pub(super) struct Fields<'a> {
    buf: &'a [u8],
    failed: bool,
}

impl<'a> Fields<'a> {
    /// The fields of the message `buf`.
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Fields { buf, failed: false }
    }

    fn varint(&mut self) -> Result<u64, WireError> {
        let mut v = 0u64;
        for i in 0..10 {
            let (&b, rest) = self
                .buf
                .split_first()
                .ok_or_else(|| WireError("a number runs past the end".into()))?;
            self.buf = rest;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WireError("a number is longer than 10 bytes".into()))
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], WireError> {
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.buf.len())
            .ok_or_else(|| WireError("a field runs past the end".into()))?;
        let (head, rest) = self.buf.split_at(n);
        self.buf = rest;
        Ok(head)
    }

    fn field(&mut self) -> Result<(u64, Value<'a>), WireError> {
        let key = self.varint()?;
        let value = match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => Value::Fixed(self.take(8)?),
            2 => {
                let len = self.varint()?;
                Value::Bytes(self.take(len)?)
            }
            5 => Value::Fixed(self.take(4)?),
            t => return Err(WireError(format!("wire type {t} is not used by ONNX"))),
        };
        Ok((key >> 3, value))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = (Result<u64, WireError>, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.buf.is_empty() {
            return None;
        }
        match self.field() {
            Ok((n, v)) => Some((Ok(n), v)),
            Err(e) => {
                self.failed = true;
                Some((Err(e), Value::Fixed(&[])))
            }
        }
    }
}

/// The numbers of a packed repeated varint field (`dims` as proto3 writes them).
pub(super) fn packed_varints(buf: &[u8]) -> Result<Vec<u64>, WireError> {
    let mut reader = Fields::new(buf);
    let mut out = Vec::new();
    while !reader.buf.is_empty() {
        out.push(reader.varint()?);
    }
    Ok(out)
}
