//! Engine versions and `engineCompatibility` requirements (docs/model-packages.md): the
//! `MAJOR.MINOR.PATCH` parser and the comparator grammar a manifest's requirement is
//! written in. Below both the manifest and its error type, which name these errors.

use std::fmt;

/// A `MAJOR.MINOR.PATCH` version (ASCII digits only, no pre-release or build suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EngineVersion {
    /// Major.
    pub major: u64,
    /// Minor.
    pub minor: u64,
    /// Patch.
    pub patch: u64,
}

/// Why a version is not `MAJOR.MINOR.PATCH`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// Not three dot-separated components.
    #[error("{0:?} is not MAJOR.MINOR.PATCH")]
    Shape(String),
    /// A component is empty or holds something other than ASCII digits.
    #[error("{0:?} is not MAJOR.MINOR.PATCH with ASCII digits only")]
    NotDigits(String),
    /// A component does not fit in 64 bits.
    #[error("{0:?} has a component too large")]
    TooLarge(String),
}

/// Why an `engineCompatibility` requirement is malformed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequirementError {
    /// A comparator's version is malformed.
    #[error("comparator {token:?}: {version}")]
    Comparator {
        /// The comparator as written.
        token: String,
        /// What is wrong with its version.
        version: VersionError,
    },
    /// The requirement holds no comparator.
    #[error("no comparator")]
    Empty,
}

impl EngineVersion {
    /// Parse `MAJOR.MINOR.PATCH`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<EngineVersion, VersionError> {
        let parts: Vec<&str> = text.split('.').collect();
        if parts.len() != 3 {
            return Err(VersionError::Shape(text.into()));
        }
        let mut nums = [0u64; 3];
        for (n, part) in nums.iter_mut().zip(&parts) {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(VersionError::NotDigits(text.into()));
            }
            *n = part
                .parse()
                .map_err(|_| VersionError::TooLarge(text.into()))?;
        }
        Ok(EngineVersion {
            major: nums[0],
            minor: nums[1],
            patch: nums[2],
        })
    }
}

impl fmt::Display for EngineVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// One comparator of an `engineCompatibility` requirement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparator {
    /// `=` or a bare version.
    Eq,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
}

impl Comparator {
    /// Whether `version` satisfies `self bound`.
    pub fn admits(self, version: EngineVersion, bound: EngineVersion) -> bool {
        match self {
            Comparator::Eq => version == bound,
            Comparator::Gt => version > bound,
            Comparator::Ge => version >= bound,
            Comparator::Lt => version < bound,
            Comparator::Le => version <= bound,
        }
    }
}

/// A parsed `engineCompatibility`: space-separated comparators (`= > >= < <=`, a bare
/// version meaning `=`) on `MAJOR.MINOR.PATCH`, all of which must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRequirement {
    /// The text as written.
    pub text: String,
    /// The comparators, in order.
    pub clauses: Vec<(Comparator, EngineVersion)>,
}

impl EngineRequirement {
    /// Parse a requirement; the error says which comparator is malformed.
    pub fn parse(text: &str) -> Result<EngineRequirement, RequirementError> {
        let mut clauses = Vec::new();
        for token in text.split(' ').filter(|t| !t.is_empty()) {
            let (op, rest) = if let Some(r) = token.strip_prefix(">=") {
                (Comparator::Ge, r)
            } else if let Some(r) = token.strip_prefix("<=") {
                (Comparator::Le, r)
            } else if let Some(r) = token.strip_prefix('>') {
                (Comparator::Gt, r)
            } else if let Some(r) = token.strip_prefix('<') {
                (Comparator::Lt, r)
            } else if let Some(r) = token.strip_prefix('=') {
                (Comparator::Eq, r)
            } else {
                (Comparator::Eq, token)
            };
            let version =
                EngineVersion::parse(rest).map_err(|version| RequirementError::Comparator {
                    token: token.into(),
                    version,
                })?;
            clauses.push((op, version));
        }
        if clauses.is_empty() {
            return Err(RequirementError::Empty);
        }
        Ok(EngineRequirement {
            text: text.to_string(),
            clauses,
        })
    }

    /// Whether every comparator admits `version`.
    pub fn admits(&self, version: EngineVersion) -> bool {
        self.clauses.iter().all(|&(op, b)| op.admits(version, b))
    }
}
