/// A colour with components in 0...1 and straight (not premultiplied) opacity, like
/// SwiftUI's `Color(red:green:blue:opacity:)`.
public struct Color: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, opacity: Double

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.opacity = opacity
    }

    /// From 8-bit sRGB components, e.g. `Color(rgb8: 0x00, 0x7A, 0xFF)`.
    public init(rgb8 r: Int, _ g: Int, _ b: Int, opacity: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, opacity: opacity)
    }

    /// Rounded to 8 bits per channel.
    public var rgba8: RGBA8 {
        func q(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        return RGBA8(r: q(red), g: q(green), b: q(blue), a: q(opacity))
    }

    /// The colour `t` of the way from `self` to `other` (all four components).
    public func mixed(with other: Color, _ t: Double) -> Color {
        Color(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
              blue: blue + (other.blue - blue) * t, opacity: opacity + (other.opacity - opacity) * t)
    }

    /// This colour drawn over the opaque `background` (straight-alpha "over").
    public func composited(over background: Color) -> Color {
        let a = opacity
        return Color(red: red * a + background.red * (1 - a), green: green * a + background.green * (1 - a),
                     blue: blue * a + background.blue * (1 - a), opacity: 1)
    }

    public func withOpacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, opacity: opacity)
    }

    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
}
