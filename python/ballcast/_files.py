"""The command's files from Python: trajectories in, results in and out.

Writers produce the bytes ``ballcast cast|closest|balls --format F`` writes
(numbers in the shortest form that reads back as the same double, in the
command's style: plain digits for decimal exponents -5 to 16, else 1e-07,
1.25e+300; strings escaped as the command escapes them; CSV cells quoted as
RFC 4180 says, with the OWASP rule against formulas). Readers take the
command's JSON document, NDJSON and CSV back into the same arrays a cast
gives.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, TextIO, Tuple, Union

import numpy as np

from . import _lib
from ._results import (FEATURE_CODES, HIT, INITIAL_OVERLAP, INVALID, MISS, TEXT_WRITERS, CastResult, Ids, Ties)

FORMATS = ("json", "ndjson", "csv")

# ---------------------------------------------------------------- numbers


def format_double(x: float) -> str:
    """x as the command prints it: the shortest decimal that reads back as
    x (repr's digits), plain when the decimal exponent e of d.ddd x 10^e is
    in -5 <= e < 17 ("0.001", "123", "-0"), else scientific with a signed
    exponent of at least two digits ("1e-07", "1.25e+300"); "null" when not
    finite."""
    r = repr(float(x))
    if "e" not in r:
        if r[-2:] == ".0":
            return r[:-2]
        if r[-1] in "fn":  # inf, nan
            return "null"
        return r
    return _reformat(r)


def _reformat(r: str) -> str:
    mantissa, _, exponent = r.partition("e")
    sign = ""
    if mantissa[0] == "-":
        sign, mantissa = "-", mantissa[1:]
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent) - (len(whole + fraction) - len((whole + fraction).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    e = point - 1
    if -5 <= e < 17:
        if point <= 0:
            return sign + "0." + "0" * -point + digits
        if point >= len(digits):
            return sign + digits + "0" * (point - len(digits))
        return sign + digits[:point] + "." + digits[point:]
    text = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return "%s%se%s%02d" % (sign, text, "-" if e < 0 else "+", abs(e))


# ---------------------------------------------------------------- strings

_C1 = re.compile("[\u0080-\u009f]")


def _escape_char(m: "re.Match[str]") -> str:
    c = m.group(0)
    return {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c, "\\u%04x" % ord(c))


_JSON_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f\u0080-\u009f]')


def json_string(text: str) -> str:
    """text as the command writes a JSON string: '"' and '\\' escaped, \\n
    \\r \\t, every other control character (C0, DEL, C1) as \\u00XX."""
    return '"' + _JSON_ESCAPE.sub(_escape_char, text) + '"'


_FORMULA_STARTS = "=+-@\t\r"


def _starts_like_formula(text: str) -> bool:
    rest = text.lstrip("'")
    return rest != "" and rest[0] in _FORMULA_STARTS


def csv_field(text: str) -> str:
    """text as the command writes a CSV text cell: quoted when it holds a
    comma, a quote or a line end (or starts with a blank), one more leading '
    when a spreadsheet would take it for a formula."""
    if text == "":
        return ""
    prefix = "'" if _starts_like_formula(text) else ""
    if not any(c in text for c in ',"\r\n') and text[0] != " ":
        return prefix + text
    return '"' + prefix + text.replace('"', '""') + '"'


def _csv_id_back(text: str) -> str:
    """An id cell as read back: the ' ballcast wrote before a formula-like id dropped."""
    if text[:1] == "'" and _starts_like_formula(text[1:]):
        return text[1:]
    return text


_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")


# ---------------------------------------------------------------- writing

def _id_writers(ids: Optional[Ids], n: int) -> Tuple[List[str], List[str]]:
    """Each record's id as JSON and as a CSV cell."""
    if ids is None:
        text = [str(i) for i in range(n)]
        return text, text
    as_json = [t if number else json_string(t) for t, number in zip(ids.text.tolist(), ids.number.tolist())]
    as_csv = [t if number else csv_field(t) for t, number in zip(ids.text.tolist(), ids.number.tolist())]
    return as_json, as_csv


def _vec_json(v) -> str:
    return "[%s,%s,%s]" % (format_double(v[0]), format_double(v[1]), format_double(v[2]))


def _vec_csv(v) -> str:
    return "%s,%s,%s" % (format_double(v[0]), format_double(v[1]), format_double(v[2]))


def _bool(b) -> str:
    return "true" if b else "false"


def _error_record(format: str, id_json: str, id_csv: str, message: str, empty: int, after: int = 0) -> str:
    """A record that could not be answered: its id and error only (CSV: the
    empty cells between them, and after the error)."""
    if format == "csv":
        return ",".join([id_csv] + [""] * empty + [csv_field(message)] + [""] * after)
    return '{"id":%s,"error":%s}' % (id_json, json_string(message))


def _frame(format: str, head: str, records: Iterable[str], summary: str) -> str:
    """The records framed as the command frames them."""
    if format == "ndjson":
        return "".join(r + "\n" for r in records)
    if format == "csv":
        return head + "".join(r + "\n" for r in records)
    parts = [head]
    count = 0
    for r in records:
        parts.append(("\n" if count == 0 else ",\n") + r)
        count += 1
    if count > 0:
        parts.append("\n")
    parts.append("],\n\"summary\":{" + summary + "}}\n")
    return "".join(parts)


def _json_head(mesh_info: Optional[Dict[str, Any]], settings: str, mesh: bool = True) -> str:
    head = '{"ballcast":"%s"' % _lib.VERSION
    if mesh:
        info = mesh_info or {}
        file = info.get("file")
        head += ',"mesh":{"file":%s,"vertices":%d,"triangles":%d,"faces":%d,"degenerate":%d}' % (
            "null" if file is None else json_string(str(file)), info.get("vertices", 0), info.get("triangles", 0),
            info.get("faces", 0), info.get("degenerate", 0))
    return head + ',"settings":{' + settings + '},\n"results":['


def cast_text(result: CastResult, format: str = "ndjson") -> str:
    """The text ``ballcast cast --format format`` writes for these answers."""
    format = _lib.choice(format, "format", FORMATS)
    s = result.settings
    ties = result.ties is not None and s.get("ties", True)
    discrete = s.get("method") == "discrete" or result.alpha_free is not None
    compare = result.exact_alpha is not None
    n = len(result)
    ids_json, ids_csv = _id_writers(result.ids, n)
    raw = result.raw
    state = raw["state"].tolist()
    alpha = raw["alpha"].tolist()
    alpha_free = result.alpha_free.tolist() if discrete and result.alpha_free is not None else None
    exact = result.exact_alpha.tolist() if compare else None
    first = result.ties.first.tolist() if ties else None
    errors = result.errors
    hits = 0
    tunnelled = 0

    def contacts_json(i: int) -> str:
        rows = result.ties._raw[first[i]:first[i + 1]]
        return "[" + ",".join(
            '{"triangle":%d,"feature":"%s","vertices":[%s],"alpha":%s,"normal":%s}' % (
                t["triangle"], _lib.FEATURE_NAMES[t["feature"]],
                ",".join(str(v) for v in t["vertices"][:t["vertex_count"]].tolist()),
                format_double(t["alpha"]), _vec_json(t["normal"].tolist())) for t in rows) + "]"

    def contacts_csv(i: int) -> str:
        rows = result.ties._raw[first[i]:first[i + 1]]
        return " ".join("%d:%s" % (t["triangle"], _lib.FEATURE_NAMES[t["feature"]]) for t in rows)

    def records() -> Iterator[str]:
        nonlocal hits, tunnelled
        for i in range(n):
            if i in errors:
                yield _error_record(format, ids_json[i], ids_csv[i], errors[i], 21, ties + compare + discrete)
                continue
            hit = state[i] == HIT or state[i] == INITIAL_OVERLAP
            hits += hit
            r = raw[i] if hit else None
            if compare and exact[i] == exact[i] and not hit:
                tunnelled += 1
            if format == "csv":
                cells = [ids_csv[i], _bool(hit), format_double(alpha[i])]
                if hit:
                    count = int(r["vertex_count"])
                    vertices = [str(v) for v in r["vertices"][:count].tolist()] + [""] * (3 - count)
                    cells += [_bool(state[i] == INITIAL_OVERLAP), _lib.FEATURE_NAMES[r["feature"]],
                              str(r["triangle"]), str(r["face"])] + vertices + [
                        _vec_csv(r["point"].tolist()), _vec_csv(r["center"].tolist()),
                        _vec_csv(r["normal"].tolist()), _vec_csv(r["triangle_normal"].tolist())]
                else:
                    cells += [""] * 19
                cells.append("")  # error
                if ties:
                    cells.append(contacts_csv(i) if hit else "")
                if compare:
                    cells.append(format_double(exact[i]) if exact[i] == exact[i] else "")
                if discrete:
                    cells.append(format_double(alpha_free[i]))
                yield ",".join(cells)
                continue
            parts = ['{"id":', ids_json[i], ',"hit":', _bool(hit), ',"alpha":', format_double(alpha[i])]
            if hit:
                count = int(r["vertex_count"])
                parts += [',"initial_overlap":', _bool(state[i] == INITIAL_OVERLAP),
                          ',"feature":"', _lib.FEATURE_NAMES[r["feature"]],
                          '","triangle":', str(r["triangle"]), ',"face":', str(r["face"]),
                          ',"vertices":[', ",".join(str(v) for v in r["vertices"][:count].tolist()),
                          '],"point":', _vec_json(r["point"].tolist()),
                          ',"center":', _vec_json(r["center"].tolist()),
                          ',"normal":', _vec_json(r["normal"].tolist()),
                          ',"triangle_normal":', _vec_json(r["triangle_normal"].tolist())]
            if ties:
                parts += [',"ties":', contacts_json(i) if hit else "[]"]
            if compare:
                parts += [',"exact_alpha":', format_double(exact[i]) if exact[i] == exact[i] else "null"]
            if discrete:
                parts += [',"alpha_free":', format_double(alpha_free[i])]
            parts.append("}")
            yield "".join(parts)

    if format == "csv":
        head = ("id,hit,alpha,initial_overlap,feature,triangle,face,vertex_0,vertex_1,vertex_2,point_x,point_y,"
                "point_z,center_x,center_y,center_z,normal_x,normal_y,normal_z,triangle_normal_x,"
                "triangle_normal_y,triangle_normal_z,error")
        head += ",ties" * ties + ",exact_alpha" * compare + ",alpha_free" * discrete + "\n"
    else:
        settings = '"two_sided":%s,"approach":"%s","initial_overlap":"%s","normal":"%s","tie_tolerance":%s' % (
            _bool(s.get("two_sided", False)), s.get("approach", "le"), s.get("initial_overlap", "report"),
            s.get("normal", "contact"), format_double(s.get("tie_tolerance", 1e-10)))
        if discrete:
            settings += ',"method":"discrete","dt":%s,"bisect":%d,"compare_exact":%s' % (
                format_double(s.get("dt", math.nan)), s.get("bisect", 5), _bool(compare))
        head = _json_head(result.mesh_info, settings)
    body = list(records())
    summary = '"records":%d,"hits":%d,"errors":%d' % (n, hits, len(errors))
    if compare:
        summary += ',"tunnelled":%d' % tunnelled
    return _frame(format, head, body, summary)


def closest_text(result, format: str = "ndjson") -> str:
    """The text ``ballcast closest --format format`` writes for these answers."""
    format = _lib.choice(format, "format", FORMATS)
    n = len(result)
    ids_json, ids_csv = _id_writers(result.ids, n)
    raw = result.raw
    overlaps = 0
    records: List[str] = []
    for i in range(n):
        if i in result.errors:
            records.append(_error_record(format, ids_json[i], ids_csv[i], result.errors[i], 18))
            continue
        r = raw[i]
        overlaps += bool(r["overlap"])
        count = int(r["vertex_count"])
        vertices = [str(v) for v in r["vertices"][:count].tolist()]
        if format == "csv":
            records.append(",".join([ids_csv[i], format_double(r["distance"]), _vec_csv(r["point"].tolist()),
                                     str(r["triangle"]), str(r["face"]), _lib.FEATURE_NAMES[r["feature"]]]
                                    + vertices + [""] * (3 - count)
                                    + [_vec_csv(r["normal"].tolist()), _bool(r["overlap"]),
                                       format_double(r["depth"]), _vec_csv(r["barycentric"].tolist()), ""]))
        else:
            records.append(
                '{"id":%s,"distance":%s,"point":%s,"triangle":%d,"face":%d,"feature":"%s","vertices":[%s],'
                '"normal":%s,"overlap":%s,"depth":%s,"barycentric":%s}' % (
                    ids_json[i], format_double(r["distance"]), _vec_json(r["point"].tolist()), r["triangle"],
                    r["face"], _lib.FEATURE_NAMES[r["feature"]], ",".join(vertices), _vec_json(r["normal"].tolist()),
                    _bool(r["overlap"]), format_double(r["depth"]), _vec_json(r["barycentric"].tolist())))
    if format == "csv":
        head = ("id,distance,point_x,point_y,point_z,triangle,face,feature,vertex_0,vertex_1,vertex_2,normal_x,"
                "normal_y,normal_z,overlap,depth,bary_u,bary_v,bary_w,error\n")
    else:
        head = _json_head(result.mesh_info, '"tie_tolerance":%s' % format_double(
            float(_lib.lib.BC_DISTANCE_TIE_TOLERANCE)))
    return _frame(format, head, records, '"records":%d,"overlaps":%d,"errors":%d' % (
        n, overlaps, len(result.errors)))


def balls_text(result, format: str = "ndjson") -> str:
    """The text ``ballcast balls --format format`` writes for these answers."""
    format = _lib.choice(format, "format", FORMATS)
    n = len(result)
    ids_json, ids_csv = _id_writers(result.ids, n)
    raw = result.raw
    hits = 0
    records: List[str] = []
    for i in range(n):
        if i in result.errors:
            records.append(_error_record(format, ids_json[i], ids_csv[i], result.errors[i], 16))
            continue
        r = raw[i]
        hit = bool(result.hit[i])
        hits += hit
        if not hit:
            records.append(",".join([ids_csv[i], "false", format_double(r["alpha"])] + [""] * 15)
                           if format == "csv" else
                           '{"id":%s,"hit":false,"alpha":%s}' % (ids_json[i], format_double(r["alpha"])))
            continue
        other = int(r["other"])
        if format == "csv":
            records.append(",".join([ids_csv[i], "true", format_double(r["alpha"]), ids_csv[other],
                                     _bool(result.initial_overlap[i]), _vec_csv(r["point"].tolist()),
                                     _vec_csv(r["normal"].tolist()), _vec_csv(r["velocity_before"].tolist()),
                                     _vec_csv(r["velocity_after"].tolist()), ""]))
        else:
            records.append(
                '{"id":%s,"hit":true,"alpha":%s,"other":%s,"initial_overlap":%s,"point":%s,"normal":%s,'
                '"velocity_before":%s,"velocity_after":%s}' % (
                    ids_json[i], format_double(r["alpha"]), ids_json[other], _bool(result.initial_overlap[i]),
                    _vec_json(r["point"].tolist()), _vec_json(r["normal"].tolist()),
                    _vec_json(r["velocity_before"].tolist()), _vec_json(r["velocity_after"].tolist())))
    if format == "csv":
        head = ("id,hit,alpha,other,initial_overlap,point_x,point_y,point_z,normal_x,normal_y,normal_z,"
                "velocity_before_x,velocity_before_y,velocity_before_z,velocity_after_x,velocity_after_y,"
                "velocity_after_z,error\n")
    else:
        head = _json_head(None, '"tie_tolerance":%s' % format_double(float(_lib.lib.BC_ALPHA_TIE_TOLERANCE)),
                          mesh=False)
    return _frame(format, head, records, '"records":%d,"hits":%d,"errors":%d' % (n, hits, len(result.errors)))


TEXT_WRITERS.update(cast=cast_text, closest=closest_text, balls=balls_text)


# ---------------------------------------------------------------- reading

class _Number(float):
    """A JSON number that remembers how it was written (ids are echoed so)."""
    text: str

    def __new__(cls, text: str):
        try:
            value = float(text)
        except OverflowError:
            value = math.inf
        self = super().__new__(cls, value)
        self.text = text
        return self


def _json_loads(text: str):
    """Parse JSON as the command reads it: the first of duplicate keys wins,
    NaN and Infinity refused; a numeric id keeps its text (7.50 stays 7.50).
    Numbers are parsed by json's C scanner; only a text with an id written
    as a fraction or -0 is parsed again keeping every number's text."""
    value = _FAST.decode(text)
    if _float_id(value) or _MINUS_ZERO_ID.search(text):
        value = _SLOW.decode(text)
    return value


def _float_id(value: Any) -> bool:
    if isinstance(value, dict) and isinstance(value.get("results"), list):
        value = value["results"]
    items = value if isinstance(value, list) else [value]
    return any(isinstance(x, dict) and isinstance(x.get("id"), float) for x in items)


_MINUS_ZERO_ID = re.compile(r'"id"\s*:\s*-0(?![0-9.eE])')


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _refuse_constant(name: str):
    raise ValueError("NaN and Infinity are not JSON numbers")


def _first_key_wins(pairs):
    out: Dict[str, Any] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


_FAST = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=_first_key_wins)
_SLOW = json.JSONDecoder(parse_float=_Number, parse_int=_Number, parse_constant=_refuse_constant,
                         object_pairs_hook=_first_key_wins)


