/// The kernel's connector type names, indexed by DRM_MODE_CONNECTOR_* (drm_mode.h); with the
/// per-type index they make the names the kernel logs and sysfs shows ("HDMI-A-1", "Virtual-1").
public enum ConnectorTypeName {
    static let names = ["Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS",
                        "Component", "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI",
                        "DPI", "Writeback", "SPI", "USB"]
    /// DRM_MODE_CONNECTOR_WRITEBACK: a connector that captures frames, never a display.
    public static let writebackType: UInt32 = 18

    /// The name of connector type `type` ("Unknown" for a type newer than this table).
    public static func name(ofType type: UInt32) -> String {
        Int(type) < names.count ? names[Int(type)] : "Unknown"
    }
}
