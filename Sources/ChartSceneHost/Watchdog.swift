import CLuaShim
import Encoding
import Glibc

/// Stops the process when a script's call is stuck past its time limit where the Lua hook
/// cannot reach it (inside a C library function, e.g. a pathological `string.find`): the
/// hook stops ordinary Lua code at the deadline; this thread ends everything the call's own
/// limit later again (at least 0.5 s, at most `grace`), with the usual one-line error,
/// removing the temporary files first.
public enum Watchdog {
  /// The default of `--max-total-time`: an hour of CPU for one render or lint.
  public static let defaultTotal = 3600.0

  /// Ends the run (temporary files removed, one line, exit 1) once the process has used
  /// `seconds` of CPU time in all; `script` names it in the line. Needs `start()`.
  public static func limitTotal(_ seconds: Double, script: String) {
    let s = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    cs_settotal(seconds, "\(OneLine.clean(script)): the run used more than \(s) s of CPU time in all (--max-total-time)")
  }

  public static func start(grace: Double = 2) {
    // An error outside a protected call (Lua would abort): the same one line and exit.
    cs_setfatal { message in
      TempFiles.removeAll()
      Session.printError("error: " + String(cString: message!))
      _exit(1)
    }
    let rc = cs_startwatchdog(grace) { message in
      TempFiles.removeAll()
      Session.printError("error: " + String(cString: message!))
      _exit(1)
    }
    // Without it a stuck C call could not be stopped: refuse to run rather than hang.
    if rc != 0 {
      Session.printError("error: cannot start the watchdog thread (the system is out of threads)")
      exit(1)
    }
  }
}
