//! `dicechess golden`: a golden corpus of this engine in the training pipeline's format, to
//! standard output, a file, or its place in a checkout of the pipeline's repository.

use super::CliError;
use dicechess::eval::features::{
    parse_probes_tsv, pipeline_golden_path, pipeline_probes, schema_or_err, EngineIdentity,
    GoldenCorpus,
};
use dicechess::files::write_bytes;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `golden`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The corpus carries this engine's own engineVersion and engineArtifact; \
    the pipeline's dataset export trusts shards of a version only once a corpus of that \
    version is committed there (docs/data-formats.md, \"Registering this engine with the \
    pipeline\")."
)]
pub struct Args {
    /// Feature schema of the corpus: kcp-13, kcp-mobility-27-v1, kcp-mobility-pawns-31-v1,
    /// rich-9-v1 (the pipeline's contracts) or any other schema id.
    #[arg(long, default_value = "kcp-13")]
    schema: String,
    /// Probe list in the pipeline's probes.tsv format (id, fen, tags, note; tab-separated,
    /// header first); default: the pipeline's own 27 probes.
    #[arg(long, value_name = "FILE")]
    probes: Option<PathBuf>,
    /// Write the corpus to this file (atomically) instead of standard output.
    #[arg(long, value_name = "FILE", conflicts_with = "pipeline_checkout")]
    out: Option<PathBuf>,
    /// Write the corpus where the pipeline looks for it in a checkout of its repository
    /// (DIR/tests/fixtures/<contract>/golden-engine-<version>.json); refuses to replace a
    /// different file there.
    #[arg(long, value_name = "DIR")]
    pipeline_checkout: Option<PathBuf>,
}

/// Make the corpus and write it.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let schema =
        schema_or_err(&args.schema).map_err(|e| CliError::Input(format!("--schema: {e}")))?;
    let probes = match &args.probes {
        None => pipeline_probes(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError::Input(format!("--probes {}: {e}", path.display())))?;
            parse_probes_tsv(&text)
                .map_err(|e| CliError::Input(format!("--probes {}: {e}", path.display())))?
        }
    };
    let engine = EngineIdentity::this_engine();
    let corpus = GoldenCorpus::build(schema, &probes, engine.clone())
        .map_err(|e| CliError::Input(e.to_string()))?;
    let json = corpus.to_json();
    let dest = match (&args.out, &args.pipeline_checkout) {
        (Some(file), _) => Some(file.clone()),
        (None, Some(dir)) => Some(checkout_path(dir, schema.id(), &engine.version)?),
        (None, None) => None,
    };
    match dest {
        None => out.write_all(json.as_bytes())?,
        Some(path) => {
            if args.pipeline_checkout.is_some() {
                refuse_a_different_file(&path, &json)?;
            }
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| CliError::Input(format!("creating {}: {e}", parent.display())))?;
            }
            write_bytes(&path, json.as_bytes())
                .map_err(|e| CliError::Input(format!("writing {}: {e}", path.display())))?;
            writeln!(
                out,
                "wrote {} ({} probes, schema {}, engine {})",
                path.display(),
                corpus.rows.len(),
                corpus.schema,
                engine.version
            )?;
        }
    }
    Ok(())
}

/// The corpus's place in a checkout of the pipeline's repository, which must exist.
fn checkout_path(dir: &Path, schema: &str, version: &str) -> Result<PathBuf, CliError> {
    if !dir.is_dir() {
        return Err(CliError::Input(format!(
            "--pipeline-checkout {}: not a folder",
            dir.display()
        )));
    }
    let rel = pipeline_golden_path(schema, version).ok_or_else(|| {
        CliError::Input(format!(
            "--pipeline-checkout: the pipeline has no golden corpora for schema {schema} \
             (it has them for kcp-13, kcp-mobility-27-v1, kcp-mobility-pawns-31-v1 and \
             rich-9-v1); use --out"
        ))
    })?;
    Ok(dir.join(rel))
}

/// A committed corpus is evidence: never replace one that says something else.
fn refuse_a_different_file(path: &Path, json: &str) -> Result<(), CliError> {
    match std::fs::read(path) {
        Ok(old) if old != json.as_bytes() => Err(CliError::Input(format!(
            "{} exists with other contents; remove it first if it is really to be replaced",
            path.display()
        ))),
        _ => Ok(()),
    }
}
