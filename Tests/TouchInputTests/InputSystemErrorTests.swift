import Glibc
import Testing
@testable import TouchInput

@Suite struct InputSystemErrorTests {
    @Test func callsNameTheOperationAndTheErrno() {
        #expect(InputSystemError(operation: "assign seat seat9 (libinput_udev_assign_seat)", errno: ENODEV).description
            == "Failed to assign seat seat9 (libinput_udev_assign_seat): No such device")
        // libinput_udev_create_context fails without an errno.
        #expect(InputSystemError(operation: "create a libinput context", errno: 0).description
            == "Failed to create a libinput context: failed")
    }

    @Test func deviceNodesNameThePathAndTheGroupWhenItIsAPermissionProblem() {
        #expect(InputSystemError(.open, operation: "/dev/input/event3", errno: EACCES).description
            == "/dev/input/event3: Permission denied (is the user in group input?)")
        #expect(InputSystemError(.open, operation: "/dev/input/event3", errno: ENODEV).description
            == "/dev/input/event3: No such device")
        #expect(InputSystemError(.open, operation: "/dev/input/event3", errno: EPERM).isPermissionProblem)
        #expect(!InputSystemError(operation: "dispatch", errno: EIO).isPermissionProblem)
    }

    @Test func anEmptySeatIsItsOwnMessage() {
        #expect(InputSystemError(.noDevices, operation: "no input devices on seat seat0", errno: 0).description
            == "no input devices on seat seat0")
    }
}
