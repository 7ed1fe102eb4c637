import atexit
import os
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))

# The compile cache of the suite's own compiles: a fresh folder per run, never
# ~/.cache/tirx (test_cache.py points each of its tests at its tmp_path).
os.environ["TIRX_CACHE_DIR"] = tempfile.mkdtemp(prefix="tirx-pytest-cache-")
atexit.register(shutil.rmtree, os.environ["TIRX_CACHE_DIR"], True)
