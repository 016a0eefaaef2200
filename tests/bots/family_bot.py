"""Plays as examples/bots/keep_running_bot.py does, and first starts a child that sleeps (holding no pipe) with
``argv[1]`` (a token) in its argv: the judge must kill the bot's whole tree at the end of the game, the child too."""

import runpy
import subprocess
import sys
from pathlib import Path


def main() -> None:
    token = sys.argv[1]
    subprocess.Popen([sys.executable, "-c", "import time, sys; time.sleep(120)", token], stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sys.argv[1:] = []
    examples = Path(__file__).resolve().parents[2] / "examples" / "bots"
    runpy.run_path(str(examples / "keep_running_bot.py"), run_name="__main__")


if __name__ == "__main__":
    main()
