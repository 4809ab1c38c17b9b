/// The program's version, kept only here: `dialkiosk --version` prints it, Home Assistant's
/// device and origin carry it, and a packaging test checks packaging/debian/changelog's top
/// entry against it (the package's version comes from there).
package enum DialKioskVersion {
    package static let string = "0.1.0"
}
