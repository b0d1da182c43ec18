"""The scan that finds the line of each key, for error messages that send you to it."""

from __future__ import annotations

import tomllib

from controller.config import key_lines

DOC = '''\
# a comment with = and [brackets]
game = "x"   # trailing comment
"quoted key" = 1
dotted.inner.key = 2

[table]
id = "a#b"
name = """multi
line = not a key
"""
literal = \'\'\'also = not a key\'\'\'

[a . "b c"]
x = { y = 1, z = { w = [1, 2] } }
arr = [
  1,   # one
  { k = "v" },
  [3, 4],
]

[[levels]]
pot = 100

[[levels]]
pot = 200
[levels.extra]
deep = true

[[outer.inner]]
n = 1
'''


def test_every_key_maps_to_its_line() -> None:
    tomllib.loads(DOC)  # the scan runs only on text tomllib accepted
    lines = key_lines(DOC)
    expected = {
        ("game",): 2,
        ("quoted key",): 3,
        ("dotted",): 4, ("dotted", "inner"): 4, ("dotted", "inner", "key"): 4,
        ("table",): 6, ("table", "id"): 7, ("table", "name"): 8, ("table", "literal"): 11,
        ("a", "b c"): 13, ("a", "b c", "x"): 14, ("a", "b c", "x", "y"): 14,
        ("a", "b c", "x", "z", "w"): 14, ("a", "b c", "x", "z", "w", 1): 14,
        ("a", "b c", "arr"): 15, ("a", "b c", "arr", 0): 16, ("a", "b c", "arr", 1): 17,
        ("a", "b c", "arr", 1, "k"): 17, ("a", "b c", "arr", 2): 18, ("a", "b c", "arr", 2, 1): 18,
        ("levels", 0): 21, ("levels", 0, "pot"): 22,
        ("levels", 1): 24, ("levels", 1, "pot"): 25,
        ("levels", 1, "extra"): 26, ("levels", 1, "extra", "deep"): 27,
        ("outer", "inner", 0, "n"): 30,
    }
    assert {k: lines.get(k) for k in expected} == expected
    # text inside strings is not taken for keys
    assert ("table", "line") not in lines and ("line",) not in lines
    assert ("table", "also") not in lines


def test_keys_of_every_shipped_profile_are_found() -> None:
    from tests.config.config_helpers import CONFIG

    for path in CONFIG.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        lines = key_lines(text)

        def walk(node, prefix, lines=lines, path=path):
            for key, value in node.items():
                path_ = prefix + (key,)
                assert path_ in lines, (path.name, path_)
                if isinstance(value, dict):
                    walk(value, path_)
                elif isinstance(value, list):
                    for i, item in enumerate(value):
                        assert path_ + (i,) in lines, (path.name, path_ + (i,))
                        if isinstance(item, dict):
                            walk(item, path_ + (i,))

        walk(data, ())
