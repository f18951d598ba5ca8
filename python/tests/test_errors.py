"""Bad input raises ValueError with the engine's message (the CLI's, without "error: ")."""

from __future__ import annotations

import pytest

import dicechess

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def cli_message(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr)
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ")
    return line[len("error: "):]


@pytest.mark.parametrize(
    "dfen",
    [
        START,  # no dice
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1 PNB",
        "not a dfen",
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN7",
        "\u00e9" * 5000,
    ],
)
def test_turns_and_bestmove_refuse_bad_dfens_as_the_cli(cli, dfen):
    expected = cli_message(cli("turns", dfen))
    with pytest.raises(ValueError) as e:
        dicechess.legal_turns(dfen)
    assert str(e.value) == expected
    with pytest.raises(ValueError) as e:
        dicechess.bestmove(dfen, "greedy")
    assert str(e.value) == expected


def test_probe_refuses_a_bad_dfen_as_the_cli(cli):
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"
    expected = cli_message(cli("probe", bad))
    assert expected.startswith("bad DFEN: fullmove")
    with pytest.raises(ValueError) as e:
        dicechess.probe(bad)
    assert str(e.value) == expected


def test_a_bad_position_in_a_batch_is_named_by_index():
    with pytest.raises(ValueError, match=r"^dfens\[1\]: bad DFEN: side: expected 'w' or 'b'"):
        dicechess.features([START, "4k3/8/8/8/8/8/8/4K3 x - - 0 1"], "kcp-13")
    with pytest.raises(ValueError, match=r"^dfens\[0\]: bad DFEN: fields"):
        dicechess.evaluate(["nonsense"])
    with pytest.raises(TypeError):
        dicechess.features(START, "kcp-13")


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match=r'^unknown feature schema "nope" \(known: material-7-v1, '):
        dicechess.features([START], "nope")
    with pytest.raises(ValueError, match=r'^unknown feature schema "nope"'):
        dicechess.feature_columns("nope")
    with pytest.raises(ValueError, match=r'^bot: unknown bot "nope"; known: random, '):
        dicechess.bestmove(START + " PNB", "nope")


def test_a_missing_model_package_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match=r"^model "):
        dicechess.evaluate([START], model=tmp_path / "absent")


def test_selfplay_refuses_bad_settings_as_the_cli(cli, tmp_path):
    cases = [
        (["--shard", "2/2"], dict(shard="2/2")),
        (["--features", "nope"], dict(features="nope")),
        (["--white", "nope"], dict(white="nope")),
        (["--max-turns", "0"], dict(max_turns=0)),
        (["--threads", "0"], dict(threads=0)),
        (["--start", "bad"], dict(start="bad")),
    ]
    for k, (args, kw) in enumerate(cases):
        expected = cli_message(
            cli("selfplay", "--games", 2, "--out", tmp_path / f"cli{k}", *args)
        )
        with pytest.raises(ValueError) as e:
            dicechess.selfplay(tmp_path / f"py{k}", 2, **kw)
        assert str(e.value) == expected, args


def test_merge_refuses_what_the_cli_refuses(cli, tmp_path):
    a = tmp_path / "a"
    dicechess.selfplay(a, 4, shard_games=2, shard="0/2")
    expected = cli_message(cli("merge", a, a, "--out", tmp_path / "cli"))
    with pytest.raises(ValueError) as e:
        dicechess.merge([a, a], tmp_path / "py")
    assert str(e.value) == expected
    (a / "shard-00000.games.jsonl").write_text("tampered\n")
    expected = cli_message(cli("merge", a, "--out", tmp_path / "cli2"))
    with pytest.raises(ValueError) as e:
        dicechess.merge([a], tmp_path / "py2")
    assert str(e.value) == expected
    assert "shard 0" in expected


def test_out_of_range_numbers_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match=r"^games: must be between 0 and "):
        dicechess.selfplay(tmp_path / "a", -1)
    with pytest.raises(ValueError, match=r"^halfmove_limit: must be between 0 and 255, found 256"):
        dicechess.selfplay(tmp_path / "a", 1, halfmove_limit=256)
    with pytest.raises(ValueError, match=r"^time_ms: must be between 0 and "):
        dicechess.bestmove(START + " PNB", "greedy", time_ms=-5)
    with pytest.raises(TypeError, match=r"^games: expected an integer"):
        dicechess.selfplay(tmp_path / "a", "3")
    assert not (tmp_path / "a").exists()
