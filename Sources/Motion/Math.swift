#if canImport(Glibc)
import Glibc
#endif

@inline(__always) func expApprox(_ x: Double) -> Double { exp(x) }
@inline(__always) func sinApprox(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosApprox(_ x: Double) -> Double { cos(x) }
