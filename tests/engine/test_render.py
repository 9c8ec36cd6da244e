from advisor.engine.render import format_value, placeholder_paths, render
from advisor.models.common import missing


def test_placeholders_and_units():
    values = {"a.bytes": 3 * 2**30, "a.frac": 0.254, "a.ratio": 3.14159, "a.t": 2.5e-5, "a.list": ["x", "y"],
              "a.none": None, "a.flag": True, "a.gone": missing("no NVML")}
    text = render("{a.bytes:gib} {a.frac:pct} {a.ratio:x} {a.t:us} {a.ratio:.2f} {a.list} {a.none} "
                  "{a.flag} {a.gone} {{literal}}", values.get)
    assert text == "3.0 GiB 25% 3.1x 25.0 us 3.14 x, y none yes (not known here) {literal}"


def test_placeholder_paths():
    assert placeholder_paths("{a.b} and {c.d:.1f} but not {{e.f}}") == ["a.b", "c.d"]


def test_format_spec_never_runs_on_objects():
    # A spec meant for numbers applied to text falls back to the plain value instead of formatting objects.
    assert format_value("abc", ".2f") == "abc"