def _open_text(source: Union[str, "os.PathLike[str]", TextIO]) -> Tuple[str, str]:
    """(name, whole text) of a path or an open text file."""
    if hasattr(source, "read"):
        return getattr(source, "name", "<stream>"), source.read()
    name = os.fspath(source)
    with open(name, encoding="utf-8-sig", newline="") as f:
        return str(name), f.read()


def _sniff(text: str, format: str) -> str:
    if format != "auto":
        return _lib.choice(format, "format", ("json", "ndjson", "csv"))
    start = text.lstrip(" \t\r\n\ufeff")[:1]
    return "json" if start == "[" else "ndjson" if start == "{" else "csv"


def _json_records(text: str, format: str, name: str) -> Iterator[Tuple[int, Any]]:
    """(line, object or error text) of each record of a JSON array, a
    cast-style document (its results) or NDJSON."""
    if format == "ndjson":
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line:
                continue
            try:
                yield number, _json_loads(line)
            except ValueError as e:
                yield number, "invalid JSON: %s" % (e.args[0] if e.args else e)
        return
    try:
        document = _json_loads(text)
    except ValueError as e:
        raise ValueError("%s: not a JSON document: %s" % (name, e)) from None
    if isinstance(document, dict) and isinstance(document.get("results"), list):
        document = document["results"]
    if not isinstance(document, list):
        raise ValueError("%s: expected a JSON array of records (or ballcast's document)" % name)
    for item in document:
        yield 0, item


