import Foundation
import XCTest

/// The recipes of docs/scale.md, as shipped in scripts/recipes/, run here: GNU parallel
/// (locally and over ssh to an sshd started on 127.0.0.1), the Slurm array (its submit
/// script, with a stand-in sbatch that runs the tasks at once) and the Kubernetes Indexed
/// Job (its manifests, with a stand-in kubectl that runs the pods here). Each joins its
/// segments and must decode to the frames of a one-process render; a wrong set must fail.
final class ShardRecipeTests: XCTestCase {
  static let repo = EndToEndTests.repo
  var tmp: URL!
  var work: URL!
  /// framemd5 of the one-process render of `story.lua`.
  var want: [String] = []

  override func setUpWithError() throws {
    try super.setUpWithError()
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-recipes-" + UUID().uuidString)
    work = tmp.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
    // 8 s at 10 fps: 80 frames, a keyframe every 10, so up to 8 shards.
    try Self.story.write(to: work.appendingPathComponent("story.lua"), atomically: true, encoding: .utf8)
    let one = try Self.oneProcess.get()
    XCTAssertEqual(one.render.status, 0, one.render.stderr)
    XCTAssertEqual(one.md5.status, 0, one.md5.stderr)
    want = one.frames
    XCTAssertEqual(want.count, 80)
  }

  static let story = """
    local s = cs.data.sample()[1]
    s:setRange(0, 0.3)
    return cs.scene { width = 160, height = 120, fps = 10, duration = 8,
      root = cs.chart { id = "c", data = s },
      update = function(t) s:setRange(t / 12, t / 12 + 0.3, false) end }
    """

