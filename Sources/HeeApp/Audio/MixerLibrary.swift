#if canImport(Glibc)
import Glibc
#endif
import CSDL
import HeeRender
import Synchronization

/// SDL_mixer, loaded when sound is first needed rather than when the program starts.
///
/// Debian's SDL_mixer links every codec it supports (FluidSynth with GLib, FLAC, Opus,
/// Vorbis, MPEG, tracker formats): loading it costs about 16 ms, a fifth of the start-up
/// budget, for a keyboard that plays one WAV clip. So the app does not link it; the audio
/// engine loads it with `dlopen` after the first frame is on screen (never with `--mute`)
/// and calls the nine functions it uses through this table. Their C declarations still come
/// from `SDL_mixer.h`.
final class MixerLibrary {
    typealias OpenAudioDevice = @convention(c) (Int32, UInt16, Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias LoadWAV = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<Mix_Chunk>?
    typealias FreeChunk = @convention(c) (UnsafeMutablePointer<Mix_Chunk>?) -> Void
    typealias PlayChannel = @convention(c) (Int32, UnsafeMutablePointer<Mix_Chunk>?, Int32) -> Int32
    typealias ChannelCall = @convention(c) (Int32) -> Int32
    typealias CloseAudio = @convention(c) () -> Void
    typealias QuerySpec = @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<UInt16>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias Volume = @convention(c) (Int32, Int32) -> Int32
    typealias PostMixCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Void
    typealias SetPostMix = @convention(c) (PostMixCallback?, UnsafeMutableRawPointer?) -> Void

    /// The shared object's name (Debian's `libsdl2-mixer-2.0-0`).
    static let soname = "libSDL2_mixer-2.0.so.0"

    let openAudioDevice: OpenAudioDevice
    let loadWAV: LoadWAV
    let freeChunk: FreeChunk
    let playChannel: PlayChannel
    let haltChannel: ChannelCall
    let playing: ChannelCall
    let closeAudio: CloseAudio
    let querySpec: QuerySpec
    let volume: Volume
    let setPostMix: SetPostMix
    private let handle: UnsafeMutableRawPointer

    /// Loads the library and looks up its functions.
    /// - Throws: `SDLError` (function `dlopen`/`dlsym`) with the loader's message.
    init() throws(SDLError) {
        guard let handle = dlopen(Self.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw SDLError("dlopen(\(Self.soname))", message: dlerror().map { String(cString: $0) } ?? "not found")
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) throws(SDLError) -> T {
            guard let address = dlsym(handle, name) else {
                throw SDLError("dlsym(\(name))", message: "missing from \(MixerLibrary.soname)")
            }
            return unsafeBitCast(address, to: type)
        }
        openAudioDevice = try symbol("Mix_OpenAudioDevice", as: OpenAudioDevice.self)
        loadWAV = try symbol("Mix_LoadWAV", as: LoadWAV.self)
        freeChunk = try symbol("Mix_FreeChunk", as: FreeChunk.self)
        playChannel = try symbol("Mix_PlayChannel", as: PlayChannel.self)
        haltChannel = try symbol("Mix_HaltChannel", as: ChannelCall.self)
        playing = try symbol("Mix_Playing", as: ChannelCall.self)
        closeAudio = try symbol("Mix_CloseAudio", as: CloseAudio.self)
        querySpec = try symbol("Mix_QuerySpec", as: QuerySpec.self)
        volume = try symbol("Mix_Volume", as: Volume.self)
        setPostMix = try symbol("Mix_SetPostMix", as: SetPostMix.self)
    }

    // The library stays loaded until the process exits (SDL_mixer keeps global state).
}

/// Sample frames the mixer has produced since the device opened (the audio stream's
/// position), counted on SDL's audio thread; the benchmark reads it at each press.
let mixedFrames = Atomic<UInt64>(0)
/// Bytes per sample frame of the open device.
let mixedFrameBytes = Atomic<UInt64>(4)
/// When the mixer last handed a buffer to the device (nanoseconds, SDL's counter).
let lastMixNanoseconds = Atomic<UInt64>(0)

/// SDL_mixer's post-mix hook (runs on the audio thread): counts the frames mixed. A plain
/// global function, so no actor isolation crosses onto SDL's thread.
func countMixedFrames(_ userData: UnsafeMutableRawPointer?, _ stream: UnsafeMutablePointer<UInt8>?, _ length: Int32) {
    let frame = max(mixedFrameBytes.load(ordering: .relaxed), 1)
    mixedFrames.add(UInt64(length) / frame, ordering: .relaxed)
    lastMixNanoseconds.store(BenchDriver.nanoseconds(), ordering: .relaxed)
}
