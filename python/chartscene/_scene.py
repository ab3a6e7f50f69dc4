"""The Python API: a thin layer over the chartscene binary (one process a call)."""

import base64
import csv
import io
import os
import re
import subprocess
import tempfile
from pathlib import Path

__all__ = ["ChartsceneError", "Frame", "Scene", "binary", "run"]

_HERE = Path(__file__).resolve().parent


class ChartsceneError(Exception):
    """A render, inspect or data error: the binary's one `error:` line.

    `str(e)` is that line; `e.file` and `e.line` the script and line it names (None when it
    names none: a command-line or output error), `e.message` the text after them, `e.status`
    the exit status and `e.stderr` all the binary printed (warnings included).
    """

    def __init__(self, error, status=1, stderr=""):
        super().__init__(error)
        self.error = error
        self.status = status
        self.stderr = stderr
        self.file = None
        self.line = None
        self.message = error[len("error: "):] if error.startswith("error: ") else error
        m = re.match(r"error: ([^:\n]+?):(\d+): (.*)\Z", error, re.S)
        if m:
            self.file, self.line, self.message = m.group(1), int(m.group(2)), m.group(3)
        else:
            m = re.match(r"error: ([^:\n ]+?\.lua|stdin): (.*)\Z", error, re.S)
            if m:
                self.file, self.message = m.group(1), m.group(2)

    @classmethod
    def _from_run(cls, status, stderr):
        lines = [l for l in stderr.splitlines() if l.strip()]
        errors = [l for l in lines if l.startswith("error: ")]
        if errors:
            return cls(errors[-1], status, stderr)
        if status < 0:
            return cls("error: chartscene was stopped by signal %d" % -status, status, stderr)
        last = (": " + lines[-1]) if lines else ""
        return cls("error: chartscene exited with status %d%s" % (status, last), status, stderr)

    def _render_traceback_(self):
        # IPython shows this instead of a traceback: the one line, as the command line does.
        return [self.error]


def binary():
    """The chartscene executable: $CHARTSCENE_BINARY, else the one inside this package."""
    env = os.environ.get("CHARTSCENE_BINARY")
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        raise ChartsceneError("error: CHARTSCENE_BINARY is '%s', which is not an executable file" % env)
    packaged = _HERE / "bin" / "chartscene"
    if packaged.is_file() and os.access(str(packaged), os.X_OK):
        return str(packaged)
    raise ChartsceneError(
        "error: this chartscene package holds no binary (%s is missing); install the wheel, "
        "or set CHARTSCENE_BINARY to a chartscene executable" % packaged)


