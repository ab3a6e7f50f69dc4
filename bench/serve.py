#!/usr/bin/env python3
"""scripts/bench serve: the studio's figures, measured in headless Chromium (through
chromedriver's WebDriver interface) against `chartscene serve` on a free port.

  frames/s   frames delivered to the page while examples/cards.lua plays at 1280x720
  pointer    a pointer event sent by the page -> the frame that shows it (paused: each event
             runs one tick, so the next frame is the one that shows it; pressed at (4, 4), a
             corner no gesture takes, so the script's own timeline still finds its targets)
  seek       a seek sent by the page -> its frame
  save       the script written on disk -> the page has the new frame (wall clocks of the
             same machine)

Each figure also gets the CPU time the server used for it (user + system of all its
threads, from /proc: per frame while playing, per seek, per pointer event, per save), which
a busy machine does not inflate as it does the wall times.

Usage: bench/serve.py CHARTSCENE [RUNS]   (prints one line per figure: median, min, max)
"""
import json, os, shutil, socket, statistics, subprocess, sys, tempfile, time, urllib.error, urllib.request

bin_ = os.path.abspath(sys.argv[1])
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            v = json.loads(r.read()).get("value")
    except urllib.error.HTTPError as e:
        v = json.loads(e.read()).get("value")
    if isinstance(v, dict) and "error" in v:
        raise RuntimeError(f"{path}: {v['error']}: {v.get('message')}")
    return v


def cpu(pid):
    """The CPU time (s) a process used so far, all its threads."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


tmp = tempfile.mkdtemp(prefix="chartscene-bench-serve.")
driver = server = None
try:
    shutil.copytree(os.path.join(repo, "examples"), os.path.join(tmp, "examples"))
    script = os.path.join(tmp, "examples", "cards.lua")
    source = open(script).read()
    server = subprocess.Popen([bin_, "serve", script, "--port", "0", "--size", "1280x720", "--out", tmp], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline().strip()
    url = line
    dport = free_port()
    driver = subprocess.Popen(["chromedriver", f"--port={dport}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{dport}"
    for _ in range(400):
        try:
            call(base, "GET", "/status")
            break
        except Exception:
            time.sleep(0.05)
    caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": shutil.which("chromium"), "args": [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1700,1000", "--force-device-scale-factor=1"]}}}}
    sid = call(base, "POST", "/session", caps)["sessionId"]
    s = f"/session/{sid}"

    def js(code):
        return call(base, "POST", s + "/execute/sync", {"script": code, "args": []})

    def js_async(code):
        return call(base, "POST", s + "/execute/async", {"script": code, "args": []})

    def wait(expr, seconds=20):
        end = time.time() + seconds
        while time.time() < end:
            if js(f"try {{ return !!({expr}); }} catch (e) {{ return false; }}"):
                return True
            time.sleep(0.02)
        raise RuntimeError("timed out: " + expr)

    call(base, "POST", s + "/timeouts", {"script": 120000})
    call(base, "POST", s + "/url", {"url": url})
    wait("window.studio && window.studio.frames >= 1 && window.studio.state.frames > 1")

    # Frames per second while playing (5 s).
    print("measuring frames/s", file=sys.stderr)
    c0 = cpu(server.pid)
    fps, played = js_async("""
      const done = arguments[arguments.length - 1];
      studio.send({ type: 'play' });
      setTimeout(() => { const f0 = studio.frames, t0 = performance.now();
        setTimeout(() => { const n = studio.frames - f0, dt = (performance.now() - t0) / 1000; studio.send({ type: 'pause' }); done([n / dt, studio.frames]); }, 5000); }, 500);
    """)
    cpu_frame = (cpu(server.pid) - c0) / max(1, played)

    print("measuring pointer and seek", file=sys.stderr)
    # Pointer -> frame and seek -> frame, timed in the page.
    helpers = """
      const done = arguments[arguments.length - 1], runs = %d;
      const nextFrame = (n) => new Promise((ok) => { const f = () => studio.frames > n ? ok(performance.now()) : setTimeout(f, 1); f(); });
      const until = (p) => new Promise((ok) => { const f = () => p() ? ok(performance.now()) : setTimeout(f, 1); f(); });
    """ % runs
    timed = {}
    try:
      js_async(helpers + """
      (async () => {
        await until(() => !studio.state.playing);
        window.benchStage = 'seek 1';
        studio.send({ type: 'seek', t: 1 }); await until(() => studio.meta.t === 1);
        done();
      })();
      """)
      c0 = cpu(server.pid)
      timed["seek"] = js_async(helpers + """
      (async () => {
        const seek = [];
        for (let i = 0; i < runs; i++) {
          const t = Math.round((0.5 + (i * 7919 % 80) / 10) * 30) / 30, t0 = performance.now();
          window.benchStage = 'seek ' + t;
          studio.send({ type: 'seek', t });
          seek.push((await until(() => studio.meta && Math.abs(studio.meta.t - t) < 1e-9)) - t0);
        }
        done(seek);
      })();
      """)
      cpu_seek = (cpu(server.pid) - c0) / runs
      c0 = cpu(server.pid)
      timed["pointer"] = js_async(helpers + """
      (async () => {
        window.benchStage = 'pointer';
        const pointer = [];
        for (let i = 0; i < runs; i++) {
          for (const phase of ['down', 'up']) {
            const n = studio.frames, t0 = performance.now();
            studio.send({ type: 'pointer', phase, x: 4, y: 4, ts: t0 });
            pointer.push((await nextFrame(n)) - t0);
          }
        }
        done(pointer);
      })();
      """)
      cpu_pointer = (cpu(server.pid) - c0) / (2 * runs)
    except RuntimeError:
      print("stuck at", js("return [window.benchStage, studio.meta, studio.state.t, studio.state.playing, studio.frames]"), file=sys.stderr)
      raise

    # Save -> frame: the script written with a new title, the page's clock against ours.
    saves = []
    c0 = cpu(server.pid)
    for i in range(max(5, runs // 2)):
        n = js("return studio.frames;")
        t0 = time.time()
        with open(script, "w") as f:
            f.write(source + f"\n-- save {i}\n")
        wait(f"window.studio.frames > {n}", 10)
        saves.append(js("return studio.lastFrameAt;") / 1000 - t0)

    cpu_save = (cpu(server.pid) - c0) / len(saves)

    def show(name, xs, cpu_each, unit="ms", k=1000):
        print(f"serve {name}: median {statistics.median(xs) * k:.1f} {unit}, min {min(xs) * k:.1f}, max {max(xs) * k:.1f} ({len(xs)} runs); server CPU {cpu_each * 1000:.1f} ms each")

    print(f"serve frames/s while playing examples/cards.lua at 1280x720: {fps:.1f}; server CPU {cpu_frame * 1000:.1f} ms a frame delivered")
    show("pointer -> frame", [x / 1000 for x in timed["pointer"]], cpu_pointer)
    show("seek -> frame", [x / 1000 for x in timed["seek"]], cpu_seek)
    show("save -> frame", saves, cpu_save)
finally:
    if driver:
        driver.terminate()
    if server:
        server.terminate()
    shutil.rmtree(tmp, ignore_errors=True)