def _id_of(record: Dict[str, Any], index: int) -> Tuple[str, bool]:
    if "id" not in record:
        return str(index), True
    value = record["id"]
    if isinstance(value, str):
        return value, False
    if isinstance(value, _Number):
        return value.text, True
    if _is_number(value):
        return (str(value) if isinstance(value, int) else repr(value)), True
    raise ValueError("id: expected a string or a number")


def _vec3(value: Any, key: str) -> List[float]:
    if not isinstance(value, list) or len(value) != 3 or not all(_is_number(v) for v in value):
        raise ValueError("%s: expected an array of 3 numbers" % key)
    return [float(v) for v in value]


class Trajectories(NamedTuple):
    """Trajectories read from a file: ids, p0 (n, 3), p1 (n, 3), r (n,); a
    record that could not be read has NaNs and its message in errors."""
    ids: Ids
    p0: np.ndarray
    p1: np.ndarray
    r: np.ndarray
    errors: Dict[int, str]


def read_trajectories(source: Union[str, "os.PathLike[str]", TextIO], format: str = "auto",
                      radius: Optional[float] = None) -> Trajectories:
    """Read trajectories as ``ballcast cast`` does: a JSON array, NDJSON or
    CSV (format "auto": by the first byte that is not blank) of records
    with id (optional: the 0-based record number), p0, p1 and r (or
    radius; radius= for records without one). A record that cannot be read
    is kept in its place with NaNs, its message in errors (cast it with
    errors="mark")."""
    name, text = _open_text(source)
    format = _sniff(text, format)
    ids: List[str] = []
    numeric: List[bool] = []
    rows: List[Tuple[float, ...]] = []
    errors: Dict[int, str] = {}
    nan7 = (math.nan,) * 7

    def add(i: int, id_text: str, is_number: bool, row, problem: Optional[str]) -> None:
        ids.append(id_text)
        numeric.append(is_number)
        rows.append(row if problem is None else nan7)
        if problem is not None:
            errors[i] = problem

    if format == "csv":
        reader = csv.reader(io.StringIO(text))
        header = next(reader, None)
        if header is None:
            return _trajectories(ids, numeric, rows, errors)
        header = [h.strip() for h in header]
        col = {h: k for k, h in reversed(list(enumerate(header)))}
        if "r" not in col and "radius" in col:
            col["r"] = col["radius"]
        for i, cells in enumerate(reader):
            id_text, is_number = (_csv_id_back(cells[col["id"]]), False) if "id" in col and col["id"] < len(
                cells) and cells[col["id"]] != "" else (str(i), True)
            if "id" in col and _JSON_NUMBER.match(id_text):
                is_number = True
            try:
                values = []
                for key in ("x0", "y0", "z0", "x1", "y1", "z1", "r"):
                    if key not in col or col[key] >= len(cells) or cells[col[key]].strip() == "":
                        if key == "r" and radius is not None:
                            values.append(float(radius))
                            continue
                        raise ValueError("missing r (give it per record or with --radius)" if key == "r"
                                         else "missing %s" % key)
                    try:
                        values.append(float(cells[col[key]]))
                    except ValueError:
                        raise ValueError("%s: expected a number" % key) from None
                    if key == "r" and values[-1] < 0:
                        raise ValueError("%s: must not be negative" % header[col["r"]])
                add(i, id_text, is_number, tuple(values), None)
            except ValueError as e:
                add(i, id_text, is_number, None, str(e))
        return _trajectories(ids, numeric, rows, errors)

    for i, (line, record) in enumerate(_json_records(text, format, name)):
        if isinstance(record, str):
            add(i, str(i), True, None, record)
            continue
        if not isinstance(record, dict):
            add(i, str(i), True, None, "expected an object")
            continue
        try:
            id_text, is_number = _id_of(record, i)
        except ValueError as e:
            add(i, str(i), True, None, str(e))
            continue
        try:
            if "p0" not in record:
                raise ValueError("missing p0")
            p0 = _vec3(record["p0"], "p0")
            if "p1" not in record:
                raise ValueError("missing p1")
            p1 = _vec3(record["p1"], "p1")
            key = "r" if "r" in record else "radius" if "radius" in record else None
            if key is None:
                if radius is None:
                    raise ValueError("missing r (give it per record or with --radius)")
                r = float(radius)
            else:
                if not _is_number(record[key]):
                    raise ValueError("%s: expected a number" % key)
                r = float(record[key])
                if r < 0:
                    raise ValueError("%s: must not be negative" % key)
            add(i, id_text, is_number, (*p0, *p1, r), None)
        except ValueError as e:
            add(i, id_text, is_number, None, str(e))
    return _trajectories(ids, numeric, rows, errors)