def run(args, input=None, cwd=None, timeout=None):
    """Runs `chartscene ARGS...`; returns its standard output (bytes), raises ChartsceneError."""
    p = subprocess.run([binary()] + [str(a) for a in args], input=input, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    stderr = p.stderr.decode("utf-8", "replace")
    if p.returncode != 0:
        raise ChartsceneError._from_run(p.returncode, stderr)
    return p.stdout


# MARK: - Tables from Python


def _csv_bytes(name, table):
    """A table as CSV bytes: anything with .to_csv (pandas), a list of dicts, a dict of
    columns, or CSV text."""
    what = "data" if name is None else "data '%s'" % name
    if isinstance(table, bytes):
        return table
    if isinstance(table, str):
        return table.encode("utf-8")
    if hasattr(table, "to_csv"):
        kwargs = {}
        # A frame's default index (0, 1, 2...) is not data; a named or date index is.
        index = getattr(table, "index", None)
        if index is not None and type(index).__name__ == "RangeIndex" and getattr(index, "name", None) is None:
            kwargs["index"] = False
        text = table.to_csv(**kwargs)
        if isinstance(text, bytes):
            return text
        if not isinstance(text, str):
            raise TypeError("%s: %s.to_csv() returned %s, not CSV text" % (what, type(table).__name__, type(text).__name__))
        return text.encode("utf-8")
    rows = None
    if isinstance(table, dict):
        columns = list(table.keys())
        values = [list(v) for v in table.values()]
        lengths = {len(v) for v in values}
        if len(lengths) > 1:
            raise ValueError("%s: the columns have different lengths (%s)" % (
                what, ", ".join("%s: %d" % (c, len(v)) for c, v in zip(columns, values))))
        rows = [dict(zip(columns, r)) for r in zip(*values)]
    elif isinstance(table, (list, tuple)) and all(isinstance(r, dict) for r in table):
        if not table:
            raise ValueError("%s: an empty list has no columns" % what)
        columns = []
        for r in table:
            for k in r:
                if k not in columns:
                    columns.append(k)
        rows = table
    if rows is None:
        raise TypeError("%s: expected a table (a pandas DataFrame or anything with .to_csv, a list of "
                        "dicts, a dict of columns, or CSV text), got %s" % (what, type(table).__name__))
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([str(c) for c in columns])
    for r in rows:
        w.writerow([_cell(r.get(c)) for c in columns])
    return out.getvalue().encode("utf-8")


def _cell(v):
    if v is None:
        return ""
    if hasattr(v, "isoformat"):  # datetime, date, pandas Timestamp
        return v.isoformat()
    return v


_ARG_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


# MARK: - Scenes


class Scene:
    """A scene script with its options, rendered by the binary on each call.

    Scene("cards.lua", args={"city": "Oslo"}, size=(720, 400), theme="night", scale=2,
          preset="night", fps=60, data={"sales": frame}, allow_read=["../shared"],
          options=["--max-time", "30"])
    Scene(lua="local cs = require('chartscene') return cs.scene { ... }")

    `data`: {NAME: table} writes each table to a temporary CSV file whose path the script
    reads as `cs.args.NAME` (`cs.data.csv(cs.args.sales)`); a single table instead is fed
    through standard input, which the script reads as `cs.data.csv("-")`. A table is anything
    with `.to_csv` (a pandas DataFrame), a list of dicts, CSV text, or (inside {NAME: table})
    a dict of columns; a dict given as `data` itself is always {NAME: table}.
    """

    def __init__(self, script=None, *, lua=None, args=None, size=None, theme=None, preset=None,
                 scale=None, fps=None, data=None, allow_read=None, options=None, timeout=None):
        if (script is None) == (lua is None):
            raise TypeError("Scene takes a script path or lua= text (one of them)")
        self.cwd = os.getcwd()
        self.script = None if script is None else os.fspath(script)
        self.lua = lua
        if self.script is not None and not os.path.isfile(os.path.join(self.cwd, self.script)):
            what = "no such file" if not os.path.exists(os.path.join(self.cwd, self.script)) else "not a file"
            raise ChartsceneError("error: cannot read '%s': %s" % (self.script, what))
        self.args = {}
        for k, v in (args or {}).items():
            if not isinstance(k, str) or not _ARG_KEY.match(k):
                raise ValueError("bad args key %r (a name of letters, digits and _, not starting with a digit)" % (k,))
            self.args[k] = "true" if v is True else "false" if v is False else str(v)
        if size is not None:
            if isinstance(size, str):
                w, _, h = size.partition("x")
            else:
                w, h = size
            size = "%sx%s" % (w, h)
        self.size = size
        self.theme = theme
        self.preset = preset
        self.scale = scale
        self.fps = fps
        self.allow_read = [os.fspath(d) for d in (allow_read or [])]
        self.options = [str(o) for o in (options or [])]
        self.timeout = timeout
        self._stdin = None
        self._tables = {}
        if data is not None:
            if isinstance(data, dict):
                # {NAME: table}: each a file, its path in cs.args.NAME.
                for name, table in data.items():
                    if not isinstance(name, str) or not _ARG_KEY.match(name):
                        raise ValueError("bad data name %r (it becomes cs.args.NAME: letters, digits and _, "
                                         "not starting with a digit)" % (name,))
                    if name in self.args:
                        raise ValueError("'%s' is given in both args and data" % name)
                    self._tables[name] = _csv_bytes(name, table)
            else:
                if self.lua is not None:
                    raise ValueError("a single data table is read from standard input (cs.data.csv(\"-\")), which "
                                     "a scene given as lua= text uses already; give data={NAME: table} (cs.args.NAME)")
                self._stdin = _csv_bytes(None, data)
        self._display_error = None

    # MARK: Running

    def _command(self, workdir):
        """The binary's arguments for this scene (the script first), and its standard input."""
        stdin = self._stdin
        if self.lua is not None:
            script, stdin = "-", self.lua.encode("utf-8")
        else:
            script = self.script
        cmd = [script]
        for k, v in self.args.items():
            cmd += ["--arg", "%s=%s" % (k, v)]
        if self._tables:
            cmd += ["--allow-read", workdir]
            for name, body in self._tables.items():
                path = os.path.join(workdir, name + ".csv")
                with open(path, "wb") as f:
                    f.write(body)
                cmd += ["--arg", "%s=%s" % (name, path)]
        if self.size is not None:
            cmd += ["--size", self.size]
        if self.theme is not None:
            cmd += ["--theme", self.theme]
        if self.preset is not None:
            cmd += ["--preset", self.preset]
        if self.scale is not None:
            cmd += ["--scale", self.scale]
        if self.fps is not None:
            cmd += ["--fps", self.fps]
        for d in self.allow_read:
            cmd += ["--allow-read", d]
        return cmd + self.options, stdin

    def _run(self, extra):
        with tempfile.TemporaryDirectory(prefix="chartscene-py-") as tmp:
            cmd, stdin = self._command(tmp)
            return run(cmd + [str(e) for e in extra], input=stdin, cwd=self.cwd, timeout=self.timeout)

    @staticmethod
    def _at(at):
        return [] if at is None else ["--at", repr(float(at))]

    # MARK: Outputs

    def render(self, path, *, at=None, frames=None):
        """Writes the scene to PATH, its format from the extension (.png .svg .pdf .gif .webp
        .apng .mp4 .webm, NAME-%04d.png); `at=T` one frame, `frames=(A, B)` frames A to B."""
        out = os.path.abspath(os.fspath(path))
        extra = ["-o", out] + self._at(at)
        if frames is not None:
            a, b = frames
            extra += ["--frames", "%d-%d" % (a, b)]
        self._run(extra)
        return Path(out)

    def png(self, at=None):
        """The frame at AT seconds (default 0) as PNG bytes."""
        return self._run(["-o", "-", "--format", "png"] + self._at(0 if at is None else at))

    def svg(self, at=None):
        """The frame at AT seconds (default 0) as SVG text."""
        return self._run(["-o", "-", "--format", "svg"] + self._at(0 if at is None else at)).decode("utf-8")

    def pdf(self, at=None):
        """The frame at AT seconds (default 0) as PDF bytes."""
        return self._run(["-o", "-", "--format", "pdf"] + self._at(0 if at is None else at))

    def video(self, format="mp4"):
        """The whole animated scene as bytes: mp4 (default), gif, apng, webp or webm."""
        return self._run(["-o", "-", "--format", format])

    def inspect(self, at=None):
        """The scene as drawn at AT seconds (default 0): the --inspect JSON, as a dict."""
        import json

        return json.loads(self._run(["--inspect"] + self._at(at)).decode("utf-8"))

    def frames(self, first=None, last=None):
        """Every frame of the scene (or frames FIRST to LAST), in order, as PNG bytes: rendered
        as one PNG sequence by one process, then read one at a time."""
        with tempfile.TemporaryDirectory(prefix="chartscene-frames-") as out:
            extra = ["-o", os.path.join(out, "frame-%06d.png")]
            if first is not None or last is not None:
                n = self.frame_count
                a = 0 if first is None else first
                b = n - 1 if last is None else last
                extra += ["--frames", "%d-%d" % (a, b)]
            if not self.animated:
                # A still is one frame: the PNG sequence is for animated scenes.
                yield self.png()
                return
            self._run(extra)
            for name in sorted(os.listdir(out)):
                with open(os.path.join(out, name), "rb") as f:
                    yield f.read()

    def at(self, t):
        """The frame at T seconds, which Jupyter shows as a picture (PNG and SVG)."""
        return Frame(self, t)

    # MARK: Timing

    def _probe(self):
        """(frame count, fps; 0 for a still), as the binary states them when asked for a frame
        past the end: `bad --frames ...: the scene has frames 0-N (COUNT at FPS fps)`, after
        `warning: the scene is a still (duration 0)` for a still. Nothing is rendered; asked
        again on every use, so an edited script is seen."""
        probe = os.path.join(tempfile.gettempdir(), "chartscene-probe-%d-%%06d.png" % os.getpid())
        try:
            self._run(["--frames", "2147483647-2147483647", "-o", probe])
        except ChartsceneError as e:
            m = re.search(r"the scene has frames 0-(\d+) \((\d+) at (\d+) fps\)", e.error)
            if not m:
                raise
            still = "the scene is a still (duration 0)" in e.stderr
            return int(m.group(2)), 0 if still else int(m.group(3))
        raise ChartsceneError("error: the scene's frames could not be counted")  # two billion frames

    @property
    def animated(self):
        """Whether the scene has a duration (a video) or is a still."""
        return self._probe()[1] > 0

    @property
    def frame_count(self):
        return self._probe()[0]

    @property
    def frame_rate(self):
        """Frames a second (0 for a still)."""
        return self._probe()[1]

    # MARK: Jupyter

    def _repr_mimebundle_(self, include=None, exclude=None):
        """What Jupyter shows, made once a display: a still as PNG and SVG, an animated scene
        as an HTML <video> of its MP4 with a PNG of its first frame beside it."""
        self._display_error = None
        try:
            if self.animated:
                return {"text/html": self._html(), "image/png": self.png()}
            return {"image/png": self.png(), "image/svg+xml": self.svg()}
        except ChartsceneError as e:
            # Shown once (IPython prints the one line); the single-format methods below then
            # show nothing for this display instead of the same error three times.
            self._display_error = e
            raise

    def _repr_png_(self):
        return None if self._display_error else self.png()

    def _repr_svg_(self):
        return None if self._display_error or self.animated else self.svg()

    def _repr_html_(self):
        return None if self._display_error or not self.animated else self._html()

    def _html(self):
        mp4 = base64.b64encode(self.video("mp4")).decode("ascii")
        return ('<video controls loop autoplay muted playsinline style="max-width:100%%">'
                '<source type="video/mp4" src="data:video/mp4;base64,%s"></video>' % mp4)

    def __repr__(self):
        what = "lua=..." if self.lua is not None else repr(self.script)
        return "chartscene.Scene(%s)" % what


class Frame:
    """One frame of a scene at a time, shown by Jupyter as a picture."""

    def __init__(self, scene, t):
        self.scene = scene
        self.t = float(t)

    def png(self):
        return self.scene.png(at=self.t)

    def svg(self):
        return self.scene.svg(at=self.t)

    def save(self, path):
        return self.scene.render(path, at=self.t)

    def _repr_png_(self):
        return self.png()

    def _repr_svg_(self):
        return self.svg()

    def __repr__(self):
        return "%r.at(%g)" % (self.scene, self.t)
