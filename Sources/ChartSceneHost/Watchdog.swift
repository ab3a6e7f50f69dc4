import CLuaShim
import Encoding
import Glibc

/// Stops the process when a script's call is stuck past its time limit where the Lua hook
/// cannot reach it (inside a C library function, e.g. a pathological `string.find`): the
/// hook stops ordinary Lua code at the deadline; this thread ends everything `grace`
/// seconds later, with the usual one-line error, removing the temporary files first.
public enum Watchdog {
  public static func start(grace: Double = 2) {
    // An error outside a protected call (Lua would abort): the same one line and exit.
    cs_setfatal { message in
      TempFiles.removeAll()
      Session.printError("error: " + String(cString: message!))
      _exit(1)
    }
    cs_startwatchdog(grace) { message in
      TempFiles.removeAll()
      Session.printError("error: " + String(cString: message!))
      _exit(1)
    }
  }
}