def _trajectories(ids, numeric, rows, errors) -> Trajectories:
    data = np.array(rows, dtype=np.float64).reshape(len(rows), 7)
    return Trajectories(Ids(np.array(ids, dtype=str), np.array(numeric, dtype=bool)), data[:, 0:3], data[:, 3:6],
                        data[:, 6], errors)


def read_results(source: Union[str, "os.PathLike[str]", TextIO], format: str = "auto") -> CastResult:
    """Read what ``ballcast cast`` wrote (its JSON document, NDJSON or CSV;
    format "auto" by the first byte) into a CastResult: the same arrays a
    cast gives, with ids, errors (error records: state INVALID), ties (with
    --ties), alpha_free and exact_alpha (--method discrete). Writing it back
    (result.to_text(format)) gives the file's bytes again."""
    name, text = _open_text(source)
    format = _sniff(text, format)
    if format == "ndjson" and _one_document(text):
        format = "json"  # cast's JSON document starts with { too
    settings: Dict[str, Any] = {}
    mesh_info: Dict[str, Any] = {}
    if format == "json":
        document = _json_loads(text)
        if isinstance(document, dict):
            settings = {k: (float(v) if _is_number(v) and not isinstance(v, int) else v) for k, v in
                        (document.get("settings") or {}).items()}
            mesh_info = {k: (int(v) if _is_number(v) else v) for k, v in (document.get("mesh") or {}).items()}
            records = document.get("results") or []
        else:
            records = document
        items: Iterable[Any] = records
    elif format == "ndjson":
        items = (record for _, record in _json_records(text, format, name))
    else:
        items = _csv_results(text)
    return _results_from(list(items), settings, mesh_info)


