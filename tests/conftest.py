import sys
from pathlib import Path

# The tests share small helpers (lab_harness) that live beside them.
sys.path.insert(0, str(Path(__file__).parent))

try:  # hypothesis tests draw the same examples on every run (a fixed seed, as every test here)
    from hypothesis import settings

    settings.register_profile("ttrlib", derandomize=True)
    settings.load_profile("ttrlib")
except ImportError:  # pragma: no cover - hypothesis is in the test extra
    pass


# The learner's door deals through a key file (ttrlib.deals). The tests use a key of their own,
# the same on every run (so a test's game number deals the same game each time), never the
# developer's ~/.local/share/ttrlib/deal-key. Kernels started by the tests (notebooks, Voila)
# inherit it. A test of the key file itself sets TTRLIB_DEAL_KEY to a path of its own.
TEST_DEAL_KEY = "5e" * 32


def _test_deal_key() -> None:
    import os
    import tempfile

    if os.environ.get("TTRLIB_DEAL_KEY"):
        return
    folder = tempfile.mkdtemp(prefix="ttrlib-test-keys-")
    path = Path(folder) / "deal-key"
    path.write_text(TEST_DEAL_KEY)
    path.chmod(0o600)
    os.environ["TTRLIB_DEAL_KEY"] = str(path)


_test_deal_key()


# Issue 24: the legal-action caches are brought up to date from each effect's changes; in the
# tests every kept answer is compared with the same answer rebuilt from scratch (the check mode
# of ttrlib.rules.check_mode), so a wrong update fails whichever test plays the position.
try:
    import pytest

    @pytest.fixture(autouse=True)
    def _legal_check_mode(monkeypatch):
        from ttrlib.rules import check_mode

        monkeypatch.setattr(check_mode, "CHECK", True)
        yield
except ImportError:  # pragma: no cover - pytest runs the tests
    pass
