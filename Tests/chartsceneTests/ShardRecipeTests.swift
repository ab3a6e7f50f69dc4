import Foundation
import XCTest

/// The recipes of docs/scale.md, run here: GNU parallel (locally and over ssh to an sshd
/// started on 127.0.0.1), the Kubernetes Indexed Job's and the Slurm array's commands. Each
/// joins its segments and must decode to the frames of a one-process render.
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
    try """
      local s = cs.data.sample()[1]
      s:setRange(0, 0.3)
      return cs.scene { width = 160, height = 120, fps = 10, duration = 8,
        root = cs.chart { id = "c", data = s },
        update = function(t) s:setRange(t / 12, t / 12 + 0.3, false) end }
      """.write(to: work.appendingPathComponent("story.lua"), atomically: true, encoding: .utf8)
    let one = tmp.appendingPathComponent("one.mp4").path
    let r = try CLI.run([work.appendingPathComponent("story.lua").path, "-o", one])
    XCTAssertEqual(r.status, 0, r.stderr)
    want = try framemd5(one)
    XCTAssertEqual(want.count, 80)
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
    let block = try XCTUnwrap(try blocks().first { $0.lang == "sh" && $0.text.contains("parallel -j") }?.text)
    let r = try bash(block)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)
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
      N=3
      parallel --ssh "$SSH" --sshlogin 2/\(user)@127.0.0.1 --workdir \(remote) \\
        --basefile story.lua --return seg-{}.mp4 --cleanup \\
        \(binary) story.lua --shard {}/$N -o seg-{}.mp4 ::: $(seq 1 $N) </dev/null || exit 1
      chartscene concat story.mp4 $(seq -f 'seg-%g.mp4' 1 $N)
      """
    try script.write(to: tmp.appendingPathComponent("ssh.sh"), atomically: true, encoding: .utf8)
    let out = tmp.appendingPathComponent("ssh.out")
    fm.createFile(atPath: out.path, contents: nil)
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
    for i in 1...3 { XCTAssertTrue(fm.fileExists(atPath: work.appendingPathComponent("seg-\(i).mp4").path)) }
  }

  func testKubernetesAndSlurmManifests() throws {
    // Kubernetes: parse the Indexed Job (PyYAML when present; else the command is a flow
    // list, which is JSON).
    let yaml = try XCTUnwrap(try blocks().first { $0.lang == "yaml" && $0.text.contains("kind: Job") }?.text)
    let yamlFile = tmp.appendingPathComponent("job.yaml")
    try yaml.write(to: yamlFile, atomically: true, encoding: .utf8)
    let parser = """
      import json, re, sys
      text = open(sys.argv[1]).read()
      try:
          import yaml
          job = yaml.safe_load(text)
          spec = job["spec"]
          c = spec["template"]["spec"]["containers"][0]
          out = {"kind": job["kind"], "mode": spec["completionMode"], "completions": spec["completions"], "command": c["command"], "workingDir": c.get("workingDir")}
      except ImportError:
          grab = lambda k: re.search(r"^\\s*" + k + r":\\s*(.+)$", text, re.M).group(1).strip()
          out = {"kind": grab("kind"), "mode": grab("completionMode"), "completions": int(grab("completions")), "command": json.loads(grab("command")), "workingDir": grab("workingDir")}
      print(json.dumps(out))
      """
    let p = try ScaleTests.tool("/usr/bin/python3", ["-c", parser, yamlFile.path])
    XCTAssertEqual(p.status, 0, p.stderr)
    let job = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(p.stdout.utf8)) as? [String: Any])
    XCTAssertEqual(job["kind"] as? String, "Job")
    XCTAssertEqual(job["mode"] as? String, "Indexed")
    let n = try XCTUnwrap(job["completions"] as? Int)
    XCTAssertEqual(n, 8)
    let command = try XCTUnwrap(job["command"] as? [String])
    XCTAssertEqual(Array(command.prefix(2)), ["sh", "-c"])
    XCTAssertTrue(command[2].contains("--shard $((JOB_COMPLETION_INDEX + 1))/8"), command[2])
    for index in 0..<n {
      let r = try ScaleTests.tool("/bin/sh", Array(command.dropFirst()), cwd: work, env: env.merging(["JOB_COMPLETION_INDEX": String(index)]) { $1 })
      XCTAssertEqual(r.status, 0, "index \(index): \(r.stderr)")
    }
    // The join the page gives for when the Job completes.
    let doc = try doc()
    let join = try XCTUnwrap(doc.range(of: "When the Job completes: `").map { doc[$0.upperBound...].prefix { $0 != "`" } })
    var r = try bash(String(join))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)

    // Slurm: the array script, run once per task id with the variables Slurm sets.
    try FileManager.default.removeItem(at: work.appendingPathComponent("out"))
    try FileManager.default.createDirectory(at: work.appendingPathComponent("out"), withIntermediateDirectories: true)
    try FileManager.default.removeItem(at: work.appendingPathComponent("story.mp4"))
    let slurm = try XCTUnwrap(try blocks().first { $0.lang == "sh" && $0.text.contains("#SBATCH --array=") }?.text)
    let array = try XCTUnwrap(slurm.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
    let bounds = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
    XCTAssertEqual(bounds, [1, 8])
    let script = tmp.appendingPathComponent("shards.sh")
    try slurm.write(to: script, atomically: true, encoding: .utf8)
    for id in bounds[0]...bounds[1] {
      r = try ScaleTests.tool("/bin/bash", [script.path], cwd: work, env: env.merging(["SLURM_ARRAY_TASK_ID": String(id), "SLURM_ARRAY_TASK_COUNT": String(bounds[1] - bounds[0] + 1)]) { $1 })
      XCTAssertEqual(r.status, 0, "task \(id): \(r.stderr)")
    }
    r = try bash(String(join))
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try framemd5(work.appendingPathComponent("story.mp4").path), want)
  }
}
