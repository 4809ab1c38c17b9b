import Glibc

/// poll(2) on `descriptors` for at most `timeoutMS` (-1: no limit), retried when a signal
/// interrupts it: the number of ready descriptors, or the errno.
public func pollDescriptors(_ descriptors: inout [pollfd], timeoutMS: Int32) -> Result<Int32, Errno> {
    let count = nfds_t(descriptors.count)
    return descriptors.withUnsafeMutableBufferPointer { buffer in
        Errno.retryingInterrupts { poll(buffer.baseAddress, count, timeoutMS) }
    }
}
