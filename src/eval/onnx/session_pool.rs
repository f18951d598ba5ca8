//! [`SessionPool`]: ONNX Runtime sessions of one model, created on demand and checked out
//! by one worker at a time (`Session::run` takes `&mut self`, so a session is never shared
//! by two threads at once), each graph-checked against the manifest when created.

use super::error::ModelError;
use super::runtime;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::{Outlet, TensorElementType, TensorRef, ValueType};
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex};

/// What the graph must declare (docs/model-packages.md graph check).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphContract {
    /// The one input's name (`inputName`).
    pub input_name: String,
    /// The one output's name (`outputName`).
    pub output_name: String,
    /// The input's width (`featureCount`).
    pub feature_count: usize,
}

impl GraphContract {
    /// Check a session's inputs and outputs: exactly one input named `input_name`, FLOAT,
    /// `[dynamic, feature_count]`; exactly one output named `output_name`, FLOAT,
    /// `[dynamic, 1]`. A fixed batch dimension (even 1) is refused.
    pub fn check(&self, session: &Session) -> Result<(), ModelError> {
        check_outlets(
            session.inputs(),
            "input",
            "inputName",
            &self.input_name,
            self.feature_count,
            "featureCount",
        )?;
        check_outlets(
            session.outputs(),
            "output",
            "outputName",
            &self.output_name,
            1,
            "output width",
        )
    }
}

