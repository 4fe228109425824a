"""The README's Python example runs as printed: every ```pycon block of
README.md, run as a doctest in a copy of the samples."""
import doctest
import os
import re
import shutil

from conftest import REPO


def _blocks(path):
    """(line, text) of each ```pycon block of path."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    found = []
    for m in re.finditer(r"^```pycon\n(.*?)^```$", text, re.M | re.S):
        found.append((text.count("\n", 0, m.start()) + 2, m.group(1)))
    return found


def test_readme_python_example(tmp_path, monkeypatch):
    blocks = _blocks(os.path.join(REPO, "README.md"))
    assert blocks, "the README has a ```pycon block"
    shutil.copytree(os.path.join(REPO, "samples"), tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for line, text in blocks:
        test = parser.get_doctest(text, {}, "README.md:%d" % line, "README.md", line)
        runner.run(test)
    summary = runner.summarize(verbose=False)
    assert summary.attempted >= 10 and summary.failed == 0, summary


def test_a_wrong_output_fails(tmp_path, monkeypatch):
    """The check can fail: the example with one digit changed."""
    (line, text), = _blocks(os.path.join(REPO, "README.md"))[:1]
    changed = text.replace("0.5833333333333334", "0.5833333333333335", 1)
    assert changed != text
    shutil.copytree(os.path.join(REPO, "samples"), tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(doctest.DocTestParser().get_doctest(changed, {}, "changed", "README.md", line),
               out=lambda s: None)
    assert runner.summarize(verbose=False).failed == 1


def test_docstring_examples(tmp_path, monkeypatch):
    """The examples in the package's docstrings (help(ballcast),
    help(ballcast.Mesh.cast)) run as printed too."""
    import ballcast
    from ballcast import _mesh
    shutil.copytree(os.path.join(REPO, "samples"), tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    attempted = 0
    for module in (ballcast, _mesh):
        failed, tried = doctest.testmod(module, extraglobs={"ballcast": ballcast},
                                        optionflags=doctest.NORMALIZE_WHITESPACE)
        assert failed == 0, module.__name__
        attempted += tried
    assert attempted >= 5
