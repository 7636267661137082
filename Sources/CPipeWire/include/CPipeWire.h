#ifndef HEE_CPIPEWIRE_H
#define HEE_CPIPEWIRE_H
// The clip's own PipeWire playback stream (see pipewire_clip.c): connected once and kept
// connected, made inactive while the keyboard is silent, so the first press after a pause
// starts sound as fast as any press, and an idle keyboard wakes nothing. libpipewire is
// loaded with dlopen when sound is first needed; its headers come from libpipewire-0.3-dev.
#include <stddef.h>
#include <stdint.h>

typedef struct hee_pw_clip hee_pw_clip;

/// Loads libpipewire-0.3.so.0 and initialises it (once). Returns 0, or -1 with the reason in
/// `error` (`size` bytes).
int hee_pw_load(char *error, size_t size);

/// A playback stream for one clip: `frames` (`count` interleaved signed 16-bit stereo frames
/// at `rate` Hz, copied), in buffers of `quantum` frames, named for volume mixers
/// (`app_name`, `stream_name`, `role`, `icon`). Connected to the default output and active;
/// silent until `hee_pw_clip_play`. Returns NULL with the reason in `error` (`hee_pw_load`
/// first).
hee_pw_clip *hee_pw_clip_open(const char *app_name, const char *stream_name, const char *role, const char *icon,
                              unsigned rate, unsigned quantum, const int16_t *frames, size_t count,
                              char *error, size_t size);
/// Disconnects and frees the stream.
void hee_pw_clip_close(hee_pw_clip *clip);
/// Active (1): the server runs the stream every quantum; inactive (0): it is not scheduled at
/// all (no wake-up in the app or for it), its links kept, so activating it again is one
/// message and the next cycle.
void hee_pw_clip_set_active(hee_pw_clip *clip, int active);
/// Plays the clip from its start (cutting off a playback still running).
void hee_pw_clip_play(hee_pw_clip *clip);
/// Stops the clip.
void hee_pw_clip_stop(hee_pw_clip *clip);
/// Gain 0...1 applied to the clip's samples.
void hee_pw_clip_set_volume(hee_pw_clip *clip, float gain);
/// Whether the clip is still playing.
int hee_pw_clip_is_playing(hee_pw_clip *clip);
/// The stream's state: 1 streaming, 0 not (yet) streaming or inactive, -1 failed (the server
/// went away, or refused it), with the reason in `error` (`size` bytes).
int hee_pw_clip_state(hee_pw_clip *clip, char *error, size_t size);
/// Frames the stream has handed to the server since it opened.
uint64_t hee_pw_clip_frames(hee_pw_clip *clip);
/// Nanoseconds since it last did; UINT64_MAX when it never has.
uint64_t hee_pw_clip_since_process(hee_pw_clip *clip);

#endif
