"""The command's files from Python: numbers printed as the command prints
them, ids escaped as it escapes them, its result files read back into the
same arrays and written back byte for byte, trajectories read as it reads
them."""
import io
import json
import os
import re

import numpy as np
import pytest

import ballcast
from ballcast import _files
from conftest import REPO, ROOM, THROWS, run_cli
from test_cast import CASES


def _doubles():
    """Doubles from the subnormals to 1e100: random bit patterns, the edges
    of the plain style (decimal exponents -5 and 16), integers, -0. (Balls
    moving much farther than 1e100 times their radius are not found
    overlapping by the library, so their velocities are not printed.)"""
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 0x54B249AD2594C37D, 2000, dtype=np.int64)  # up to 1e100, positive
    values = bits.view(np.float64).tolist()
    values += (rng.random(500) * 10.0 ** rng.integers(-8, 20, 500)).tolist()
    for e in range(-8, 20):
        values += [10.0 ** e, 1.5 * 10.0 ** e, 9.999999999999999 * 10.0 ** e, 123456789.0 * 10.0 ** (e - 8)]
    values += [5e-324, 2.2250738585072014e-308, 1e99, 0.1, 0.3, 2 / 3, 1e23, 123456789012345680.0,
               9007199254740993.0, 0.0, 1.0, 100.0, 1e16, 1e17, 12345678901234567.0]
    return values + [-v for v in values[::7]]


def test_numbers_as_the_command_prints_them(tmp_path):
    """Balls all starting at the origin overlap at alpha 0, so the command
    prints each ball's p1 back as its velocity_before: the command's own
    printing of any double, set beside format_double's."""
    values = _doubles()
    values += [0.0] * (-len(values) % 3)
    triples = [values[k:k + 3] for k in range(0, len(values), 3)]
    with open(tmp_path / "balls.ndjson", "w") as f:
        for t in triples:
            f.write('{"p0":[0,0,0],"p1":[%s],"r":1}\n' % ",".join(repr(v) for v in t))
    out = run_cli("balls", "-q", "-f", "ndjson", str(tmp_path / "balls.ndjson"))
    printed = re.findall(r'"velocity_before":\[([^\]]*)\]', out)
    assert len(printed) == len(triples)
    for t, line in zip(triples, printed):
        assert [_files.format_double(v) for v in t] == line.split(","), (t, line)
        assert [float(x) for x in line.split(",")] == t  # and it reads back the same


def test_format_double_style():
    cases = {0.001: "0.001", 1e-05: "0.00001", 1e-06: "1e-06", 123.0: "123", -0.0: "-0",
             1.5: "1.5", 1e16: "10000000000000000", 1e17: "1e+17", 1.25e300: "1.25e+300", 1e-07: "1e-07",
             5e-324: "5e-324", float("nan"): "null", float("inf"): "null"}
    for value, text in cases.items():
        assert _files.format_double(value) == text, value


IDS = ['plain', 'with "quotes"', "back\\slash", "tab\there", "new\nline", "bell\x07", "del\x7f", "c1\u0085",
       "caf\u00e9 \u2603 \U0001F600", "=SUM(A1)", "+1", "-x", "@cmd", "'=already", "''+twice", "comma,here",
       " leading", "\rcr", "", "7"]


