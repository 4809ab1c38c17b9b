import DialKioskApp

HeapPolicy.apply()
DialKioskCommand.main()
