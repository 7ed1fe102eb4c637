import pytest

from tirx.api import check


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