  /// The one-process render of `story.lua` and its framemd5, made once for the class (every
  /// test compares its joined video with the same frames).
  static let oneProcess = Result { () throws -> (render: CLI.Result, md5: CLI.Result, frames: [String]) in
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chartscene-recipes-one-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try story.write(to: dir.appendingPathComponent("story.lua"), atomically: true, encoding: .utf8)
    let one = dir.appendingPathComponent("one.mp4").path
    let r = try CLI.run([dir.appendingPathComponent("story.lua").path, "-o", one])
    let md5 = try ScaleTests.tool("/usr/bin/ffmpeg", ["-v", "error", "-i", one, "-map", "0:v", "-f", "framemd5", "-"])
    return (r, md5, md5.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
  }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

  /// PATH with the built chartscene first, as the recipes call it by name.
  var env: [String: String] {
    ["PATH": CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
  }

  func framemd5(_ path: String) throws -> [String] {
    let r = try ScaleTests.tool("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
  }

  /// A shipped recipe.
  func recipe(_ name: String) -> String { Self.repo.appendingPathComponent("scripts/recipes/" + name).path }

  /// PATH with the stand-ins for sbatch and kubectl (Tests/Fixtures/fakes) first.
  var fakeEnv: [String: String] {
    let state = tmp.appendingPathComponent("fake-state").path
    try? FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    return env.merging([
      "PATH": Self.repo.appendingPathComponent("Tests/Fixtures/fakes").path + ":" + env["PATH"]!,
      "FAKE_SLURM": state, "FAKE_K8S": state,
    ]) { $1 }
  }

  func doc() throws -> String { try String(contentsOf: Self.repo.appendingPathComponent("docs/scale.md"), encoding: .utf8) }

  /// The fenced blocks of docs/scale.md with their language.
  func blocks() throws -> [(lang: String, text: String)] {
    var out: [(String, String)] = []
    var lang: String? = nil
    var text = ""
    for line in try doc().split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if let l = lang { out.append((l, text)); lang = nil } else { lang = String(line.dropFirst(3)); text = "" }
      } else if lang != nil {
        text += line + "\n"
      }
    }
    return out
  }

  func bash(_ script: String, env extra: [String: String] = [:]) throws -> CLI.Result {
    try ScaleTests.tool("/bin/bash", ["-c", script], cwd: work, env: env.merging(extra) { $1 }, timeout: 300)
  }

  func testGNUParallelRecipe() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/parallel") else { throw XCTSkip("GNU parallel is not installed (scripts/install-deps)") }
    // 11 shards of 8 keyframe intervals: three empty ones.
    var r = try bash("\(recipe("parallel-local.sh")) story.lua 11 story.mp4")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)
    for f in ["out/seg-1.mp4", "out/seg-11.mp4", "logs/joblog", "logs/shard-11.log"] {
      XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent(f).path), f)
    }
    // A worker that renders shard 2 otherwise (another theme): the join refuses the set.
    let wrap = tmp.appendingPathComponent("odd-worker")
    try """
      #!/bin/bash
      case " $* " in *" --shard 2/"*) exec chartscene "$@" --theme night ;; *) exec chartscene "$@" ;; esac
      """.write(to: wrap, atomically: true, encoding: .utf8)
    chmod(wrap.path, 0o755)
    r = try bash("\(recipe("parallel-local.sh")) story.lua 4 wrong.mp4", env: ["CHARTSCENE": wrap.path])
    XCTAssertNotEqual(r.status, 0)
    XCTAssertEqual(r.stderr, "error: cannot join 'out/seg-2.mp4': it is from another render than 'out/seg-1.mp4' (the scene, its files or the options differ)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("wrong.mp4").path))
    // A failing shard stops before the join.
    r = try bash("\(recipe("parallel-local.sh")) story.lua 4 failed.mp4 --theme dusk")
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("error: a shard failed"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("failed.mp4").path))
  }

  /// GNU parallel's --sshlogin to an sshd started here on 127.0.0.1 (skipped when sshd
  /// cannot start); the script goes over with --basefile, the segments come back with
  /// --return, as in docs/scale.md. Everything runs in one bash script under `timeout`, with
  /// its output in files, so nothing here can wait for ever.
  func testGNUParallelOverSSH() throws {
    let fm = FileManager.default
    guard fm.isExecutableFile(atPath: "/usr/bin/parallel") else { throw XCTSkip("GNU parallel is not installed (scripts/install-deps)") }
    guard fm.isExecutableFile(atPath: "/usr/sbin/sshd"), fm.isExecutableFile(atPath: "/usr/bin/ssh-keygen") else {
      throw XCTSkip("openssh-server is not installed (scripts/install-deps)")
    }
    guard fm.isExecutableFile(atPath: "/usr/bin/rsync") else { throw XCTSkip("rsync (GNU parallel's --basefile and --return) is not installed (scripts/install-deps)") }
    let ssh = tmp.appendingPathComponent("ssh").path
    let remote = tmp.appendingPathComponent("remote").path
    let port = 20000 + Int(getpid() % 20000)
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    // chartscene is not on the remote PATH here: call it by its path (a worker would have
    // it installed).
    let binary = CLI.binary.path
    let script = """
      set -u
      mkdir -p \(ssh) \(remote)
      ssh-keygen -q -t ed25519 -N '' -f \(ssh)/host && ssh-keygen -q -t ed25519 -N '' -f \(ssh)/id || exit 77
      cp \(ssh)/id.pub \(ssh)/authorized_keys
      [ "$(id -u)" = 0 ] && mkdir -p /run/sshd
      cat > \(ssh)/sshd_config <<EOF
      Port \(port)
      ListenAddress 127.0.0.1
      HostKey \(ssh)/host
      AuthorizedKeysFile \(ssh)/authorized_keys
      PidFile \(ssh)/sshd.pid
      UsePAM no
      StrictModes no
      PasswordAuthentication no
      KbdInteractiveAuthentication no
      PubkeyAuthentication yes
      PermitRootLogin prohibit-password
      EOF
      /usr/sbin/sshd -D -e -f \(ssh)/sshd_config 2>\(ssh)/sshd.log </dev/null &
      SSHD=$!
      trap 'kill $SSHD 2>/dev/null' EXIT
      SSH="ssh -p \(port) -i \(ssh)/id -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=5"
      up=0
      for i in $(seq 1 40); do
        kill -0 $SSHD 2>/dev/null || break
        if $SSH \(user)@127.0.0.1 true </dev/null >/dev/null 2>&1; then up=1; break; fi
        sleep 0.25
      done
      [ $up = 1 ] || exit 77
      SSH="$SSH" SSHLOGIN=2/\(user)@127.0.0.1 WORKDIR=\(remote) CHARTSCENE=\(binary) \\
        \(recipe("parallel-ssh.sh")) story.lua 3 story.mp4 </dev/null
      """
    try script.write(to: tmp.appendingPathComponent("ssh.sh"), atomically: true, encoding: .utf8)
    let out = tmp.appendingPathComponent("ssh.out")
    _ = fm.createFile(atPath: out.path, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    p.arguments = ["-k", "5", "240", "/bin/bash", tmp.appendingPathComponent("ssh.sh").path]
    p.currentDirectoryURL = work
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let handle = try FileHandle(forWritingTo: out)
    p.standardOutput = handle
    p.standardError = handle
    p.standardInput = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    try handle.close()
    let log = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    if p.terminationStatus == 77 { throw XCTSkip("sshd could not start on 127.0.0.1:\(port): \(log)") }
    XCTAssertEqual(p.terminationStatus, 0, log)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)
    // The segments were made over there and brought back.
    for i in 1...3 { XCTAssertTrue(fm.fileExists(atPath: work.appendingPathComponent("out/seg-\(i).mp4").path)) }
    XCTAssertTrue(fm.fileExists(atPath: work.appendingPathComponent("logs/joblog").path))
  }

  /// The Slurm recipe on a real one-node Slurm (Debian's slurm-wlm, started by
  /// scripts/slurm-local): ten shards of eight keyframe parts (two empty), then the join
  /// job after them; the joined video is the one-process render, frame for frame.
  func testSlurmRecipeOnAOneNodeCluster() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/slurmctld") else { throw XCTSkip("slurm-wlm is not installed (scripts/install-deps installs it)") }
    let up = try ScaleTests.tool(Self.repo.appendingPathComponent("scripts/slurm-local").path, [], cwd: work, env: env, timeout: 60)
    XCTAssertEqual(up.status, 0, up.stderr)
    defer { _ = try? ScaleTests.tool(Self.repo.appendingPathComponent("scripts/slurm-local").path, ["stop"], cwd: work, env: env, timeout: 30) }
    let r = try bash("\(recipe("slurm-submit.sh")) story.lua 10 story.mp4")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.hasPrefix("shards: job "), r.stdout)
    // Wait for the array and the join to leave the queue: these two jobs, not every job (the
    // node is machine-wide; another run's jobs may be queued, and waiting for them took the
    // whole 180 s). "shards: job A (array 1-10); join: job B into story.mp4"
    let ids = r.stdout.split(whereSeparator: { !$0.isNumber }).map(String.init).filter { !$0.isEmpty }
    XCTAssertGreaterThanOrEqual(ids.count, 4, r.stdout)
    let array = ids.first ?? "?", join = ids.count > 3 ? ids[3] : "?"
    let start = Date()
    while Date().timeIntervalSince(start) < 180 {
      // Job ids of the queue, one a line: "A_[4-10]", "A_3", "B".
      let q = try ScaleTests.tool("/usr/bin/squeue", ["-h", "-o", "%i"], cwd: work, env: env, timeout: 30)
      let ours = q.stdout.split(separator: "\n").filter { $0 == array || $0.hasPrefix(array + "_") || $0 == join }
      if q.status == 0 && ours.isEmpty { break }
      usleep(200_000)
    }
    let log = (try? String(contentsOf: work.appendingPathComponent("logs/concat.log"), encoding: .utf8)) ?? "(no logs/concat.log)"
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want, log)
  }

  /// scripts/recipes/slurm-submit.sh with a stand-in sbatch: the array, then the join
  /// after it; and slurm-shards.sbatch as the tasks of an array numbered from 0.
  func testSlurmRecipe() throws {
    var r = try ScaleTests.tool("/bin/bash", [recipe("slurm-submit.sh"), "story.lua", "10", "story.mp4"], cwd: work, env: fakeEnv, timeout: 300)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.hasPrefix("shards: job 101 (array 1-10); join: job 102 into story.mp4"), r.stdout)
    let concatLog = (try? String(contentsOf: work.appendingPathComponent("logs/concat.log"), encoding: .utf8)) ?? "(none)"
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want, concatLog)
    for i in 1...10 { XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("logs/shard-\(i).log").path)) }
    // The #SBATCH lines are those of an array job.
    let text = try String(contentsOfFile: recipe("slurm-shards.sbatch"), encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("#!/bin/bash\n"))
    XCTAssertTrue(text.contains("\n#SBATCH --array=1-8\n"), text)
    // An array numbered from 0 (sbatch --array=0-7): seg-1 … seg-8 all the same.
    try FileManager.default.removeItem(at: work.appendingPathComponent("out"))
    for id in 0...7 {
      r = try ScaleTests.tool("/bin/bash", [recipe("slurm-shards.sbatch"), "story.lua"], cwd: work,
                              env: env.merging(["SLURM_ARRAY_TASK_ID": String(id), "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8"]) { $1 })
      XCTAssertEqual(r.status, 0, "task \(id): \(r.stderr)")
    }
    r = try bash("chartscene concat zero.mp4 $(seq -f 'out/seg-%g.mp4' 1 8)")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("zero.mp4").path), want)
    // The join of a set with a shard of another render fails (logs/concat.log says which).
    r = try ScaleTests.tool("/bin/bash", [recipe("slurm-shards.sbatch"), "story.lua", "--theme", "night"], cwd: work,
                            env: env.merging(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"]) { $1 })
    XCTAssertEqual(r.status, 0, r.stderr)
    r = try bash("chartscene concat wrong.mp4 $(seq -f 'out/seg-%g.mp4' 1 8)")
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.stderr, "error: cannot join 'out/seg-3.mp4': it is from another render than 'out/seg-1.mp4' (the scene, its files or the options differ)\n")
  }

  /// scripts/recipes/k8s-indexed-job.sh: its manifests (an Indexed Job, a join Job), and the
  /// whole run with a stand-in kubectl that runs the pods here.
  func testKubernetesRecipe() throws {
    var r = try ScaleTests.tool("/bin/bash", [recipe("k8s-indexed-job.sh"), "story.lua", "12", "story.mp4"], cwd: work, env: fakeEnv.merging(["DRY_RUN": "1"]) { $1 })
    XCTAssertEqual(r.status, 0, r.stderr)
    let parser = """
      import json, re, sys
      text = open(sys.argv[1]).read()
      try:
          import yaml
          job = yaml.safe_load(text)
          spec = job["spec"]
          c = spec["template"]["spec"]["containers"][0]
          out = {"kind": job["kind"], "mode": spec.get("completionMode"), "completions": spec.get("completions"), "command": c["command"], "workingDir": c.get("workingDir")}
      except ImportError:
          grab = lambda k: (re.search(r"^\\s*" + k + r":\\s*(.+)$", text, re.M) or [None, None])[1]
          out = {"kind": grab("kind"), "mode": grab("completionMode"), "completions": int(grab("completions") or 0) or None, "command": json.loads(grab("command")), "workingDir": grab("workingDir")}
      print(json.dumps(out))
      """
    func manifest(_ name: String) throws -> [String: Any] {
      let p = try ScaleTests.tool("/usr/bin/python3", ["-c", parser, work.appendingPathComponent("logs/" + name).path])
      XCTAssertEqual(p.status, 0, p.stderr)
      return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(p.stdout.utf8)) as? [String: Any])
    }
    let job = try manifest("k8s-shards.yaml")
    XCTAssertEqual(job["kind"] as? String, "Job")
    XCTAssertEqual(job["mode"] as? String, "Indexed")
    XCTAssertEqual(job["completions"] as? Int, 12)
    XCTAssertEqual(job["workingDir"] as? String, "/work")
    let command = try XCTUnwrap(job["command"] as? [String])
    XCTAssertEqual(Array(command.prefix(2)), ["sh", "-c"])
    XCTAssertTrue(command[2].contains("--shard auto/12 -o out/seg-$((JOB_COMPLETION_INDEX + 1)).mp4"), command[2])
    // The manifest docs/scale.md shows is the one the recipe writes.
    r = try ScaleTests.tool("/bin/bash", [recipe("k8s-indexed-job.sh"), "story.lua", "8", "story.mp4"], cwd: work, env: fakeEnv.merging(["DRY_RUN": "1"]) { $1 })
    XCTAssertEqual(r.status, 0, r.stderr)
    let shown = try XCTUnwrap(try blocks().first { $0.lang == "yaml" && $0.text.contains("kind: Job") }?.text)
    XCTAssertEqual(shown, try String(contentsOf: work.appendingPathComponent("logs/k8s-shards.yaml"), encoding: .utf8))
    let join = try manifest("k8s-concat.yaml")
    XCTAssertNil(join["mode"] as? String)
    XCTAssertTrue((join["command"] as? [String])?.last?.contains("chartscene concat story.mp4") == true)
    // The whole run: 12 pods (4 with no frames), then the join.
    r = try ScaleTests.tool("/bin/bash", [recipe("k8s-indexed-job.sh"), "story.lua", "12", "story.mp4"], cwd: work, env: fakeEnv, timeout: 300)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)
    // Options reach every pod: another render than the one before.
    r = try ScaleTests.tool("/bin/bash", [recipe("k8s-indexed-job.sh"), "story.lua", "3", "night.mp4", "--theme", "night", "--arg", "title=It's \"night\""], cwd: work, env: fakeEnv, timeout: 300)
    XCTAssertEqual(r.status, 0, r.stderr)
    let night = tmp.appendingPathComponent("night.mp4").path
    XCTAssertEqual(try CLI.run([work.appendingPathComponent("story.lua").path, "--theme", "night", "--arg", "title=It's \"night\"", "-o", night]).status, 0)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("night.mp4").path), try framemd5(night))
    // A join of a wrong set fails the run, and says why.
    r = try bash("chartscene story.lua --shard 2/3 -o out/seg-2.mp4")
    XCTAssertEqual(r.status, 0, r.stderr)
    let remade = try String(contentsOf: work.appendingPathComponent("logs/k8s-concat.yaml"), encoding: .utf8)
    XCTAssertTrue(remade.contains("night.mp4"))
    r = try bash("kubectl apply -f logs/k8s-concat.yaml && kubectl get job chartscene-shards-concat && kubectl logs job/chartscene-shards-concat", env: fakeEnv)
    XCTAssertTrue(r.stdout.contains("Failed"), r.stdout)
    XCTAssertTrue(r.stdout.contains("error: cannot join 'out/seg-2.mp4': it is from another render than 'out/seg-1.mp4'"), r.stdout)
  }
}
