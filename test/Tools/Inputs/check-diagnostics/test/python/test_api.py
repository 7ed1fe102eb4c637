import pytest

from tirx.api import check, shape


def test_annotation():
    with pytest.raises(TypeError, match="parameter '0' has no annotation"):
        check(0)
    # A pytest string tests only a Python raise, not a diagnostic.
    with pytest.raises(TypeError, match="'bar.op' op height must be even"):
        check(0)


def test_skipped_here():
    pytest.skip("needs something this machine lacks")
    with pytest.raises(ValueError, match="width 9 is not a byte multiple"):
        check(9)


def raises(message):
    """A test's own helper around pytest.raises."""
    return pytest.raises(ValueError, match=message)


def test_own_helper_and_built_cases():
    # The message as the helper's argument, after a computed prefix.
    with raises(str(3) + "depth must be a power of two"):
        shape(3, 1)
    # Cases built by append, formatted into the expected text.
    cases = []
    cases.append((0, "gap must be positive"))
    for gap, message in cases:
        with raises("%s: %s" % ("api.py", message)):
            shape(1, gap)