def _one_document(text: str) -> bool:
    """Whether text is one JSON value (cast's document) rather than NDJSON:
    only its first value is parsed to tell."""
    start = len(text) - len(text.lstrip(" \t\r\n\ufeff"))
    try:
        _, end = _FAST.raw_decode(text, start)
    except ValueError:
        return False
    return text[end:].strip() == ""


_CSV_VEC = {"point": "point_", "center": "center_", "normal": "normal_", "triangle_normal": "triangle_normal_"}


def _csv_results(text: str) -> Iterator[Dict[str, Any]]:
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        return
    col = {h: k for k, h in enumerate(header)}

    def cell(cells, key):
        k = col.get(key)
        return cells[k] if k is not None and k < len(cells) else ""

    def number(text):
        return _Number(text)

    for cells in reader:
        record: Dict[str, Any] = {}
        id_text = _csv_id_back(cell(cells, "id"))
        record["id"] = _Number(id_text) if _JSON_NUMBER.match(id_text) else id_text
        if cell(cells, "error"):
            record["error"] = cell(cells, "error")
            yield record
            continue
        record["hit"] = cell(cells, "hit") == "true"
        record["alpha"] = number(cell(cells, "alpha"))
        if record["hit"]:
            record["initial_overlap"] = cell(cells, "initial_overlap") == "true"
            record["feature"] = cell(cells, "feature")
            record["triangle"] = int(cell(cells, "triangle"))
            record["face"] = int(cell(cells, "face"))
            record["vertices"] = [int(v) for v in (cell(cells, "vertex_%d" % k) for k in range(3)) if v != ""]
            for key, prefix in _CSV_VEC.items():
                record[key] = [number(cell(cells, prefix + c)) for c in "xyz"]
        if "ties" in col:
            record["ties"] = [{"triangle": int(t.split(":")[0]), "feature": t.split(":")[1]}
                              for t in cell(cells, "ties").split()]
        if "exact_alpha" in col:
            record["exact_alpha"] = number(cell(cells, "exact_alpha")) if cell(cells, "exact_alpha") else None
        if "alpha_free" in col:
            record["alpha_free"] = number(cell(cells, "alpha_free"))
        yield record


