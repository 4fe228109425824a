#!/usr/bin/env python3
"""The examples of the documentation, run: every `$ command` line of the man
page's .EX/.EE blocks and of the README's ```console blocks is run with bash
in a scratch directory, and what it prints (standard output and error) must
be the text that follows it, up to the next `$` line or the block's end.

    examples.py --list FILE...        the examples found, one a line
    examples.py --run DIR FILE...     run them in DIR; exit 1 on a mismatch

A command line ending in | or \\ goes on on the next line. `$ cat FILE`
shows a file: the text shown is written to FILE first, so the documentation
defines the inputs of its later examples (the examples of one file run in
order, in the same directory). Output that
is JSON (it starts with { or [) is compared with all blank space removed,
as the documentation wraps long records; any other output line by line.
"""
import os
import re
import subprocess
import sys

ROFF = [("\\-", "-"), ("\\e", "\\"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\&", ""), ("\\(ti", "~"), ("\\(ha", "^")]


def unroff(line):
    out = []
    i = 0
    while i < len(line):
        for escape, text in ROFF:
            if line.startswith(escape, i):
                out.append(text)
                i += len(escape)
                break
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def blocks(path):
    """(line number, lines) of each example block of path."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    man = path.endswith(".1")
    found = []
    current = None
    for number, line in enumerate(lines, 1):
        if current is None:
            if (man and line.startswith(".EX")) or (not man and line.strip() == "```console"):
                current = (number + 1, [])
        elif (man and line.startswith(".EE")) or (not man and line.strip() == "```"):
            found.append(current)
            current = None
        else:
            current[1].append(unroff(line) if man else line)
    return found


def examples(path):
    """(file:line, command, expected output) of each $ line of path."""
    found = []
    for start, lines in blocks(path):
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            where = "%s:%d" % (path, start + i)
            command = lines[i][2:]
            while (command.rstrip().endswith("|") or command.endswith("\\")) and i + 1 < len(lines):
                i += 1
                command = command + "\n" + lines[i]
            i += 1
            expected = []
            while i < len(lines) and not lines[i].startswith("$ "):
                expected.append(lines[i])
                i += 1
            found.append((where, command, "\n".join(expected)))
    return found


def same(expected, actual):
    if expected.lstrip().startswith(("{", "[")):
        return re.sub(r"\s+", "", expected) == re.sub(r"\s+", "", actual)
    strip = lambda text: [line.rstrip() for line in text.rstrip("\n").split("\n")] if text.strip() else []
    return strip(expected) == strip(actual)


def run(directory, paths):
    failed = 0
    count = 0
    for path in paths:
        for where, command, expected in examples(path):
            count += 1
            shown = re.fullmatch(r"cat (\S+)", command.strip())
            if shown:
                with open(os.path.join(directory, shown.group(1)), "w", encoding="utf-8") as f:
                    f.write(expected + "\n")
            result = subprocess.run(["bash", "-c", command], cwd=directory, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, timeout=600)
            actual = result.stdout.decode("utf-8", "replace")
            if not same(expected, actual):
                failed += 1
                print("%s: $ %s\n--- the text shows\n%s\n--- it prints\n%s" % (where, command, expected, actual))
    print("%d examples, %d differ" % (count, failed))
    return 1 if failed else 0


def main(argv):
    if len(argv) >= 2 and argv[0] == "--list":
        for path in argv[1:]:
            for where, command, expected in examples(path):
                print("%s: $ %s" % (where, command.replace("\\\n", " ").replace("\n", " ")))
        return 0
    if len(argv) >= 3 and argv[0] == "--run":
        return run(argv[1], argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
