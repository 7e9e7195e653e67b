"""What the tests of the command line share."""


def one_line_error(capsys) -> str:
    """The one line a refused command prints to stderr: `error: ...`, and no traceback."""
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]
