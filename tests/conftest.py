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