def _results_from(records: List[Any], settings: Dict[str, Any], mesh_info: Dict[str, Any]) -> CastResult:
    n = len(records)
    ids: List[str] = []
    numeric: List[bool] = []
    errors: Dict[int, str] = {}
    has_ties = any(isinstance(r, dict) and "ties" in r for r in records)
    has_free = any(isinstance(r, dict) and "alpha_free" in r for r in records)
    has_exact = any(isinstance(r, dict) and "exact_alpha" in r for r in records)
    # columns filled record by record as Python lists, then put in place at once
    state = [MISS] * n
    alpha = [1.0] * n
    feature = [0] * n
    triangle = [-1] * n
    face = [-1] * n
    vertex_count = [0] * n
    vertices = [(-1, -1, -1)] * n
    zero = (0.0, 0.0, 0.0)
    vectors = {key: [zero] * n for key in ("point", "center", "normal", "triangle_normal")}
    tie_count = [0] * n
    contacts: List[Tuple] = []
    first = [0]
    alpha_free = [math.nan] * n
    exact = [math.nan] * n
    for i, record in enumerate(records):
        if not isinstance(record, dict):
            ids.append(str(i))
            numeric.append(True)
            errors[i] = "expected an object"
            state[i] = INVALID
            first.append(len(contacts))
            continue
        id_text, is_number = _id_of(record, i)
        ids.append(id_text)
        numeric.append(is_number)
        if "error" in record:
            errors[i] = str(record["error"])
            state[i] = INVALID
            first.append(len(contacts))
            continue
        hit = bool(record.get("hit"))
        alpha[i] = float(record.get("alpha", 1.0))
        if hit:
            state[i] = INITIAL_OVERLAP if record.get("initial_overlap") else HIT
            feature[i] = FEATURE_CODES.get(record.get("feature"), 0)
            triangle[i] = int(record.get("triangle", -1))
            face[i] = int(record.get("face", -1))
            v = [int(x) for x in record.get("vertices", ())][:3]
            vertex_count[i] = len(v)
            vertices[i] = tuple(v) + (-1,) * (3 - len(v))
            for key, column in vectors.items():
                if key in record:
                    column[i] = tuple(map(float, record[key]))
        listed = record.get("ties") if has_ties else None
        if listed is not None:
            for t in listed:
                v = [int(x) for x in t.get("vertices", ())][:3]
                contacts.append((int(t["triangle"]), FEATURE_CODES.get(t.get("feature"), 0), len(v),
                                 tuple(v) + (-1,) * (3 - len(v)), float(t.get("alpha", math.nan)),
                                 tuple(map(float, t.get("normal", (math.nan,) * 3)))))
            tie_count[i] = len(listed)
        else:
            tie_count[i] = 1 if hit else 0
        first.append(len(contacts))
        if has_free and "alpha_free" in record:
            alpha_free[i] = float(record["alpha_free"])
        if has_exact and record.get("exact_alpha") is not None:
            exact[i] = float(record["exact_alpha"])
    raw = np.zeros(n, dtype=_lib.CAST_OUTPUT)
    raw["state"] = state
    raw["alpha"] = alpha
    raw["feature"] = feature
    raw["triangle"] = triangle
    raw["face"] = face
    raw["vertex_count"] = vertex_count
    raw["vertices"] = np.array(vertices, dtype=np.int32).reshape(n, 3)
    for key, column in vectors.items():
        raw[key] = np.array(column, dtype=np.float64).reshape(n, 3)
    raw["tie_count"] = tie_count
    ties = None
    if has_ties:
        table = np.zeros(len(contacts), dtype=_lib.CONTACT)
        if contacts:
            columns = list(zip(*contacts))
            for name, column in zip(("triangle", "feature", "vertex_count", "vertices", "alpha", "normal"), columns):
                table[name] = np.array(column)
        ties = Ties(table, np.array(first, dtype=np.int64))
    settings = dict(settings)
    settings.setdefault("ties", has_ties)
    if has_free:
        settings.setdefault("method", "discrete")
    return CastResult(raw, ties=ties, alpha_free=np.array(alpha_free) if has_free else None,
                      exact_alpha=np.array(exact) if has_exact else None,
                      ids=Ids(np.array(ids, dtype=str), np.array(numeric, dtype=bool)), errors=errors,
                      settings=settings, mesh_info=mesh_info, normalise=False)
