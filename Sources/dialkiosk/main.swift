import DialKioskApp
import KioskLoop

HeapPolicy.apply()
DialKioskCommand.main()
