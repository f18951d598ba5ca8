#!/usr/bin/env python3
"""Check a Parquet shard the way the training pipeline (fortemate/dicechess-training) reads it.

Run by tests/shards_pyarrow.rs. Uses pyarrow only (the pipeline's readers go through
`pyarrow.parquet.read_table` and take the metadata from `table.schema.metadata`, which is the
embedded Arrow schema's copy): a key that only sits in the Parquet footer fails here exactly
as it fails there. The checks mirror, in our own code, what the pipeline's `read_shard`,
`validate_frame`, `read_enriched_shard` and dataset export refuse:

* the schema marker `dicechess_training_schema` (`v0` base shard, `v0-enriched` enriched);
* the six base columns with their exact Arrow types, no nulls, non-empty `fen`, `ply` >= 0
  (ours count from 1), `side` in w/b and equal to the FEN's active colour, `result` in
  {0, 0.5, 1}, `dice` three letters of PNBRQK;
* for a feature schema: `feature_schema`, `ruleset`, `perspective` (and `engine_version` when
  given) in the metadata, the feature columns float32, finite, and exactly the schema's
  columns right after the base columns (the pipeline's layout check);
* `engine_version` readable from the Parquet footer (`pq.read_metadata`), as the export reads it.

Usage: check_shard.py SHARD [--marker v0|v0-enriched] [--feature-schema ID]
                            [--engine VERSION] [--columns a,b,c]
Prints `ok <rows>` and exits 0, or prints the first violation and exits 1.
"""

import argparse
import math
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

BASE = {
    "game_id": pa.string(),
    "ply": pa.int32(),
    "fen": pa.string(),
    "dice": pa.string(),
    "side": pa.string(),
    "result": pa.float32(),
}
RULESET = "standard-dicechess-v1"
PERSPECTIVE = "side-to-move"
PIECES = set("PNBRQK")

# The column layouts of the pipeline's three enriched-reader contracts.
KCP13 = (
    "p_diff", "n_diff", "b_diff", "r_diff", "q_diff", "material_diff", "total_material",
    "mobility_diff", "king_safety_diff", "king_capture_attack", "king_capture_danger",
    "queen_capture_attack", "queen_capture_danger",
)
MOBILITY27 = KCP13 + tuple(f"own_moves_{p}" for p in "pnbrqk") + tuple(
    f"opp_moves_{p}" for p in "pnbrqk") + ("own_pdi", "opp_pdi")
PAWNS31 = MOBILITY27 + (
    "own_passed_pawns", "opp_passed_pawns", "own_passed_max_rank", "opp_passed_max_rank")
CONTRACTS = {"kcp-13": KCP13, "kcp-mobility-27-v1": MOBILITY27, "kcp-mobility-pawns-31-v1": PAWNS31}


class Refused(Exception):
    pass


def need(cond, message):
    if not cond:
        raise Refused(message)


def check(path, marker, feature_schema, engine, columns):
    table = pq.read_table(path)
    meta = {k.decode(): v.decode() for k, v in (table.schema.metadata or {}).items()}
    found = meta.get("dicechess_training_schema", "")
    need(found == marker, f"shard schema version {found!r} != supported {marker!r}")
    for name, dtype in BASE.items():
        idx = table.schema.get_field_index(name)
        need(idx >= 0, f"missing column {name!r}")
        actual = table.schema.field(name).type
        need(actual == dtype, f"column {name!r} has type {actual}, expected {dtype}")
        need(table.column(name).null_count == 0, f"column {name!r} contains nulls")
    rows = table.num_rows
    fens = table.column("fen").to_pylist()
    sides = table.column("side").to_pylist()
    for fen, side in zip(fens, sides):
        need(fen.strip() != "", "column 'fen' contains empty strings")
        fields = fen.split()
        need(len(fields) in (4, 6), f"invalid canonical FEN: {fen}")
        need(side in ("w", "b"), f"side must be w or b, got {side!r}")
        need(side == fields[1], f"side {side!r} does not match FEN active color {fields[1]!r}")
        placement = fields[0]
        need(placement.count("K") <= 1 and placement.count("k") <= 1, f"bad kings: {fen}")
    need(pc.min(table.column("ply")).as_py() is None or pc.min(table.column("ply")).as_py() >= 1,
         "column 'ply' must count from 1")
    for r in set(table.column("result").to_pylist()):
        need(r in (0.0, 0.5, 1.0), f"result must be 0, 0.5 or 1 (mover perspective), got {r}")
    for dice in set(table.column("dice").to_pylist()):
        need(dice == dice.upper(), f"dice {dice!r} is not upper case")
        need(len(dice) == 3 and set(dice) <= PIECES, f"dice must be 3 letters of PNBRQK: {dice!r}")

    if feature_schema is not None:
        need(meta.get("feature_schema") == feature_schema,
             f"shard feature schema {meta.get('feature_schema')!r} != {feature_schema!r}")
        for key, want in (("ruleset", RULESET), ("perspective", PERSPECTIVE)):
            need(meta.get(key) == want, f"shard {key} {meta.get(key)!r} != expected {want!r}")
        expected = CONTRACTS.get(feature_schema) or tuple(columns or ())
        need(expected, f"no column list known for {feature_schema!r}; pass --columns")
        need(meta.get("columns") == ",".join(expected), f"columns key {meta.get('columns')!r}")
        layout = tuple(table.schema.names[len(BASE):])
        need(layout == expected, f"feature column layout {layout} != expected {expected}")
        for name in expected:
            col = table.column(name)
            need(col.type == pa.float32(), f"feature column {name!r} has type {col.type}")
            need(col.null_count == 0, f"column {name!r} contains nulls")
            need(all(math.isfinite(v) for v in col.to_pylist()), f"{name!r} is not finite")
    if engine is not None:
        need(meta.get("engine_version") == engine,
             f"shard engine version {meta.get('engine_version')!r} != expected {engine!r}")
    footer = pq.read_metadata(path).metadata or {}
    need(b"engine_version" in footer, "shard metadata missing engine_version (Parquet footer)")
    need(footer.get(b"dicechess_training_schema", b"").decode() == marker,
         "the Parquet footer lacks the schema marker")
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("shard")
    ap.add_argument("--marker", default="v0")
    ap.add_argument("--feature-schema")
    ap.add_argument("--engine")
    ap.add_argument("--columns")
    a = ap.parse_args()
    columns = a.columns.split(",") if a.columns else None
    try:
        rows = check(a.shard, a.marker, a.feature_schema, a.engine, columns)
    except Refused as e:
        print(f"{a.shard}: {e}")
        sys.exit(1)
    print(f"ok {rows}")


if __name__ == "__main__":
    main()