fn check_outlets(
    outlets: &[Outlet],
    kind: &'static str,
    name_field: &'static str,
    name: &str,
    width: usize,
    width_field: &'static str,
) -> Result<(), ModelError> {
    let graph = |field: &'static str, detail: String| Err(ModelError::Graph { field, detail });
    let names = || {
        outlets
            .iter()
            .map(|o| format!("{:?}", o.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if outlets.len() != 1 {
        let field = if kind == "input" {
            "input count"
        } else {
            "output count"
        };
        return graph(
            field,
            format!(
                "the graph has {} {kind}s [{}], expected exactly one named {name:?}",
                outlets.len(),
                names()
            ),
        );
    }
    let outlet = &outlets[0];
    if outlet.name() != name {
        return graph(
            name_field,
            format!(
                "the graph's {kind} is named {:?}, the manifest's {name_field} is {name:?}",
                outlet.name()
            ),
        );
    }
    let (ty, shape) = match outlet.dtype() {
        ValueType::Tensor { ty, shape, .. } => (*ty, shape),
        other => {
            let field = if kind == "input" {
                "input type"
            } else {
                "output type"
            };
            return graph(field, format!("{kind} {name:?} is {other:?}, not a tensor"));
        }
    };
    if ty != TensorElementType::Float32 {
        let field = if kind == "input" {
            "input type"
        } else {
            "output type"
        };
        return graph(field, format!("{kind} {name:?} is {ty:?}, expected FLOAT"));
    }
    let dims: &[i64] = shape;
    if dims.len() != 2 {
        return graph(
            width_field,
            format!("{kind} {name:?} has shape {dims:?}, expected [dynamic, {width}]"),
        );
    }
    if dims[0] >= 0 {
        return graph(
            "batch dimension",
            format!(
                "{kind} {name:?} has a fixed batch dimension {} (shape {dims:?}); it must be dynamic",
                dims[0]
            ),
        );
    }
    if dims[1] != width as i64 {
        return graph(
            width_field,
            format!("{kind} {name:?} has shape {dims:?}, expected [dynamic, {width}]"),
        );
    }
    Ok(())
}

/// Why one [`SessionPool::run`] failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionRunError {
    /// The feature slice does not hold `rows × width` values.
    #[error("{values} feature values for {rows} rows of width {width}")]
    Shape {
        /// Values given.
        values: usize,
        /// Rows asked for.
        rows: usize,
        /// The graph's feature count.
        width: usize,
    },
    /// No session could be checked out (or built).
    #[error("{0}")]
    Checkout(ModelError),
    /// The input tensor could not be made.
    #[error("input tensor: {0}")]
    Input(ort::Error),
    /// The session failed to run.
    #[error("{0}")]
    Run(ort::Error),
    /// The graph has no output of the contract's name.
    #[error("no output named {0:?}")]
    NoOutput(String),
    /// The output is not a float32 tensor.
    #[error("output {name:?}: {error}")]
    Output {
        /// The output's name.
        name: String,
        /// What the runtime said.
        error: ort::Error,
    },
    /// The output's shape is not `[rows, 1]`.
    #[error("output {name:?} has shape {dims:?} for {rows} rows, expected [{rows}, 1]")]
    OutputShape {
        /// The output's name.
        name: String,
        /// The shape found.
        dims: Vec<i64>,
        /// Rows run.
        rows: usize,
    },
}

/// Sessions of one model, created on demand (one per concurrent caller) and reused.
pub struct SessionPool {
    model: Arc<[u8]>,
    /// The external-data file the model names and its bytes (checked with the package),
    /// handed to the runtime from memory: the runtime never opens a path itself.
    external: Option<(String, Arc<[u8]>)>,
    contract: GraphContract,
    idle: Mutex<Vec<Session>>,
}

impl SessionPool {
    /// A pool for `model` that checks every session against `contract`. Opens and checks
    /// one session now, so a bad graph or a missing runtime fails at load time.
    pub fn new(model: Arc<[u8]>, contract: GraphContract) -> Result<SessionPool, ModelError> {
        SessionPool::with_external_data(model, None, contract)
    }

    /// A pool for `model` whose tensors live in the external-data file `external.0`, given
    /// as bytes `external.1` (see [`ModelPackage::external_data`](super::ModelPackage)).
    pub fn with_external_data(
        model: Arc<[u8]>,
        external: Option<(String, Arc<[u8]>)>,
        contract: GraphContract,
    ) -> Result<SessionPool, ModelError> {
        let pool = SessionPool {
            model,
            external,
            contract,
            idle: Mutex::new(Vec::new()),
        };
        let first = pool.open()?;
        pool.idle_sessions().push(first);
        Ok(pool)
    }

    /// The contract every session satisfies.
    pub fn contract(&self) -> &GraphContract {
        &self.contract
    }

    /// Sessions created so far and not checked out.
    pub fn idle_count(&self) -> usize {
        self.idle_sessions().len()
    }

    /// A session for the calling worker (an idle one, or a new one), returned to the pool
    /// when the guard drops.
    pub fn checkout(&self) -> Result<PooledSession<'_>, ModelError> {
        let reused = self.idle_sessions().pop();
        let session = match reused {
            Some(s) => s,
            None => self.open()?,
        };
        Ok(PooledSession {
            pool: self,
            session: Some(session),
        })
    }

    /// Run `rows` rows of `features` (row-major, `rows × feature_count`) and write the one
    /// output per row into `out` (`out.len() == rows`).
    pub fn run(&self, features: &[f32], out: &mut [f32]) -> Result<(), SessionRunError> {
        let rows = out.len();
        let width = self.contract.feature_count;
        if features.len() != rows * width {
            return Err(SessionRunError::Shape {
                values: features.len(),
                rows,
                width,
            });
        }
        if rows == 0 {
            return Ok(());
        }
        let mut session = self.checkout().map_err(SessionRunError::Checkout)?;
        let input = TensorRef::from_array_view(([rows, width], features))
            .map_err(SessionRunError::Input)?;
        let outputs = session
            .run(ort::inputs![self.contract.input_name.as_str() => input])
            .map_err(SessionRunError::Run)?;
        let name = &self.contract.output_name;
        let value = outputs
            .get(name)
            .ok_or_else(|| SessionRunError::NoOutput(name.clone()))?;
        let (shape, data) =
            value
                .try_extract_tensor::<f32>()
                .map_err(|error| SessionRunError::Output {
                    name: name.clone(),
                    error,
                })?;
        let dims: &[i64] = shape;
        if dims != [rows as i64, 1] || data.len() != rows {
            return Err(SessionRunError::OutputShape {
                name: name.clone(),
                dims: dims.to_vec(),
                rows,
            });
        }
        out.copy_from_slice(data);
        Ok(())
    }

    fn idle_sessions(&self) -> std::sync::MutexGuard<'_, Vec<Session>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new session, single-threaded inside (parallelism comes from the callers' threads),
    /// graph-checked.
    fn open(&self) -> Result<Session, ModelError> {
        let env = runtime::environment()?;
        let err = |e: String| ModelError::Session(e);
        let mut builder = Session::builder(env).map_err(|e| err(e.to_string()))?;
        if let Some((name, bytes)) = &self.external {
            builder = builder
                .with_external_initializer_file_in_memory(name, bytes.clone())
                .map_err(|e| err(e.to_string()))?;
        }
        let session = builder
            .with_optimization_level(GraphOptimizationLevel::Level3)
            .map_err(|e| err(e.to_string()))?
            .with_intra_threads(1)
            .map_err(|e| err(e.to_string()))?
            .with_inter_threads(1)
            .map_err(|e| err(e.to_string()))?
            .commit_from_memory(&self.model)
            .map_err(|e| err(e.to_string()))?;
        self.contract.check(&session)?;
        Ok(session)
    }
}

/// A session checked out of a [`SessionPool`]; goes back to the pool on drop.
pub struct PooledSession<'a> {
    pool: &'a SessionPool,
    session: Option<Session>,
}

impl Deref for PooledSession<'_> {
    type Target = Session;
    fn deref(&self) -> &Session {
        // Always `Some` until drop.
        self.session.as_ref().expect("session present until drop")
    }
}

impl DerefMut for PooledSession<'_> {
    fn deref_mut(&mut self) -> &mut Session {
        self.session.as_mut().expect("session present until drop")
    }
}

impl Drop for PooledSession<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.session.take() {
            self.pool.idle_sessions().push(s);
        }
    }
}
