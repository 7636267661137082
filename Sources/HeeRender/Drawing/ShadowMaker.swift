/// Soft shadows like SwiftUI's `.shadow(radius:)`: the alpha of a shape, blurred.
///
/// Three box blurs approximate a Gaussian (the central limit theorem); `radius` follows Core
/// Graphics' convention, a Gaussian of standard deviation radius ÷ 2.
public enum ShadowMaker {
    /// A shadow surface for `shape`: black with `opacity` × the blurred alpha of `shape`,
    /// extended by `margin` pixels on every side (the caller draws it offset by -margin).
    /// - Parameters:
    ///   - radius: SwiftUI's shadow radius, in pixels.
    /// - Throws: `SDLError` when a surface cannot be allocated.
    public static func shadow(of shape: Surface, radius: Double, opacity: Double) throws(SDLError) -> (Surface, margin: Int) {
        let sigma = radius / 2
        let margin = Int((sigma * 3).rounded(.up)) + 1
        let w = shape.width + 2 * margin, h = shape.height + 2 * margin
        var alpha = [Float](repeating: 0, count: w * h)
        shape.withPixels { px, pitch in
            for y in 0..<shape.height {
                for x in 0..<shape.width {
                    alpha[(y + margin) * w + x + margin] = Float(px[y * pitch + x] >> 24) / 255
                }
            }
        }
        // Box widths for three passes (W3C filter effects' recipe for a Gaussian).
        let d = max(Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down)), 1)
        // An odd box is centred on its pixel; an even one is not, so (same recipe) an even
        // width runs once leaning left, once leaning right and once as the next odd width:
        // three equal even boxes would move the shadow 1.5 px right and down.
        let passes: [(width: Int, left: Int)] = d % 2 == 1
            ? [(d, d / 2), (d, d / 2), (d, d / 2)]
            : [(d, d / 2), (d, d / 2 - 1), (d + 1, d / 2)]
        for pass in passes {
            boxBlur(&alpha, w, h, pass.width, left: pass.left, horizontal: true)
            boxBlur(&alpha, w, h, pass.width, left: pass.left, horizontal: false)
        }
        let out = try Surface(width: w, height: h)
        out.withPixels { px, pitch in
            for y in 0..<h {
                for x in 0..<w {
                    let a = UInt32((min(alpha[y * w + x], 1) * Float(opacity) * 255).rounded())
                    px[y * pitch + x] = a << 24
                }
            }
        }
        return (out, margin)
    }

    /// One box blur of width `d` along rows or columns (running sum, O(w·h)): each output
    /// pixel is the mean of the `d` pixels from `left` before it.
    static func boxBlur(_ a: inout [Float], _ w: Int, _ h: Int, _ d: Int, left: Int, horizontal: Bool) {
        let lines = horizontal ? h : w
        let length = horizontal ? w : h
        let right = d - left - 1
        var line = [Float](repeating: 0, count: length)
        for l in 0..<lines {
            func index(_ i: Int) -> Int { horizontal ? l * w + i : i * w + l }
            for i in 0..<length { line[i] = a[index(i)] }
            var sum: Float = 0
            for i in 0...min(right, length - 1) { sum += line[i] }
            for i in 0..<length {
                a[index(i)] = sum / Float(d)
                let add = i + right + 1, drop = i - left
                if add < length { sum += line[add] }
                if drop >= 0 { sum -= line[drop] }
            }
        }
    }
}
