#ifndef HEE_CSDL_SHIM_H
#define HEE_CSDL_SHIM_H
// One header over SDL2, SDL2_ttf and SDL2_mixer. Function-like and cast macros do not
// import into Swift, so the ones we need are re-exported here as constants or inline functions.
#include <SDL.h>
#include <SDL_ttf.h>
#include <SDL_mixer.h>

/// `SDL_TOUCH_MOUSEID`: the `which` of mouse events that SDL synthesises from touches.
static const Uint32 HEE_SDL_TOUCH_MOUSEID = SDL_TOUCH_MOUSEID;
/// `SDL_MOUSE_TOUCHID`: the touch id of touch events that SDL synthesises from the mouse.
static const Sint64 HEE_SDL_MOUSE_TOUCHID = SDL_MOUSE_TOUCHID;
/// `SDL_WINDOWPOS_CENTERED`.
static const int HEE_SDL_WINDOWPOS_CENTERED = SDL_WINDOWPOS_CENTERED;
/// `SDL_BUTTON_LEFT`.
static const Uint8 HEE_SDL_BUTTON_LEFT = SDL_BUTTON_LEFT;
/// `SDL_BUTTON_LMASK`: the left button in a motion event's `state`.
static const Uint32 HEE_SDL_BUTTON_LMASK = SDL_BUTTON_LMASK;
/// `AUDIO_S16SYS` and `AUDIO_F32SYS`: native-endian sample formats.
static const Uint16 HEE_AUDIO_S16SYS = AUDIO_S16SYS;
static const Uint16 HEE_AUDIO_F32SYS = AUDIO_F32SYS;
/// `MIX_MAX_VOLUME`: full volume for `Mix_Volume`.
static const int HEE_MIX_MAX_VOLUME = MIX_MAX_VOLUME;
/// `SDL_PIXELFORMAT_ARGB8888` (an enum value computed by a macro in some SDL versions).
static const Uint32 HEE_PIXELFORMAT_ARGB8888 = SDL_PIXELFORMAT_ARGB8888;

/// `SDL_SaveBMP`: a macro over `SDL_SaveBMP_RW`.
static inline int hee_SDL_SaveBMP(SDL_Surface *surface, const char *file) {
    return SDL_SaveBMP(surface, file);
}
/// `SDL_MUSTLOCK`.
static inline int hee_SDL_MUSTLOCK(SDL_Surface *surface) { return SDL_MUSTLOCK(surface); }

/// ALSA prints its own errors to stderr (eight lines when there is no sound card). The app
/// reports an unusable audio device itself, in one line, so ALSA's messages are silenced.
/// SDL loads the same libasound, so the handler applies to it.
#include <alsa/asoundlib.h>
static void hee_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void hee_silence_alsa(void) { snd_lib_error_set_handler(hee_alsa_silent); }

#endif
