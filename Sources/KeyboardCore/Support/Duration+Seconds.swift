extension Duration {
    /// The duration as floating-point seconds (for easing curves and the trace's `"t"`).
    /// Comparisons that decide behaviour (the 0.25 s double tap) stay on `Duration`, which is
    /// exact, so 249 ms and 251 ms fall on the sides they should.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
