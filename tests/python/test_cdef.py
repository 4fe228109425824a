"""The binding's declarations against lib/ballcast.h: every struct and enum
the cdef (python/ballcast/_build_ffi.py) declares has the header's fields
and values, all of them, in order. cffi's build checks sizes and the values
it is given, but not an enum value the cdef leaves out, and a struct that
grew fails only when first used; CI once failed on 166 tests for two
fields the header had gained (bcError's byte and systemError)."""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def declarations(text):
    """{name: its body with white space removed} of each typedef struct or
    enum with a body, comments dropped."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found = {}
    for m in re.finditer(r"typedef (?:struct|enum) (\w+) \{(.*?)\} (\w+);", text, re.S):
        found[m.group(1)] = re.sub(r"\s+", "", m.group(2))
    return found


def test_cdef_declares_what_the_header_declares():
    with open(os.path.join(REPO, "lib", "ballcast.h")) as f:
        header = declarations(f.read())
    with open(os.path.join(REPO, "python", "ballcast", "_build_ffi.py")) as f:
        cdef = declarations(f.read())
    assert len(cdef) >= 20
    for name, body in cdef.items():
        assert name in header, name + " is not in lib/ballcast.h"
        assert body == header[name], name + ": the cdef differs from lib/ballcast.h"
