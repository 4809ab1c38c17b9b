/// The text files of a Plymouth theme that shows one picture, unscaled: the `.plymouth` file and
/// the script for Plymouth's `script` plugin (shipped in Debian's `plymouth` package, drawn by
/// its DRM renderer). Plain data in, file contents out.
struct PlymouthTheme: Equatable {
    /// The theme's name: its directory under `themes` and the base of its `.plymouth` file, as
    /// `plymouth-set-default-theme NAME` expects.
    static let name = "dialkiosk"
    /// Where Plymouth's themes live on Debian (and in the initramfs it builds).
    static let themesDirectory = "/usr/share/plymouth/themes"
    static let pictureFile = "dial.png"

    var width: Int
    var height: Int

    var directory: String { "\(Self.themesDirectory)/\(Self.name)" }
    var themeFileName: String { "\(Self.name).plymouth" }
    var scriptFileName: String { "\(Self.name).script" }

    var themeFile: String {
        """
        [Plymouth Theme]
        Name=DialKiosk
        Description=The DialKiosk dial at rest (\(width)x\(height)), written by dialkiosk splash
        ModuleName=script

        [script]
        ImageDir=\(directory)
        ScriptFile=\(directory)/\(scriptFileName)

        """
    }

    /// The picture at its own size, centred on each screen (at the top left of a screen of the
    /// same size, so Plymouth's frame equals the dial's first one), on black.
    var scriptFile: String {
        """
        # Written by dialkiosk splash: the dial at rest, \(width)x\(height) pixels, drawn unscaled so the
        # hand-over to the dial (README "Boot") changes no pixel on an output of that size.
        Window.SetBackgroundTopColor(0, 0, 0);
        Window.SetBackgroundBottomColor(0, 0, 0);
        dial.image = Image("\(Self.pictureFile)");
        dial.sprite = Sprite(dial.image);
        dial.sprite.SetX(Window.GetX() + Math.Int((Window.GetWidth() - dial.image.GetWidth()) / 2));
        dial.sprite.SetY(Window.GetY() + Math.Int((Window.GetHeight() - dial.image.GetHeight()) / 2));
        dial.sprite.SetZ(0);

        """
    }
}
