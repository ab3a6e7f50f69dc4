"""`python -m chartscene ARGS` and the `chartscene` command of the wheel: the binary itself.

The process becomes the binary (exec), so its exit status, signals, standard streams and
`-o -` pipes are the binary's own.
"""

import os
import sys

from ._scene import ChartsceneError, binary


def main():
    try:
        exe = binary()
    except ChartsceneError as e:
        print(str(e), file=sys.stderr)
        return 1
    os.execv(exe, ["chartscene"] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
