import CSDL

/// A failed SDL, SDL_ttf or SDL_mixer call: the function that failed and the message
/// `SDL_GetError()` gave (SDL_ttf's and SDL_mixer's errors go through the same slot).
public struct SDLError: Error, CustomStringConvertible, Sendable {
    /// The C function that failed, e.g. `SDL_CreateRenderer`.
    public var function: String
    /// `SDL_GetError()` at the time of failure.
    public var message: String

    /// Captures (and clears) the current `SDL_GetError()` for `function`.
    public init(_ function: String) {
        self.function = function
        self.message = String(cString: SDL_GetError())
        SDL_ClearError()
    }

    /// An error with an explicit message (for failures SDL does not describe).
    public init(_ function: String, message: String) {
        self.function = function
        self.message = message
    }

    public var description: String { "\(function) failed: \(message.isEmpty ? "unknown error" : message)" }
}

/// Throws `SDLError` when an SDL call returns a negative status.
/// - Throws: `SDLError` naming `function`.
@discardableResult
public func sdlCheck(_ status: Int32, _ function: String) throws(SDLError) -> Int32 {
    if status < 0 { throw SDLError(function) }
    return status
}

/// Unwraps a pointer an SDL call returned, throwing when it is NULL.
/// - Throws: `SDLError` naming `function`.
public func sdlNonNull<T>(_ pointer: T?, _ function: String) throws(SDLError) -> T {
    guard let pointer else { throw SDLError(function) }
    return pointer
}
