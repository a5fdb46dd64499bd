import subprocess
import sys


def test_session_tier_is_headless():
    code = ("import sys, curator.transcripts, curator.transcripts.service, curator.curation.mine; "
            "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
