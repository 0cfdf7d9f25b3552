"""The README's Python example runs as written."""

import re


def test_readme_example_runs(repo, capsys):
    readme = (repo / "README.md").read_text(encoding="utf-8")
    section = readme.split("## From Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert "black wins" in capsys.readouterr().out


def test_package_docstring_example_runs():
    import doctest

    import ransom

    failures, tried = doctest.testmod(ransom)
    assert tried > 0 and failures == 0
