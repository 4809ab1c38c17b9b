import DialKioskApp

DialKioskCommand.main()