@pytest.mark.parametrize("fmt", ["ndjson", "csv", "json"])
def test_ids_as_the_command_writes_them(room, tmp_path, fmt):
    """Ids with every kind of character: escaped in JSON, quoted and kept
    from spreadsheets' formulas in CSV, as the command does; read back."""
    records = [{"id": name, "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25} for name in IDS]
    records += [{"id": 7.50, "p0": [1, 1, 2], "p1": [1, 1, -1], "r": 0.25}, {"p0": [0, 0, 1], "p1": [0, 0, 1], "r": 1}]
    path = tmp_path / "ids.json"
    text = json.dumps(records).replace("7.5,", "7.50,")
    path.write_text(text, encoding="utf-8")
    expected = run_cli("cast", "-q", ROOM, str(path), "-f", fmt)
    trajectories = ballcast.read_trajectories(str(path))
    assert trajectories.ids[len(IDS)] == 7.5 and trajectories.ids.text[len(IDS)] == "7.50"
    result = room.cast_trajectories(trajectories)
    result.mesh_info["file"] = ROOM
    assert result.to_text(fmt) == expected
    back = ballcast.read_results(io.StringIO(expected), fmt)
    assert back.to_text(fmt) == expected
    if fmt != "csv":  # CSV cannot tell the id "7" from the number 7
        assert back.ids.text.tolist() == trajectories.ids.text.tolist()
        assert back.ids.number.tolist() == trajectories.ids.number.tolist()


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv"])
@pytest.mark.parametrize("args,options", CASES, ids=[" ".join(a) or "defaults" for a, _ in CASES])
def test_results_read_back(args, options, fmt):
    """The command's result file read back and written again: the same bytes;
    and the arrays are the ones a cast gives."""
    expected = run_cli("cast", "-q", ROOM, THROWS, "-f", fmt, *args)
    back = ballcast.read_results(io.StringIO(expected), fmt)
    assert back.to_text(fmt) == expected
    # the format told by the text (a JSON document starts with { as NDJSON does)
    assert ballcast.read_results(io.StringIO(expected)).to_text(fmt) == expected
    with ballcast.Mesh.from_obj(ROOM) as room:
        t = ballcast.read_trajectories(THROWS)
        cast = room.cast(t.p0, t.p1, t.r, **options)
    assert np.array_equal(back.hit, cast.hit) and np.array_equal(back.triangle, cast.triangle)
    assert np.array_equal(back.alpha.view(np.uint64), cast.alpha.view(np.uint64))
    assert np.array_equal(back.vertices, cast.vertices) and np.array_equal(back.feature, cast.feature)
    if fmt != "csv" and cast.ties is not None:
        assert np.array_equal(back.ties.first, cast.ties.first)
        assert np.array_equal(back.ties.alpha, cast.ties.alpha)


def test_bad_records_as_the_command(room, tmp_path):
    """Records that cannot be read are answered in place with the command's
    messages, the others answered."""
    lines = ['{"id":"a","p0":[0,0,0],"p1":[1,1,1]}', '{"id":"b","p0":[0,0,0],"r":0.1}',
             '{"id":"c","p0":[0,0],"p1":[1,1,1],"r":0.1}', '{"id":"d","p0":[0,0,0],"p1":[1,1,1],"r":-1}',
             '{"id":"e","p0":[0,0,0],"p1":[1,1,1],"r":"x"}', '{"id":"f","p0":[0,0,0],"p1":[1,1,1e60],"r":1}',
             '{"id":true,"p0":[0,0,0],"p1":[1,1,1],"r":1}', '{"id":"g","p0":[1,1,2],"p1":[1,1,-1],"r":0.25}']
    path = tmp_path / "bad.ndjson"
    path.write_text("\n".join(lines) + "\n")
    expected = run_cli("cast", "-q", ROOM, str(path), "-f", "ndjson")
    t = ballcast.read_trajectories(str(path))
    assert len(t.errors) == 6  # and "f" is refused by the cast
    assert room.cast_trajectories(t).to_text("ndjson") == expected
    back = ballcast.read_results(io.StringIO(expected))
    assert sorted(back.errors) == list(range(7)) and back.hit.tolist() == [False] * 7 + [True]


def test_trajectory_formats_agree(tmp_path):
    """The samples as JSON and as CSV read the same; a radius given for
    records without one (radius=) as -r does."""
    json_form = ballcast.read_trajectories(THROWS)
    csv_form = ballcast.read_trajectories(os.path.join(REPO, "samples", "throws.csv"))
    assert np.array_equal(json_form.p0, csv_form.p0) and np.array_equal(json_form.r, csv_form.r)
    assert json_form.ids.text.tolist()[:3] == csv_form.ids.text.tolist()[:3]
    ndjson = tmp_path / "t.ndjson"
    ndjson.write_text('{"p0":[1,1,2],"p1":[1,1,-1]}\n\n{"p0":[1,1,2],"p1":[1,1,-1],"radius":0.5,"r":0.25}\n')
    t = ballcast.read_trajectories(str(ndjson), radius=0.1)
    assert t.r.tolist() == [0.1, 0.25] and not t.errors  # r before radius, as the command reads it
    assert '"alpha":0.5833333333333334' in run_cli("cast", "-q", "-r", "0.1", ROOM, str(ndjson), "-f", "ndjson")
    assert ballcast.read_trajectories(io.StringIO("")).r.shape == (0,)


def test_write_to_a_file(room, throws, tmp_path):
    """result.write(path): the format from the extension, through a
    temporary file renamed into place, as cast -o."""
    result = room.cast_trajectories(throws)
    for name in ("r.json", "r.ndjson", "r.jsonl", "r.csv"):
        result.write(str(tmp_path / name))
        fmt = {"json": "json", "ndjson": "ndjson", "jsonl": "ndjson", "csv": "csv"}[name.split(".")[1]]
        assert (tmp_path / name).read_text() == result.to_text(fmt)
    assert sorted(os.listdir(tmp_path)) == ["r.csv", "r.json", "r.jsonl", "r.ndjson"]
    with pytest.raises(ValueError, match="format must be one of"):
        result.to_text("xml")
